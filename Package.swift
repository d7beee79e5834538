// swift-tools-version:6.1
import Foundation
import PackageDescription

// The release binaries are the ones packaged, and every byte the loader touches stays
// resident in each of their processes (the daemon, the page, the CLI). lld packs the
// ~130,000 relative relocations of a position-independent executable into a few KB
// (DT_RELR, glibc 2.36: Debian 12 and later), and the executable's own symbols are not
// exported (the static Swift runtime's link arguments ask for it; nothing here loads
// plugins). Together they take 6 MiB off an idle page's memory (Tests/bench/web). The
// functions the daemon and the page ran under udev/make-order are laid out first, the
// daemon's before the page's (udev/marktime.order): the kernel maps up to 64 KiB around
// each page of code touched, so code run that is packed fills fewer pages (the Benchmarks
// article).
let packedRelease: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                  "-Xlinker", "--no-export-dynamic",
                  "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/udev/marktime.order",
                  "-Xlinker", "--no-warn-symbol-ordering"], .when(configuration: .release)),
]

let package = Package(
    name: "marktime",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "marktime", targets: ["marktime"]),
        .executable(name: "marktimed", targets: ["marktimed"]),
        .executable(name: "marktime-rig", targets: ["MarkTimeRig"]),
        .executable(name: "marktime-sky-bench", targets: ["MarkTimeSkyBench"]),
        .executable(name: "marktime-share-burst-bench", targets: ["MarkTimeShareBurstBench"]),
        .executable(name: "marktime-press-bench", targets: ["MarkTimePressBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/onevcat/Rainbow", from: "4.2.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        // Hummingbird's default traits, less ConfigurationSupport: marktime reads its own TOML
        // config and never swift-configuration, and SwiftPM 6.2 (Debian's swiftlang, the
        // arm64 build) fails to resolve the product that trait adds to HummingbirdTLS
        // ("product 'Configuration' ... not found"). Every toolchain gets the same graph.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0", traits: ["FullFoundation"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        // Named for the modules the phone page imports itself (NIOCore, HTTPTypes); hummingbird already brings both.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // NIOHTTPTypes: the phone page's body deadline reads a request's parts as Hummingbird decodes them.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.0"),
        // `swift package generate-documentation`: the manual's articles (MarkTime.docc).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // C shims: one per system facility, names prefixed by the module.
        .target(name: "CSystemClock", path: "Sources/CSystemClock"),
        .target(name: "CMalloc", path: "Sources/CMalloc"),
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // eSpeak NG, loaded with dlopen on the first sentence (its headers from libespeak-ng-dev).
        .target(name: "CEspeak", path: "Sources/CEspeak", linkerSettings: [.linkedLibrary("dl")]),
        .systemLibrary(name: "CFLAC", pkgConfig: "flac", providers: [.apt(["libflac-dev"])]),
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),

        // One home for system calls: EINTR retried, typed errors naming the call (swift-system),
        // eventfds, the poll-based thread every adapter runs on, side files beside the store, and
        // how the C allocator keeps freed memory.
        .target(
            name: "MarkTimeSystem",
            dependencies: ["CSystemClock", "CMalloc", "CLibCrypto", .product(name: "SystemPackage", package: "swift-system")]),

        // The pure domain: no I/O, no clock reads.
        .target(name: "MarkTimeCore"),

        // The sky: almanac, altitude corrections, sight reduction and fixes (pure).
        .target(name: "MarkTimeSky", dependencies: ["MarkTimeCore"], resources: [.embedInCode("ELP2000-82B.txt")]),

        // The plotting sheet and the run chart, drawn as SVG (pure).
        .target(name: "MarkTimePlot", dependencies: ["MarkTimeCore", "MarkTimeSky"], resources: [.embedInCode("plot.css")]),
        // Places, geofences and the anchor watch: pure state machines over fixes.
        .target(name: "MarkTimePlaces", dependencies: ["MarkTimeCore"]),
        // People across time zones: zone names and places, the sky over each, nautical zone time (pure).
        .target(name: "MarkTimePeople", dependencies: ["MarkTimeCore", "MarkTimeSky"]),
        // Tasks, reminders and grades: time expressions, the grade maths, the reminder schedule (pure).
        .target(name: "MarkTimeTasks", dependencies: ["MarkTimeCore"]),
        // Sharing over MQTT as OwnTracks does: its JSON, checked on the way in, and when the boat's position goes out (pure).
        .target(name: "MarkTimeShare", dependencies: ["MarkTimeCore", "MarkTimePlaces"]),
        // The day journal: image headers, the calendar grid, the day's page with its Sun, what is kept and how (pure).
        .target(name: "MarkTimeJournal", dependencies: ["MarkTimeCore", "MarkTimeSky", "MarkTimePlaces"]),

        // Accounts for the phone page: names, passwords (bcrypt), lockout, sessions, invites (pure).
        .target(
            name: "MarkTimeAccounts",
            dependencies: ["MarkTimeCore", .product(name: "HummingbirdBcrypt", package: "hummingbird-auth")]),

        // The one SQLite store shared by the daemon and the CLI.
        .target(
            name: "MarkTimeStore",
            dependencies: [
                "MarkTimeCore",
                "MarkTimeConfig",
                "MarkTimePlaces",
                "MarkTimeTasks",
                "MarkTimeJournal",
                "MarkTimeSky",
                "MarkTimeAccounts",
                "MarkTimeShare",
                "MarkTimePeople",
                "MarkTimeSystem",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            resources: (1...21).map { .embedInCode("Migrations/v\($0).sql") }),

        // Sights as CSV for sight reduction, with each sight's reduction, written on every core.
        .target(name: "MarkTimeExport", dependencies: ["MarkTimeCore", "MarkTimeSky", "MarkTimeStore"]),

        // The TOML config file.
        .target(
            name: "MarkTimeConfig",
            dependencies: [
                "MarkTimeCore",
                "MarkTimeSystem",
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]),

        // Thin adapters over the machine: clocks, the evdev button, gpsd, ALSA.
        .target(
            name: "MarkTimeDevices",
            dependencies: [
                "MarkTimeCore",
                "MarkTimePeople",
                "CSystemClock",
                "CEvdev",
                "CGPS",
                "CALSA",
                "CEspeak",
                "CFLAC",
                "CMosquitto",
                "MarkTimeSystem",
                .product(name: "Logging", package: "swift-log"),
            ]),

        // The recording path shared by the button and `marktime mark`.
        .target(
            name: "MarkTimeRecorder",
            dependencies: [
                "MarkTimeCore",
                "MarkTimeSky",
                "MarkTimeStore",
                "MarkTimeSystem",
                .product(name: "Logging", package: "swift-log"),
            ]),

        // `marktime daemon`: one ServiceGroup of small services.
        .target(
            name: "MarkTimeDaemon",
            dependencies: [
                "MarkTimeCore",
                "MarkTimeConfig",
                "MarkTimePlaces",
                "MarkTimeTasks",
                "MarkTimeStore",
                "MarkTimeDevices",
                "MarkTimeRecorder",
                "MarkTimeShare",
                "MarkTimeSky",
                "MarkTimeSystem",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]),

        // `marktime web`: the phone page (hummingbird), its login, pages and live connection.
        .target(
            name: "MarkTimeWeb",
            dependencies: [
                "MarkTimeCore",
                "MarkTimeSky",
                "MarkTimePlot",
                "MarkTimePeople",
                "MarkTimeTasks",
                "MarkTimeJournal",
                "MarkTimeStore",
                "MarkTimeAccounts",
                "MarkTimeDevices",
                "MarkTimeRecorder",
                "MarkTimeExport",
                "MarkTimePlaces",
                "MarkTimeConfig",
                "MarkTimeSystem",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            resources: ["Assets/app.css", "Assets/app.js", "Assets/icon.svg", "Assets/theme.js", "Assets/sw.js", "Assets/manifest.webmanifest"].map { .embedInCode($0) }
                + ["layout", "login", "signup", "problem", "now", "sights", "sight", "settings", "places", "people", "tasks", "journal", "day", "fix", "tools"].map { .embedInCode("Templates/\($0).mustache") }),

        // The command-line interface, as a library so tests can reach its pieces.
        .target(
            name: "MarkTimeCLI",
            dependencies: [
                "MarkTimeCore",
                "MarkTimePlaces",
                "MarkTimePeople",
                "MarkTimeTasks",
                "MarkTimeJournal",
                "MarkTimeSky",
                "MarkTimePlot",
                "MarkTimeStore",
                "MarkTimeAccounts",
                "MarkTimeConfig",
                "MarkTimeDevices",
                "MarkTimeRecorder",
                "MarkTimeSystem",
                "MarkTimeExport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Rainbow", package: "Rainbow"),
            ]),

        .executableTarget(
            name: "marktime",
            dependencies: ["MarkTimeCLI"],
            linkerSettings: packedRelease),

        // The daemon and the phone page, which `marktime daemon` and `marktime web` exec: the
        // processes that run all day map neither the other commands nor their libraries, and
        // share this executable's pages between them.
        .executableTarget(
            name: "marktimed",
            dependencies: ["MarkTimeDaemon", "MarkTimeWeb", "MarkTimeConfig", "MarkTimeCore", "MarkTimeSystem",
                           .product(name: "Logging", package: "swift-log")],
            linkerSettings: packedRelease),

        // The real-kernel rig (Tests/rig/run): processes, gpsfake and tone analysis shared
        // with the tests, and the injector that presses a uinput key inside the guest.
        .target(name: "RigSupport", dependencies: ["MarkTimeSystem"], path: "Tests/rig/RigSupport"),
        .executableTarget(
            name: "MarkTimeRig",
            dependencies: [
                "RigSupport",
                "CEvdev",
                "CALSA",
                "MarkTimeCore",
                "MarkTimeDevices",
                "MarkTimeStore",
                "MarkTimeAccounts",
                "MarkTimeSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Tests/rig/Injector"),

        // Tests/bench/sky: the sky's timings, printed.
        .executableTarget(name: "MarkTimeSkyBench", dependencies: ["MarkTimeSky", "MarkTimeCore"], path: "Tests/bench/Sky"),
        // Tests/bench/share-burst: a press and the anchor alarm during a burst of friends' messages.
        .executableTarget(name: "MarkTimeShareBurstBench", dependencies: ["DaemonFakes", "MarkTimeDaemon", "MarkTimeDevices", "MarkTimeStore",
                                                                          "MarkTimeCore", "MarkTimeSystem", "MarkTimePlaces",
                                                                          .product(name: "Logging", package: "swift-log")],
                          path: "Tests/bench/ShareBurst"),
        // Tests/bench/press-instructions: a press against a bare insert, in callgrind's instructions.
        .target(name: "CCallgrind", path: "Tests/bench/CCallgrind"),
        .executableTarget(name: "MarkTimePressBench", dependencies: ["CCallgrind", "DaemonFakes", "MarkTimeDaemon", "MarkTimeDevices",
                                                                     "MarkTimeStore", "MarkTimeCore", "MarkTimeSystem",
                                                                     .product(name: "GRDBSQLite", package: "GRDB.swift"),
                                                                     .product(name: "Logging", package: "swift-log")],
                          path: "Tests/bench/PressInstructions"),

        .testTarget(name: "MarkTimeCoreTests", dependencies: ["MarkTimeCore"]),
        .testTarget(name: "MarkTimeSkyTests", dependencies: ["MarkTimeSky", "MarkTimeCore"]),
        .testTarget(name: "MarkTimePlotTests", dependencies: ["MarkTimePlot", "MarkTimeSky", "MarkTimeCore"]),
        .testTarget(name: "MarkTimePlacesTests", dependencies: ["MarkTimePlaces", "MarkTimeCore"]),
        .testTarget(name: "MarkTimeAccountsTests", dependencies: ["MarkTimeAccounts", "MarkTimeCore"]),
        .testTarget(name: "MarkTimeShareTests", dependencies: ["MarkTimeShare", "MarkTimePlaces", "MarkTimeCore"]),
        .testTarget(name: "MarkTimeJournalTests", dependencies: ["MarkTimeJournal", "MarkTimeCore", "MarkTimePlaces"]),
        .testTarget(name: "MarkTimeTasksTests", dependencies: ["MarkTimeTasks", "MarkTimeCore", "MarkTimeDevices"]),
        .testTarget(name: "MarkTimePeopleTests", dependencies: ["MarkTimePeople", "MarkTimeCore", "MarkTimeSky", "MarkTimeDevices", "RigSupport"]),
        .testTarget(
            name: "MarkTimeStoreTests",
            dependencies: ["MarkTimeStore", "MarkTimeAccounts", "MarkTimeRecorder", "MarkTimePlaces", "MarkTimeShare", "MarkTimeExport",
                           "MarkTimePeople", "MarkTimeTasks", "MarkTimeJournal", "MarkTimeCore", "MarkTimeSky", "MarkTimeSystem", "MarkTimeDevices",
                           .product(name: "Logging", package: "swift-log"), .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(
            name: "MarkTimeWebTests",
            dependencies: ["MarkTimeWeb", "MarkTimeStore", "MarkTimeAccounts", "MarkTimeCore", "MarkTimeSky", "MarkTimeDevices", "MarkTimeExport",
                           "MarkTimePeople", "MarkTimePlaces", "MarkTimeTasks", "MarkTimeSystem", "RigSupport",
                           .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "HummingbirdTesting", package: "hummingbird"),
                           .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                           .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                           .product(name: "Mustache", package: "swift-mustache"),
                           .product(name: "NIOSSL", package: "swift-nio-ssl")]),
        .testTarget(name: "MarkTimeConfigTests", dependencies: ["MarkTimeConfig", "MarkTimeCore"]),
        // The package's shape: declared imports, system calls only through MarkTimeSystem.
        .testTarget(name: "MarkTimeLayoutTests"),
        .testTarget(name: "MarkTimeDevicesTests", dependencies: ["MarkTimeDevices", "MarkTimeCore", "CGPS"]),
        .testTarget(
            name: "MarkTimeSystemTests",
            dependencies: ["MarkTimeSystem", "RigSupport", .product(name: "SystemPackage", package: "swift-system")]),
        // The daemon on fakes of its devices: its tests, and Tests/bench/share-burst.
        .target(name: "DaemonFakes", dependencies: ["MarkTimeDaemon", "MarkTimeDevices", "MarkTimeStore", "MarkTimeCore", "MarkTimeSystem",
                                                    "RigSupport", .product(name: "Logging", package: "swift-log")], path: "Tests/DaemonFakes"),
        .testTarget(
            name: "MarkTimeDaemonTests",
            dependencies: ["DaemonFakes", "MarkTimeDaemon", "MarkTimeDevices", "MarkTimeStore", "MarkTimeCore", "MarkTimeSystem", "MarkTimePlaces", "MarkTimeSky",
                           "MarkTimeRecorder", "MarkTimeTasks", "MarkTimeShare", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log")]),
        // The rig's own tools (the dm-log-writes reader), checked on the host.
        .testTarget(name: "RigSupportTests", dependencies: ["RigSupport"]),
        .testTarget(
            name: "MarkTimeCLITests",
            dependencies: ["marktime", "marktimed", "MarkTimeCLI", "MarkTimeStore", "MarkTimeAccounts", "MarkTimeCore", "MarkTimeSky", "MarkTimePlaces", "MarkTimeDevices", "MarkTimeSystem", "RigSupport",
                           .product(name: "ArgumentParser", package: "swift-argument-parser"),
                           .product(name: "GRDB", package: "GRDB.swift"), .product(name: "CSV", package: "CSV.swift")]),
    ],
    swiftLanguageModes: [.v6]
)

// The libFuzzer harness, only for `Tests/fuzz/run` (MARKTIME_FUZZ=1): libFuzzer supplies
// its main, so an ordinary build could not link it.
if ProcessInfo.processInfo.environment["MARKTIME_FUZZ"] != nil {
    package.products.append(.executable(name: "marktime-fuzz", targets: ["MarkTimeFuzz"]))
    package.targets.append(.executableTarget(
        name: "MarkTimeFuzz",
        dependencies: ["MarkTimeCore", "MarkTimeTasks", "MarkTimeJournal", "MarkTimeConfig", "MarkTimeStore", "MarkTimeShare"],
        path: "Tests/fuzz/Harness",
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
}

// Only the gpsd contract tests (MARKTIME_TESTS=gpsd), for `Tests/rig/run trixie|unstable`:
// marktime, marktimed and the tests that run them against that release's gpsd, without the other test
// targets, the benches and the test-only dependencies (AsyncHTTPClient, NIOHTTP2 and more
// through HummingbirdTesting): the release build costs about half as much.
if ProcessInfo.processInfo.environment["MARKTIME_TESTS"] == "gpsd" {
    let gpsdTests = ["Support.swift", "GPSDRig.swift", "Tags.swift", "GPSDTests.swift", "ReceiverLogTests.swift"]
    package.products = package.products.filter { ["marktime", "marktimed"].contains($0.name) }
    package.targets = package.targets.compactMap { target in
        switch target.type {
        case .test where target.name == "MarkTimeCLITests":
            target.sources = gpsdTests
            target.dependencies = ["marktime", "marktimed", "MarkTimeStore", "MarkTimeCore", "RigSupport"]
            return target
        case .test: return nil
        case .executable where !["marktime", "marktimed"].contains(target.name): return nil
        default: return target
        }
    }
    package.targets.removeAll { ["DaemonFakes", "CCallgrind"].contains($0.name) }
}
