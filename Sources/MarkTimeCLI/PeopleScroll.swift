import ArgumentParser
import Foundation
import MarkTimeCore
import MarkTimeDevices
import MarkTimePeople
import MarkTimeSystem

extension MarkTime.People {
    struct Scroll: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "scroll",
            abstract: "A full-screen view: move through your day with the arrow keys and watch everyone's clocks.",
            discussion: """
                →/← one minute later/earlier, ↑/↓ 15 minutes, PgUp/PgDn an hour, n now, q quits. \
                Each row is tinted with the sky where that person is, from the Sun's altitude there: night, \
                the twilights' blues, dawn's rose or dusk's mauve, and day.
                  marktime people scroll
                  marktime people scroll at 06:00 --date 2026-12-24
                """)
        @OptionGroup var store: StoreOptions
        @OptionGroup var config: ConfigOptions
        @OptionGroup var minute: MinuteOptions

        func run() async throws {
            guard Terminal.isTerminal(STDIN_FILENO), Terminal.isTerminal(STDOUT_FILENO) else {
                throw InputError("people scroll needs a terminal; `marktime people at HH:MM` prints the same times")
            }
            let settings = try config.settings()
            let tz = TZDatabase()
            let (zone, start, _) = try minute.resolve(tz, settings)
            let view = try PeopleView.board(try store.openForReading(), tz, zone: zone)
            var seconds = start
            let terminal = RawTerminal()
            defer { terminal.restore() }
            var keys = KeyReader()
            while true {
                terminal.draw(Self.frame(view, at: seconds, width: terminal.width))
                guard let key = keys.next(wait: 0.5) else { continue }
                switch key {
                case .quit: return
                case .now: seconds = try wallClock().wholeSeconds
                case .move(let minutes): seconds += Int64(minutes) * 60
                }
            }
        }

        /// The screen's lines at an instant; each person's row carries its sky colour.
        static func frame(_ view: PeopleBoard, at seconds: Int64, width: Int) -> [String] {
            let you = view.you(at: seconds)
            let rows = view.rows(at: seconds)
            let table = TextTable(header: PeopleView.columns, rows: rows.map(PeopleView.cells)).render().split(separator: "\n").map(String.init)
            var lines = [
                "\u{1B}[2mmarktime people   →/← 1 min   ↑/↓ 15 min   PgUp/PgDn 1 h   n now   q quit\u{1B}[0m",
                "\u{1B}[1mYou: " + PeopleBoard.header(you) + "\u{1B}[0m",
                "",
                table.first ?? "",
            ]
            for (row, line) in zip(rows, table.dropFirst()) {
                guard let (r, g, b) = row.light?.color else { lines.append(line); continue }
                let light = 0.299 * Double(r) + 0.587 * Double(g) + 0.114 * Double(b) > 140
                let ink = light ? "30" : "97"
                lines.append("\u{1B}[48;2;\(r);\(g);\(b)m\u{1B}[\(ink)m" + line.padding(to: max(width, line.count)) + "\u{1B}[0m")
            }
            if rows.isEmpty { lines.append("nobody selected: `marktime people add NAME CITY`") }
            return lines
        }
    }
}

/// What a key press asks of the scroll view.
enum ScrollKey: Equatable {
    case move(minutes: Int), now, quit
}

/// Reads key presses from standard input in raw mode: arrows, PgUp/PgDn, n and q.
struct KeyReader {
    private var pending: [UInt8] = []

    /// The next key, or `nil` when none came within `wait` seconds.
    mutating func next(wait: Double) -> ScrollKey? {
        while true {
            if let (key, used) = Self.parse(pending) {
                pending.removeFirst(used)
                if let key { return key }
                continue
            }
            switch Terminal.input(wait: wait) {
            case .timedOut: return nil
            case .closed: return .quit
            case .bytes(let bytes): pending += bytes
            }
        }
    }

    /// The first key in `bytes` and how many bytes it used; `nil` when more bytes are needed.
    static func parse(_ bytes: [UInt8]) -> (ScrollKey?, Int)? {
        guard let first = bytes.first else { return nil }
        switch first {
        case UInt8(ascii: "q"), UInt8(ascii: "Q"): return (.quit, 1)
        case UInt8(ascii: "n"), UInt8(ascii: "N"): return (.now, 1)
        case 0x1B:
            guard bytes.count >= 3 else { return nil }
            guard bytes[1] == UInt8(ascii: "[") || bytes[1] == UInt8(ascii: "O") else { return (nil, 1) }
            switch bytes[2] {
            case UInt8(ascii: "C"): return (.move(minutes: 1), 3)
            case UInt8(ascii: "D"): return (.move(minutes: -1), 3)
            case UInt8(ascii: "A"): return (.move(minutes: 15), 3)
            case UInt8(ascii: "B"): return (.move(minutes: -15), 3)
            case UInt8(ascii: "5"), UInt8(ascii: "6"):
                guard bytes.count >= 4 else { return nil }
                return bytes[3] == UInt8(ascii: "~") ? (.move(minutes: bytes[2] == UInt8(ascii: "5") ? 60 : -60), 4) : (nil, 4)
            default: return (nil, 3)
            }
        default: return (nil, 1)
        }
    }
}
