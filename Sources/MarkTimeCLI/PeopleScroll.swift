import ArgumentParser
import Foundation
import MarkTimeCore
import MarkTimeDevices
import MarkTimePeople

extension MarkTime.People {
    struct Scroll: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A full-screen view: move through your day with the arrow keys and watch everyone's clocks.",
            discussion: """
                →/← one minute later/earlier, ↑/↓ 15 minutes, PgUp/PgDn an hour, n now, q quits.
                Each row is tinted with the sky where that person is, from the Sun's altitude there: night,
                the twilights' blues, dawn's rose or dusk's mauve, and day.
                  marktime people scroll
                  marktime people scroll at 06:00 --date 2026-12-24
                """)
        @OptionGroup var store: StoreOptions
        @OptionGroup var config: ConfigOptions
        @OptionGroup var minute: MinuteOptions

        func run() async throws {
            guard isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 else {
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
            var fds = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            guard poll(&fds, 1, Int32(wait * 1000)) > 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 64)
            let n = read(STDIN_FILENO, &buffer, buffer.count)
            if n <= 0 { return .quit }
            pending += buffer[0..<n]
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

/// The terminal's settings before the view took it, for restoring from a signal handler.
nonisolated(unsafe) private var savedTerminal: termios?

/// Puts the terminal back: cursor, main screen, line mode and echo. Async-signal-safe.
private func restoreTerminal() {
    guard var saved = savedTerminal else { return }
    let reset = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
    _ = reset.withCString { write(STDOUT_FILENO, $0, strlen($0)) }
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
}

nonisolated(unsafe) private var resized: sig_atomic_t = 0

/// The full-screen terminal: raw keys, the alternate screen, and redraws of only the
/// lines that changed. Restored on exit and on SIGINT, SIGTERM, SIGHUP or SIGQUIT.
final class RawTerminal {
    private var shown: [String] = []

    init() {
        var t = termios()
        tcgetattr(STDIN_FILENO, &t)
        savedTerminal = t
        t.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &t.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &t)
        for s in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            signal(s) { sig in
                restoreTerminal()
                signal(sig, SIG_DFL)
                raise(sig)
            }
        }
        signal(SIGWINCH) { _ in resized = 1 }
        emit("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    }

    var width: Int {
        var size = winsize()
        return ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
    }

    /// Writes the lines that differ from what is on screen.
    func draw(_ lines: [String]) {
        if resized != 0 {
            resized = 0
            shown = []
            emit("\u{1B}[2J")
        }
        var out = ""
        for (i, line) in lines.enumerated() where i >= shown.count || shown[i] != line {
            out += "\u{1B}[\(i + 1);1H" + line + "\u{1B}[0m\u{1B}[K"
        }
        for i in lines.count..<max(lines.count, shown.count) { out += "\u{1B}[\(i + 1);1H\u{1B}[K" }
        shown = lines
        emit(out)
    }

    func restore() {
        restoreTerminal()
        savedTerminal = nil
    }

    private func emit(_ s: String) {
        guard !s.isEmpty else { return }
        var bytes = Array(s.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if n <= 0 { return }
            bytes = bytes.dropFirst(n)
        }
    }
}
