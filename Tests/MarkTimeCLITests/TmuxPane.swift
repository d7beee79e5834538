import Foundation
import RigSupport

/// A real terminal for a full-screen command: a tmux server on a private socket in `cli`'s
/// folder, its one pane read as text.
struct TmuxPane {
    let cli: CLI
    var socket: String { cli.folder + "/tmux.sock" }

    /// Runs a tmux client to its end (at most 10 s): its exit status and output. The client
    /// is spawned with clean signal masks and its own output file; Foundation's Process
    /// never saw the forking client exit here.
    func tmux(_ args: [String]) throws -> CommandResult {
        let log = cli.folder + "/tmux-\(UUID().uuidString).log"
        let client = try Child("/usr/bin/tmux", ["-S", socket] + args, log: log,
                               environment: cli.environment.merging(["TERM": "xterm-256color"]) { $1 })
        _ = eventually(within: 10) { !client.isRunning }
        let status = client.exitStatus.map { ($0 >> 8) & 0xff } ?? -1
        return CommandResult(status: status, stdout: client.output, stderr: "")
    }

    /// The pane's text, line by line, trailing spaces removed.
    func screen() throws -> [String] {
        try tmux(["capture-pane", "-p"]).stdout.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
    }

    /// Starts `command` (a shell line) in a `width`×`height` pane; after it exits the pane
    /// records `stty -a` in stty.txt.
    func start(_ command: String, width: Int = 100, height: Int = 20) throws -> CommandResult {
        try tmux(["new-session", "-d", "-x", "\(width)", "-y", "\(height)",
                  command + "; stty -a > \(cli.folder)/stty.part && mv \(cli.folder)/stty.part \(cli.folder)/stty.txt; sleep 60"])
    }

    func stop() { _ = try? tmux(["kill-server"]) }

    /// `stty -a` after the view exited: line mode and echo are back.
    func terminalRestored() throws -> Bool {
        guard eventually(within: 10, { FileManager.default.fileExists(atPath: cli.folder + "/stty.txt") }) else { return false }
        let stty = try String(contentsOfFile: cli.folder + "/stty.txt", encoding: .utf8).split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" })
        return stty.contains("icanon") && stty.contains("echo")
    }
}
