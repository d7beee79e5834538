import Foundation
import Testing

/// The package's shape, read from its files: every module a target imports is declared in
/// `Package.swift`, and system calls go through `MarkTimeSystem`.
@Suite("The package's layout")
struct LayoutTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// Modules of the toolchain, which no `Package.swift` declares.
    static let toolchain: Set<String> = ["Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Glibc", "Musl", "Dispatch",
                                         "Synchronization", "Testing", "XCTest", "_Concurrency"]

    @Test("Every module a target imports is one of its declared dependencies")
    func everyImportIsDeclared() throws {
        // Given the targets of Package.swift with their folders and dependencies
        let targets = try Self.targets()
        #expect(targets.count > 20)
        // When each target's Swift files are read for their imports
        var undeclared: [String] = []
        for target in targets {
            for (file, module) in try Self.imports(under: target.path) where module != target.name {
                if !target.dependencies.contains(module) && !Self.toolchain.contains(module) {
                    undeclared.append("\(file) imports \(module), which target \(target.name) does not declare")
                }
            }
        }
        // Then none is missing from Package.swift
        #expect(undeclared == [])
    }

    /// C functions that are system calls (or wrap one), by name; none is also a method name of ours.
    static let systemCalls = [
        "openat", "close", "unlink", "rename", "fsync", "fdatasync", "fcntl", "ioctl", "poll", "access", "mkdir", "rmdir", "kill",
        "sigaction", "stat", "lstat", "fstat", "flock", "pipe", "dup", "dup2", "socket", "sendto", "mmap", "munmap", "ftruncate",
        "lseek", "chmod", "chown", "readlink", "mkfifo", "eventfd", "inotify_init1", "inotify_add_watch", "adjtimex", "prctl",
        "fork", "waitpid", "isatty", "umask", "symlink", "timerfd_create", "timerfd_settime", "tcgetattr", "tcsetattr",
        "clock_gettime",
    ]

    /// Every raw call: the names above, and those that share a name with methods of ours
    /// (`read`, `write`, `open`, `signal`) where their arguments give them away (a
    /// descriptor, `O_` flags, a `SIG` number).
    static let rawCall = try! NSRegularExpression(pattern: [
        "(?<![A-Za-z0-9_.])(?:Glibc\\.)?(" + systemCalls.joined(separator: "|") + ")\\(",
        "(?<![A-Za-z0-9_.])(?:Glibc\\.)?(read|write|pread|pwrite|send|recv)\\(\\s*(?:\\w*(?:fd|Fd|FD|watch|socket)\\w*|STD(?:IN|OUT|ERR)_FILENO)\\s*,",
        "(?<![A-Za-z0-9_.])(?:Glibc\\.)?(open)\\([^)]*\\bO_[A-Z]+",
        "(?<![A-Za-z0-9_.])(signal)\\(\\s*SIG",
    ].joined(separator: "|"))

    /// A line that hands its call to one of these wrappers goes through MarkTimeSystem:
    /// `systemCall` and `negativeErrnoCall` there, and the adapters' `syscall`, which calls `systemCall`.
    static let wrappers = ["systemCall(", "negativeErrnoCall(", "syscall("]

    @Test("No source outside MarkTimeSystem and the C shims makes a raw system call")
    func systemCallsGoThroughMarkTimeSystem() throws {
        // Given every Swift source outside MarkTimeSystem (the C shims are C)
        var found: [String] = []
        for file in try Self.swiftFiles(under: "Sources") where !file.hasPrefix("Sources/MarkTimeSystem/") {
            let text = try String(contentsOfFile: Self.root + "/" + file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = String(line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                // A method of our own with a libc name (`func open(`, `.read {`) is not a system call.
                if code.contains("func ") || Self.wrappers.contains(where: code.contains) { continue }
                let range = NSRange(code.startIndex..., in: code)
                for match in Self.rawCall.matches(in: code, range: range) {
                    let group = (1...match.numberOfRanges - 1).first { match.range(at: $0).location != NSNotFound } ?? 0
                    let name = (code as NSString).substring(with: match.range(at: group))
                    found.append("\(file):\(number + 1) calls \(name)")
                }
            }
        }
        // Then there is none
        #expect(found == [])
    }

    @Test("No source changes the process's environment: the daemon and the page run many threads, and getenv is not safe beside setenv")
    func noSourceChangesTheEnvironment() throws {
        var found: [String] = []
        for file in try Self.swiftFiles(under: "Sources") {
            let text = try String(contentsOfFile: Self.root + "/" + file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = String(line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                for call in ["setenv(", "unsetenv(", "putenv(", "clearenv(", "tzset("] where code.contains(call) {
                    found.append("\(file):\(number + 1) calls \(call.dropLast())")
                }
            }
        }
        #expect(found == [])
    }

    /// The helpers through which test code waits, each polling a condition until a limit
    /// (or, for the rig's button, pacing the input as a person would): per file, the
    /// functions that may sleep.
    static let waitHelpers: [String: Set<String>] = [
        "Tests/rig/RigSupport/Processes.swift": ["eventually", "waitUntil"],
        "Tests/rig/Injector/VirtualButton.swift": ["pace", "bounce", "press"],
        "Tests/rig/Injector/LoopbackCapture.swift": ["loop", "tone", "sound", "quiet", "waitOutRing"],
        "Tests/rig/Injector/FlushPoints.swift": ["removeDevice"],
    ]

    @Test("Test code (swift test's and the rig's injector) waits on conditions through its named helpers, never a fixed time")
    func testsWaitOnlyThroughTheirHelpers() throws {
        // Given every Swift file of the tests and the rig, but the benchmarks (Tests/bench,
        // and the rig's bench scenario), whose pacing is what they measure
        let files = try Self.swiftFiles(under: "Tests").filter { !$0.hasPrefix("Tests/bench/") && $0 != "Tests/rig/Injector/Bench.swift" }
        #expect(files.count > 60)
        #expect(files.contains("Tests/rig/Injector/Scenarios.swift"))
        // When each is searched for a sleep, or a block run after a delay, outside those helpers
        var found: [String] = []
        for file in files {
            let text = try String(contentsOfFile: Self.root + "/" + file, encoding: .utf8)
            var function = ""
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = String(line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                if let name = code.firstMatch(of: /\bfunc (\w+)/)?.output.1 { function = String(name) }
                let sleeps = code.contains(/Thread\.sleep|Task\.sleep|usleep\(|nanosleep\(|(^|[^.\w])sleep\(|Glibc\.sleep\(|\.sleep\((for|until):|asyncAfter\(/)
                if sleeps && Self.waitHelpers[file]?.contains(function) != true {
                    found.append("\(file):\(number + 1)")
                }
            }
        }
        // Then there is none
        #expect(found == [])
    }

    @Test("Every command names itself: a name the parser derives costs a String(describing:) of its type, a quarter of a debug CLI run's CPU")
    func everyCommandNamesItself() throws {
        // Given the CLI's command configurations
        var unnamed: [String] = []
        var count = 0
        for file in try Self.swiftFiles(under: "Sources/MarkTimeCLI") {
            let text = try String(contentsOfFile: Self.root + "/" + file, encoding: .utf8)
            // When each one's first argument is read
            for match in text.matches(of: /CommandConfiguration\(\s*(\w+):/) {
                count += 1
                if match.output.1 != "commandName" { unnamed.append("\(file): CommandConfiguration(\(match.output.1): …") }
            }
        }
        // Then each begins with its commandName
        #expect(count > 100)
        #expect(unnamed == [])
    }

    @Test("The daemon's wiring logs only the lines the core asks for")
    func daemonWiringLogsThroughTheCore() throws {
        // Given the daemon's wiring
        var calls: [String] = []
        for file in try Self.swiftFiles(under: "Sources/MarkTimeDaemon") {
            let text = try String(contentsOfFile: Self.root + "/" + file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains(/logger\.(trace|debug|info|notice|warning|error|critical|log)\(/) {
                calls.append("\(file):\(number + 1)")
            }
        }
        // When its logger calls are listed
        // Then the only one hands on the core's `.log` action
        #expect(calls == ["Sources/MarkTimeDaemon/Daemon.swift:\(try Self.line(of: "case .log(let line):", in: "Sources/MarkTimeDaemon/Daemon.swift") + 1)"])
    }

    /// The line number of the first line holding `text`.
    static func line(of text: String, in file: String) throws -> Int {
        let lines = try String(contentsOfFile: root + "/" + file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        return try #require(lines.firstIndex { $0.contains(text) }) + 1
    }

    // MARK: Reading the package

    struct Target {
        var name: String
        var path: String
        var dependencies: Set<String>
    }

    /// The targets `Package.swift` declares, read from its text.
    static func targets() throws -> [Target] {
        let text = try String(contentsOfFile: root + "/Package.swift", encoding: .utf8)
        let start = try NSRegularExpression(pattern: "\\.(target|testTarget|executableTarget|systemLibrary)\\(\\s*name: \"(\\w+)\"")
        let matches = start.matches(in: text, range: NSRange(text.startIndex..., in: text))
        let ns = text as NSString
        return matches.enumerated().map { i, match in
            let kind = ns.substring(with: match.range(at: 1)), name = ns.substring(with: match.range(at: 2))
            let end = i + 1 < matches.count ? matches[i + 1].range.location : ns.length
            let body = ns.substring(with: NSRange(location: match.range.location, length: end - match.range.location))
            var path = (kind == "testTarget" ? "Tests/" : "Sources/") + name
            if let p = body.firstMatch(of: /path: "([^"]+)"/) { path = String(p.1) }
            var dependencies: Set<String> = []
            if let open = body.range(of: "dependencies: [") {
                var depth = 1, index = open.upperBound
                while depth > 0, index < body.endIndex {
                    if body[index] == "[" { depth += 1 } else if body[index] == "]" { depth -= 1 }
                    index = body.index(after: index)
                }
                let list = String(body[open.upperBound..<index]).replacing(/package: "[^"]*"/, with: "")
                dependencies = Set(list.matches(of: /"(\w+)"/).map { String($0.1) })
            }
            return Target(name: name, path: path, dependencies: dependencies)
        }
    }

    /// Each `import` of the Swift files under `folder`: (file, module).
    static func imports(under folder: String) throws -> [(String, String)] {
        try swiftFiles(under: folder).flatMap { file in
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            return text.split(separator: "\n").compactMap { line -> (String, String)? in
                guard let m = line.firstMatch(of: /^(?:@[\w()]+ )*import (?:(?:struct|class|enum|protocol|func|typealias|var) )?(\w+)/) else { return nil }
                return (file, String(m.1))
            }
        }
    }

    /// The Swift files under `folder`, relative to the package root, sorted.
    static func swiftFiles(under folder: String) throws -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root + "/" + folder) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { folder + "/" + $0 }.sorted()
    }
}
