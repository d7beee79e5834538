import Foundation
import MarkTimeCore

/// The colour of a member's hand on the family clock, in the order new members get them.
public enum MemberColor: String, CaseIterable, Hashable, Sendable {
    case red, green, yellow, blue, magenta, cyan, white

    /// `red`, `Blue`, …; anything else is refused with the list.
    public static func named(_ text: String) throws(InputError) -> MemberColor {
        guard let color = MemberColor(rawValue: text.trimmingWhitespace().lowercased()) else {
            throw InputError("unknown colour '\(Text.escaped(text))': use \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return color
    }
}

/// The "where is everyone" clock: a dial of sectors (the place kinds, then Unknown)
/// and one hand per member pointing into the sector of where they are.
public struct FamilyClock: Hashable, Sendable {
    public struct Hand: Hashable, Sendable {
        public var name: String
        public var color: MemberColor
        /// The sector it points into: a place kind's raw value, or "unknown".
        public var sector: String
        /// Clockwise from 12 o'clock, degrees.
        public var angle: Double
    }

    public static let sectors = PlaceKind.allCases.map(\.rawValue) + ["unknown"]
    public static let maximumHands = 6

    public var hands: [Hand]

    /// `members`: name, colour and the kind of the place they are at (nil: unknown).
    /// Hands sharing a sector fan out inside it, so none hides another.
    public init(members: [(name: String, color: MemberColor, kind: PlaceKind?)]) {
        let width = 360.0 / Double(Self.sectors.count)
        let shown = members.prefix(Self.maximumHands)
        var hands: [Hand] = []
        for (index, sector) in Self.sectors.enumerated() {
            let here = shown.filter { ($0.kind?.rawValue ?? "unknown") == sector }
            for (i, m) in here.enumerated() {
                let angle = Double(index) * width + width * Double(i + 1) / Double(here.count + 1)
                hands.append(Hand(name: m.name, color: m.color, sector: sector, angle: angle))
            }
        }
        self.hands = shown.compactMap { m in hands.first { $0.name == m.name } }
    }

    /// Where sector `index` starts, clockwise from 12 o'clock, degrees.
    public static func sectorStart(_ index: Int) -> Double { Double(index) * 360 / Double(sectors.count) }

    /// The picture as SVG, `size` pixels square plus a legend below.
    public func svg(size: Double = 400, legend: [String] = []) -> String {
        let c = size / 2, r = size * 0.4
        func point(_ degrees: Double, _ radius: Double) -> (Double, Double) {
            let a = degrees * .pi / 180
            return (c + radius * sin(a), c - radius * cos(a))
        }
        func f(_ v: Double) -> String { String(format: "%.1f", v) }
        let shades = ["#e8f1fb", "#fdf3e1", "#eef8ea", "#e6f6f7", "#f1ecf9", "#f6f6f6", "#fbe9e9"]
        let height = size + Double(legend.count) * 22 + 10
        var out = ["<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(f(size))\" height=\"\(f(height))\" viewBox=\"0 0 \(f(size)) \(f(height))\" font-family=\"sans-serif\">",
                   "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>"]
        for (i, name) in Self.sectors.enumerated() {
            let a0 = Self.sectorStart(i), a1 = Self.sectorStart(i + 1)
            let p0 = point(a0, r), p1 = point(a1, r)
            out.append("<path d=\"M \(f(c)) \(f(c)) L \(f(p0.0)) \(f(p0.1)) A \(f(r)) \(f(r)) 0 0 1 \(f(p1.0)) \(f(p1.1)) Z\" fill=\"\(shades[i % shades.count])\" stroke=\"#888\" stroke-width=\"1\"/>")
            let label = point((a0 + a1) / 2, r * 0.78)
            out.append("<text x=\"\(f(label.0))\" y=\"\(f(label.1))\" font-size=\"13\" text-anchor=\"middle\" dominant-baseline=\"middle\" fill=\"#333\">\(name.capitalized)</text>")
        }
        for hand in hands {
            let tip = point(hand.angle, r * 0.62)
            out.append("<line x1=\"\(f(c))\" y1=\"\(f(c))\" x2=\"\(f(tip.0))\" y2=\"\(f(tip.1))\" stroke=\"\(hand.color.rawValue)\" stroke-width=\"5\" stroke-linecap=\"round\"/>")
            out.append("<circle cx=\"\(f(tip.0))\" cy=\"\(f(tip.1))\" r=\"7\" fill=\"\(hand.color.rawValue)\"/>")
        }
        out.append("<circle cx=\"\(f(c))\" cy=\"\(f(c))\" r=\"6\" fill=\"#333\"/>")
        for (i, line) in legend.enumerated() {
            let color = i < hands.count ? hands[i].color.rawValue : "#333"
            let y = size + Double(i) * 22 + 8
            out.append("<circle cx=\"20\" cy=\"\(f(y))\" r=\"6\" fill=\"\(color)\"/>")
            out.append("<text x=\"34\" y=\"\(f(y))\" font-size=\"14\" dominant-baseline=\"middle\">\(Text.markup(line))</text>")
        }
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    /// The dial as text, `radius` rows high (characters are about twice as tall as wide).
    /// Each cell is a character and the hand's colour (nil for the dial itself).
    public func text(radius: Int = 9) -> [[(Character, MemberColor?)]] {
        let rows = 2 * radius + 1, cols = 4 * radius + 1
        var grid = Array(repeating: Array(repeating: (Character(" "), MemberColor?.none), count: cols), count: rows)
        func put(_ x: Double, _ y: Double, _ ch: Character, _ color: MemberColor?) {
            let col = Int((Double(cols / 2) + 2 * x).rounded()), row = Int((Double(rows / 2) - y).rounded())
            guard row >= 0, row < rows, col >= 0, col < cols else { return }
            grid[row][col] = (ch, color)
        }
        let r = Double(radius)
        for step in 0..<360 {
            let a = Double(step) * .pi / 180
            put(r * sin(a), r * cos(a), "·", nil)
        }
        for i in Self.sectors.indices {
            let a = Self.sectorStart(i) * .pi / 180
            for k in stride(from: r * 0.55, through: r, by: 0.5) { put(k * sin(a), k * cos(a), ":", nil) }
            let mid = (Self.sectorStart(i) + 180 / Double(Self.sectors.count)) * .pi / 180
            let label = String(Self.sectors[i].prefix(4)).uppercased()
            for (j, ch) in label.enumerated() {
                put(r * 0.8 * sin(mid) + Double(j - label.count / 2) / 2, r * 0.8 * cos(mid), ch, nil)
            }
        }
        for hand in hands {
            let a = hand.angle * .pi / 180
            for k in stride(from: 1.0, through: r * 0.55, by: 0.5) { put(k * sin(a), k * cos(a), "•", hand.color) }
            put(r * 0.6 * sin(a), r * 0.6 * cos(a), hand.name.first ?? "?", hand.color)
        }
        put(0, 0, "o", nil)
        return grid
    }
}
