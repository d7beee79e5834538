import MarkTimeCore

/// A month laid out like `cal`: weeks from Sunday, each day two digits wide and
/// followed by its mark: `*` for a day with entries, so it shows without colour.
public struct MonthGrid: Hashable, Sendable {
    public var year: Int
    public var month: Int

    public init(year: Int, month: Int) {
        self.year = year
        self.month = month
    }

    /// `2026-11`; `nil` when it is not a month.
    public init?(_ text: String) {
        let p = text.split(separator: "-", omittingEmptySubsequences: false)
        guard p.count == 2, p[0].count == 4, p[1].count == 2, let y = Int(p[0]), let m = Int(p[1]), (1...12).contains(m) else { return nil }
        self.init(year: y, month: m)
    }

    public static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                                    "October", "November", "December"]

    public var first: CivilDate { CivilDate(year: year, month: month, day: 1) }
    public var days: Int { CivilDate.daysIn(month: month, year: year) }

    /// Week rows of day numbers (nil before the 1st and after the last).
    public var weeks: [[Int?]] {
        let cells = Array(repeating: nil, count: first.weekday) + (1...days).map(Optional.some)
        return stride(from: 0, to: cells.count, by: 7).map { i in
            let row = Array(cells[i..<min(i + 7, cells.count)])
            return row + Array(repeating: nil, count: 7 - row.count)
        }
    }

    /// The title, centred over the 20 columns of the week, and the weekday header.
    public var heading: [String] {
        let title = "\(Self.monthNames[month - 1]) \(year)"
        return [String(repeating: " ", count: max(0, (20 - title.count) / 2)) + title, "Su Mo Tu We Th Fr Sa"]
    }

    /// The whole grid as text; `paint` styles a marked day's digits (colour on a terminal).
    public func lines(marked: Set<Int>, paint: (String) -> String = { $0 }) -> [String] {
        heading + weeks.map { week in
            var line = week.map { day -> String in
                guard let day else { return "   " }
                let digits = day < 10 ? " \(day)" : "\(day)"
                return marked.contains(day) ? paint(digits) + "*" : digits + " "
            }.joined()
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}
