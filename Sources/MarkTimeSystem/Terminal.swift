import Foundation
import Glibc

/// The terminal this process talks to.
public enum Terminal {
    /// Whether `fd` is a terminal (`isatty(3)`).
    public static func isTerminal(_ fd: Int32) -> Bool {
        isatty(fd) != 0
    }

    /// What standard input gave within a wait.
    public enum Input: Equatable, Sendable {
        case bytes([UInt8])
        case timedOut
        /// End of input, or an error reading it.
        case closed
    }

    /// The bytes standard input has, waiting up to `wait` seconds (`poll(2)`, `read(2)`, EINTR retried).
    public static func input(wait: Double) -> Input {
        var fds = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard let ready = try? systemCall("poll stdin", { poll(&fds, 1, Int32(wait * 1000)) }) else { return .closed }
        guard ready > 0 else { return .timedOut }
        var buffer = [UInt8](repeating: 0, count: 64)
        guard let n = try? systemCall("read stdin", { read(STDIN_FILENO, &buffer, buffer.count) }), n > 0 else { return .closed }
        return .bytes(Array(buffer[0..<n]))
    }

    /// Runs `body` with the terminal's echo off (for a password), and puts it back after.
    public static func withEchoOff<T>(_ body: () throws -> T) rethrows -> T {
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        defer { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
        return try body()
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
public final class RawTerminal {
    private var shown: [String] = []

    public init() {
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

    /// The terminal's width in columns (TIOCGWINSZ), 80 when it does not say.
    public var width: Int {
        var size = winsize()
        return ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
    }

    /// Writes the lines that differ from what is on screen.
    public func draw(_ lines: [String]) {
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

    /// Puts the terminal back as it was.
    public func restore() {
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
