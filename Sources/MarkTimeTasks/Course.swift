import MarkTimeCore

/// A course: its code, name and letter scale.
public struct Course: Hashable, Sendable {
    public var code: String
    public var name: String
    public var scale: GradeScale

    public init(code: String, name: String, scale: GradeScale = .standard) {
        self.code = code
        self.name = name
        self.scale = scale
    }
}

/// A stored assignment of a course.
public struct StoredAssignment: Hashable, Sendable {
    public var id: Int64?
    public var course: String
    public var assignment: GradeBook.Assignment
    public var due: UTCTime?
    public var classAverage: Double?

    public init(id: Int64? = nil, course: String, assignment: GradeBook.Assignment, due: UTCTime? = nil, classAverage: Double? = nil) {
        self.id = id
        self.course = course
        self.assignment = assignment
        self.due = due
        self.classAverage = classAverage
    }
}

/// A course with its weights and assignments, as the grade maths needs them.
public struct CourseRecord: Sendable {
    public var course: Course
    /// In the order they were set.
    public var weights: [(type: String, percent: Double)]
    public var assignments: [StoredAssignment]

    public init(course: Course, weights: [(type: String, percent: Double)], assignments: [StoredAssignment]) {
        self.course = course
        self.weights = weights
        self.assignments = assignments
    }

    public var book: GradeBook {
        GradeBook(weights: Dictionary(weights.map { ($0.type, $0.percent) }, uniquingKeysWith: { a, _ in a }),
                  assignments: assignments.map(\.assignment))
    }

    public var totalWeight: Double { weights.map(\.percent).reduce(0, +) }
}

extension Course {
    /// The course as it is kept: its code checked (`checkedCode`), its name trimmed and not blank.
    public func checked() throws(InputError) -> Course {
        Course(code: try Self.checkedCode(code), name: try Text.name(name, what: "a course", example: "--name \"Celestial Navigation\""), scale: scale)
    }

    /// A course code as typed: one word of at most 20 characters, trimmed.
    public static func checkedCode(_ code: String) throws(InputError) -> String {
        let code = code.trimmingWhitespace()
        guard !code.isEmpty, !code.contains(where: \.isWhitespace), !code.unicodeScalars.contains(where: Text.isControl), code.count <= 20 else {
            throw InputError("a course code is one word of at most 20 characters, e.g. NAV101")
        }
        return code
    }
}

extension CourseRecord {
    /// The weight of an assignment type (`type`, `percent`) checked against the course:
    /// a percent from 0 to 100, a total of at most 100, and at least the type's explicit
    /// assignment weights. Returns the trimmed type and the spelling of an existing one.
    public func checkWeight(type: String, percent: Double) throws(InputError) -> (type: String, existing: String?) {
        let type = try Self.weightInput(type: type, percent: percent)
        let code = course.code
        let existing = weights.first { $0.type.lowercased() == type.lowercased() }
        let others = weights.filter { $0.type.lowercased() != type.lowercased() }.map(\.percent).reduce(0, +)
        guard others + percent <= 100 + 1e-9 else {
            throw InputError("the weights of \(code) would total \(Position.plain(others + percent))%, over 100: "
                + "they total \(Position.plain(totalWeight))% now (\(weights.map { "\($0.type) \(Position.plain($0.percent))" }.joined(separator: ", ")))")
        }
        let explicit = assignments.filter { $0.assignment.type.lowercased() == type.lowercased() }.compactMap(\.assignment.weight).reduce(0, +)
        guard explicit <= percent + 1e-9 else {
            throw InputError("\(type) assignments of \(code) have explicit weights totalling \(Position.plain(explicit))%: the type needs at least that")
        }
        return (type, existing?.type)
    }

    /// A weight's type and percent as typed, before any course is looked at: the trimmed type.
    public static func weightInput(type: String, percent: Double) throws(InputError) -> String {
        let type = type.trimmingWhitespace()
        guard !type.isEmpty else { throw InputError("give the assignment type, e.g. Exams") }
        guard percent.isFinite, (0...100).contains(percent) else { throw InputError("a weight is a percent from 0 to 100, not \(Position.plain(percent))") }
        return type
    }

    /// An assignment checked against the course (`replacing` the one with that id, when
    /// editing): a title, a known type, a score within 0…out-of, and explicit weights that
    /// fit the type.
    public func check(_ a: StoredAssignment, replacing id: Int64?) throws(InputError) {
        let x = a.assignment
        _ = try Text.name(x.title, what: "an assignment", example: "\"Sun run fix\"")
        guard let type = weights.first(where: { $0.type.lowercased() == x.type.lowercased() }) else {
            throw InputError("\(a.course) has no assignment type '\(x.type)': "
                + (weights.isEmpty ? "set one with `marktime course weight \(a.course) \(x.type) PERCENT`"
                                   : "its types are \(weights.map(\.type).joined(separator: ", "))"))
        }
        guard x.outOf.isFinite, x.outOf > 0 else { throw InputError("--out-of must be more than 0, not \(Position.plain(x.outOf))") }
        if let s = x.score, !(s.isFinite && s >= 0 && s <= x.outOf) {
            throw InputError("score \(Position.plain(s)) is outside 0…\(Position.plain(x.outOf)) (--out-of \(Position.plain(x.outOf)))")
        }
        if let avg = a.classAverage, !(avg.isFinite && avg >= 0 && avg <= x.outOf) {
            throw InputError("the class average \(Position.plain(avg)) is outside 0…\(Position.plain(x.outOf))")
        }
        if let w = x.weight {
            guard w.isFinite, w >= 0 else { throw InputError("--weight must be a percent of the final grade, not \(Position.plain(w))") }
            let others = assignments.filter { $0.id != id && $0.assignment.type.lowercased() == type.type.lowercased() }
                .compactMap(\.assignment.weight).reduce(0, +)
            guard others + w <= type.percent + 1e-9 else {
                throw InputError("explicit weights of \(type.type) would total \(Position.plain(others + w))%, over the type's \(Position.plain(type.percent))%")
            }
        }
    }
}
