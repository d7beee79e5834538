import Foundation
import Glibc

/// The terminal this process talks to.
public enum Terminal {
    /// Whether `fd` is a terminal (`isatty(3)`).
    public static func isTerminal(_ fd: Int32) -> Bool {
        Kernel.isTerminal(fd)
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
        var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)]
        guard let ready = try? Kernel.poll(&fds, milliseconds: Int32(wait * 1000), "stdin") else { return .closed }
        guard ready > 0 else { return .timedOut }
        var buffer = [UInt8](repeating: 0, count: 64)
        guard let n = try? Kernel.read(STDIN_FILENO, into: &buffer, "stdin"), n > 0
        else { return .closed }
        return .bytes(Array(buffer[0..<n]))
    }

    /// Runs `body` with the terminal's echo off (for a password), and puts it back after.
    public static func withEchoOff<T>(_ body: () throws -> T) rethrows -> T {
        guard let saved = try? Kernel.terminalSettings(STDIN_FILENO) else { return try body() }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        Kernel.setTerminalSettings(STDIN_FILENO, quiet)
        defer { Kernel.setTerminalSettings(STDIN_FILENO, saved) }
        return try body()
    }
}

/// The terminal's settings before the view took it, for restoring from a signal handler.
nonisolated(unsafe) private var savedTerminal: termios?

/// Puts the terminal back: cursor, main screen, line mode and echo. Async-signal-safe.
private func restoreTerminal() {
    guard let saved = savedTerminal else { return }
    Kernel.writeFromSignalHandler(STDOUT_FILENO, "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
    Kernel.setTerminalSettings(STDIN_FILENO, saved)
}

nonisolated(unsafe) private var resized: sig_atomic_t = 0

/// The full-screen terminal: raw keys, the alternate screen, and redraws of only the
/// lines that changed. Restored on exit and on SIGINT, SIGTERM, SIGHUP or SIGQUIT.
public final class RawTerminal {
    private var shown: [String] = []

    public init() {
        var t = (try? Kernel.terminalSettings(STDIN_FILENO)) ?? termios()
        savedTerminal = t
        t.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &t.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        Kernel.setTerminalSettings(STDIN_FILENO, t)
        for s in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            Kernel.handle(s) { sig in
                restoreTerminal()
                Kernel.handleByDefault(sig)
                Kernel.raise(sig)
            }
        }
        Kernel.handle(SIGWINCH) { _ in resized = 1 }
        emit("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    }

    /// The terminal's width in columns (TIOCGWINSZ), 80 when it does not say.
    public var width: Int {
        var size = winsize()
        return (try? Kernel.ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size, "TIOCGWINSZ")) != nil && size.ws_col > 0 ? Int(size.ws_col) : 80
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
            guard let n = try? bytes.withUnsafeBytes({ b throws(SystemError) in try Kernel.write(STDOUT_FILENO, b, "stdout") }), n > 0
            else { return }
            bytes = bytes.dropFirst(n)
        }
    }
}
