import Foundation
import Testing

/// The package's shape, read from its files: every module a target imports is declared in
/// `Package.swift`, and system calls go through `MarkTimeSystem`'s `Kernel`.
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

    /// The kernel's system calls, by name: its own table for the architecture the tests run
    /// on (from linux-libc-dev, which the C library's headers need), not a list of ours.
    static func kernelCalls() throws -> Set<String> {
        #if arch(x86_64)
        let header = "/usr/include/x86_64-linux-gnu/asm/unistd_64.h"
        #else
        // arm64 and the other newer ports share the generic table.
        let header = "/usr/include/asm-generic/unistd.h"
        #endif
        let text = try String(contentsOfFile: header, encoding: .utf8)
        return Set(text.matches(of: /#define __NR_(\w+)/).map { String($0.1) })
    }

    /// The kernel's names for a C library call: its own, or the newer call it is made with
    /// where the old one is gone from the table (arm64 has `openat`, `ppoll`, `newfstatat`,
    /// `faccessat`, `renameat2`, not `open`, `poll`, `stat`, `access`, `rename`).
    static func kernelForms(of call: String) -> [String] {
        [call, call + "64", call + "at", call + "at2", "f" + call + "at", "newf" + call + "at", "p" + call]
    }

    /// The C library's own names for calls the kernel names otherwise, each to the call it
    /// makes (the test checks that call is in the kernel's table).
    static let libraryNames = ["usleep": "nanosleep", "sleep": "clock_nanosleep", "signal": "rt_sigaction", "sigaction": "rt_sigaction",
                               "raise": "tgkill", "isatty": "ioctl", "tcgetattr": "ioctl", "tcsetattr": "ioctl", "statvfs": "statfs",
                               "waitpid": "wait4", "posix_spawn": "clone", "posix_spawnp": "clone"]

    /// Named as the kernel names a call, but not that call: the C library's `exit` runs the
    /// process's exit handlers and ends every thread (`exit_group`); the kernel's `exit`
    /// ends one thread. Swift's `@main` calls it when `main` returns.
    static let notSystemCalls: Set<String> = ["exit"]

    /// The one file whose code calls the kernel.
    static let funnel = "MarkTimeSystem.build/Kernel.swift.o"

    /// The system call an undefined symbol of an object file names, if any: a C function
    /// (`read`, `pread` for the kernel's `pread64`), or Swift's overlay of a variadic one
    /// (`$s5Glibc4open…F`, `Glibc.open(_:_:_:)`).
    static func systemCall(named symbol: String, in kernel: Set<String>) -> String? {
        var name = Substring(symbol)
        if name.hasPrefix("$s5Glibc") {
            guard name.hasSuffix("F") else { return nil }
            name = name.dropFirst("$s5Glibc".count)
            let digits = name.prefix { $0.isNumber }
            guard let length = Int(digits) else { return nil }
            name = name.dropFirst(digits.count).prefix(length)
        }
        let call = String(name)
        if notSystemCalls.contains(call) { return nil }
        if kernelForms(of: call).contains(where: kernel.contains) { return call }
        return libraryNames[call].map { _ in call }
    }

    /// Each object file of the package's Swift targets (those built for this test run, from
    /// each module's list of its sources) and the undefined symbols it calls, from `nm -u`.
    static func calledSymbols() throws -> [String: [String]] {
        let build = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")).deletingLastPathComponent().path
        var objects: [String] = []
        for target in try targets() where target.path.hasPrefix("Sources/") {
            guard try !swiftFiles(under: target.path).isEmpty else { continue }
            // Every Swift target's objects are read: a target whose list is missing fails the test.
            let sources = build + "/\(target.name).build/sources"
            let list = try String(contentsOfFile: sources, encoding: .utf8)
            objects += list.split(separator: "\n").filter { $0.hasSuffix(".swift") }.map {
                build + "/\(target.name).build/" + URL(fileURLWithPath: String($0)).lastPathComponent + ".o"
            }
        }
        let nm = Process()
        nm.executableURL = URL(fileURLWithPath: "/usr/bin/nm")
        nm.arguments = ["-u", "--print-file-name"] + objects
        let out = Pipe()
        nm.standardOutput = out
        try nm.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        nm.waitUntilExit()
        #expect(nm.terminationStatus == 0)
        var symbols: [String: [String]] = [:]
        for line in text.split(separator: "\n") {
            // `/path/Module.build/File.swift.o:                 U symbol`
            guard let colon = line.firstIndex(of: ":"), let symbol = line.split(separator: " ").last else { continue }
            let object = line[..<colon].split(separator: "/").suffix(2).joined(separator: "/")
            symbols[object, default: []].append(String(symbol))
        }
        return symbols
    }

    @Test("Only MarkTimeSystem's Kernel.swift calls the kernel: every object file's calls are checked against the kernel's own table")
    func systemCallsGoThroughTheKernelFunnel() throws {
        // Given the kernel's table, and what every object file of the package calls
        let kernel = try Self.kernelCalls()
        #expect(Self.libraryNames.values.filter { !Self.kernelForms(of: $0).contains(where: kernel.contains) } == [])
        let symbols = try Self.calledSymbols()
        // When the system calls are picked out
        var outside: [String] = []
        for (object, called) in symbols where object != Self.funnel {
            outside += called.compactMap { Self.systemCall(named: $0, in: kernel).map { "\(object) calls \($0)" } }
        }
        let funnelled = Set((symbols[Self.funnel] ?? []).compactMap { Self.systemCall(named: $0, in: kernel) })
        // Then only the funnel makes them (and it makes those the project needs, so the scan saw the objects)
        #expect(outside.sorted() == [])
        #expect(funnelled.isSuperset(of: ["open", "close", "read", "pread", "poll", "fcntl", "ioctl", "socket", "inotify_init1", "nanosleep", "waitpid", "posix_spawn"]))
    }

    @Test("Each call in the funnel goes through systemCall, which names the call in its error and retries EINTR")
    func everyKernelCallGoesThroughSystemCall() throws {
        // Given Kernel.swift's functions
        let text = try String(contentsOfFile: Self.root + "/Sources/MarkTimeSystem/Kernel.swift", encoding: .utf8)
        let functions = text.components(separatedBy: "public static func ").dropFirst()
        #expect(functions.count >= 30)
        // Then each one's body hands its call to systemCall
        let bypassing = functions.filter { !$0.contains("systemCall(") }.map { String($0.prefix { $0 != "(" }) }
        #expect(bypassing == [])
    }

    @Test("eSpeak NG is loaded when speech starts, never linked: a marktime process maps no libespeak-ng, libpulse or libX11 at start",
          arguments: ["marktime", "marktimed"])
    func speechIsNotLinked(executable: String) throws {
        // Given an executable of this build: the command line, or the daemon and page's
        let build = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")).deletingLastPathComponent().path
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [build + "/" + executable]
        let out = Pipe()
        ldd.standardOutput = out
        try ldd.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        // When every library the loader maps at start is listed (those of its libraries too)
        let loaded = text.split(separator: "\n").compactMap { $0.split(separator: " ").first.map { String($0.drop { $0 == "\t" }) } }
        // Then the C libraries it links are there, and eSpeak NG and what it brings are not
        #expect(loaded.contains { $0.hasPrefix("libasound") })
        #expect(loaded.filter { $0.hasPrefix("libespeak") || $0.hasPrefix("libpulse") || $0.hasPrefix("libX11") || $0.hasPrefix("libpcaudio") } == [])
    }

    @Test("The phone page's views and live messages are typed: no untyped dictionary, no JSONSerialization, no Mirror, no forced session")
    func thePagesViewsAreTyped() throws {
        // Given the sources of MarkTimeWeb
        var found: [String] = []
        for file in try Self.swiftFiles(under: "Sources/MarkTimeWeb") {
            let text = try String(contentsOfFile: Self.root + "/" + file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = String(line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                for pattern in ["[String: Any]", "JSONSerialization", "Mirror(", "session!", " as Any"] where code.contains(pattern) {
                    found.append("\(file):\(number + 1) \(pattern)")
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
