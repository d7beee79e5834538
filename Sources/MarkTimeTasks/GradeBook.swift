import MarkTimeCore

/// Letter grades and the lowest percent for each: `A=90,B=80,C=70,D=60`; below the
/// lowest is F.
public struct GradeScale: Hashable, Sendable, CustomStringConvertible {
    /// Highest first.
    public private(set) var letters: [(letter: String, minimum: Double)]

    public static let standard = try! GradeScale("A=90,B=80,C=70,D=60")

    public init(_ text: String) throws(InputError) {
        var letters: [(String, Double)] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let kv = part.split(separator: "=", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
            guard kv.count == 2, !kv[0].isEmpty, let v = Quantity.decimal(kv[1]), (0...100).contains(v) else {
                throw InputError("cannot read the scale '\(Text.escaped(text))': use LETTER=PERCENT pairs, e.g. \"A=90,B=80,C=70,D=60\"")
            }
            if let above = letters.last, v >= above.1 {
                throw InputError("the scale '\(Text.escaped(text))' is out of order: \(kv[0])=\(Position.plain(v)) follows \(above.0)=\(Position.plain(above.1)); "
                    + "give the letters from the highest percent down, e.g. \"A=90,B=80,C=70,D=60\"")
            }
            guard !letters.contains(where: { $0.0.lowercased() == kv[0].lowercased() }) else {
                throw InputError("the scale '\(text)' gives \(kv[0]) twice")
            }
            letters.append((kv[0], v))
        }
        guard !letters.isEmpty else { throw InputError("the scale is empty: use e.g. \"A=90,B=80,C=70,D=60\"") }
        self.letters = letters.sorted { $0.1 > $1.1 }
    }

    /// The letter a percent earns, judged on the percent as shown (`GradeBook.hundredths`),
    /// so 89.996 shows as 90.00 and earns the letter for 90.
    public func letter(for percent: Double) -> String {
        let shown = GradeBook.hundredths(percent)
        return letters.first { shown >= $0.minimum }?.letter ?? "F"
    }

    /// The lowest percent for `letter` (any case); `nil` when the scale has no such letter.
    public func minimum(for letter: String) -> Double? {
        letters.first { $0.letter.lowercased() == letter.lowercased() }?.minimum
    }

    public var description: String { letters.map { "\($0.letter)=\(Position.plain($0.minimum))" }.joined(separator: ",") }

    public static func == (a: GradeScale, b: GradeScale) -> Bool { a.description == b.description }
    public func hash(into h: inout Hasher) { h.combine(description) }
}

/// A course's grade breakdown: assignment types with their share of the final grade,
/// and assignments, graded or pending.
///
/// Within a type, an assignment's share is the type's weight divided equally among
/// the type's assignments that have no explicit weight, after those that do. A type
/// with no assignments yet is pending work of its whole weight.
public struct GradeBook: Hashable, Sendable {
    public struct Assignment: Hashable, Sendable {
        public var title: String
        public var type: String
        public var score: Double?
        public var outOf: Double
        /// An explicit share of the final grade, in percent.
        public var weight: Double?

        public init(title: String, type: String, score: Double? = nil, outOf: Double = 100, weight: Double? = nil) {
            self.title = title
            self.type = type
            self.score = score
            self.outOf = outOf
            self.weight = weight
        }
    }

    /// The one rounding for every grade shown or compared: to the hundredth of a percent.
    public static func hundredths(_ percent: Double) -> Double { (percent * 100).rounded() / 100 }

    /// `89.50`: a percent as shown, two decimals.
    public static func text(_ percent: Double) -> String {
        let h = hundredths(percent)
        guard h.isFinite, abs(h) < 1e12 else { return String(percent) }
        let cents = Int64((abs(h) * 100).rounded())
        let frac = cents % 100
        return (h < 0 ? "-" : "") + "\(cents / 100)." + (frac < 10 ? "0" : "") + "\(frac)"
    }

    /// Type → percent of the final grade.
    public var weights: [String: Double]
    public var assignments: [Assignment]

    public init(weights: [String: Double], assignments: [Assignment]) {
        self.weights = weights
        self.assignments = assignments
    }

    /// Each assignment's share of the final grade, in percent, in order.
    public var shares: [Double] {
        assignments.map { a in
            let type = weights[a.type] ?? 0
            if let w = a.weight { return w }
            let same = assignments.filter { $0.type == a.type }
            let explicit = same.compactMap(\.weight).reduce(0, +)
            return max(0, type - explicit) / Double(same.filter { $0.weight == nil }.count)
        }
    }

    /// Points of the final grade earned so far.
    public var secured: Double {
        zip(assignments, shares).reduce(0) { sum, p in sum + (p.0.score.map { $0 / p.0.outOf * p.1 } ?? 0) }
    }

    /// The share of the final grade already graded.
    public var gradedWeight: Double {
        zip(assignments, shares).reduce(0) { $0 + ($1.0.score == nil ? 0 : $1.1) }
    }

    /// The share still to be earned: pending assignments, and types with none yet.
    public var pendingWeight: Double {
        let pending = zip(assignments, shares).reduce(0) { $0 + ($1.0.score == nil ? $1.1 : 0) }
        let empty = weights.filter { type, _ in !assignments.contains { $0.type == type } }.values.reduce(0, +)
        return pending + empty
    }

    /// The grade on graded work, in percent; `nil` before anything is graded.
    public var current: Double? { gradedWeight > 0 ? secured / gradedWeight * 100 : nil }

    /// The best final grade still possible, in percent of the whole final grade.
    public var possible: Double { secured + pendingWeight }

    /// The types' weights together, in percent of the final grade.
    public var totalWeight: Double { weights.values.reduce(0, +) }

    /// The part of the final grade no type carries yet: it can never be earned until a
    /// weight is set for it.
    public var unassignedWeight: Double { max(0, 100 - totalWeight) }

    /// What the pending work needs to average to reach `target` percent.
    public enum Need: Hashable, Sendable {
        case needs(percent: Double)
        case secured
        case unreachable(best: Double)
    }

    /// Reached when the secured points, as shown, reach `target`; reachable while the
    /// best possible grade, as shown, does.
    public func need(_ target: Double) -> Need {
        if Self.hundredths(secured) >= target { return .secured }
        guard pendingWeight > 0, Self.hundredths(possible) >= target else { return .unreachable(best: possible) }
        return .needs(percent: min(100, (target - secured) / pendingWeight * 100))
    }
}
