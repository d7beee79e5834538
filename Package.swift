// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "marktime",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "marktime", targets: ["marktime"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
    ],
    targets: [
        // C shims: one per system facility, names prefixed by the module.
        .target(name: "CSystemClock", path: "Sources/CSystemClock"),

        // The pure domain: no I/O, no clock reads.
        .target(name: "MarkTimeCore"),

        // The one SQLite store shared by the daemon and the CLI.
        .target(
            name: "MarkTimeStore",
            dependencies: [
                "MarkTimeCore",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),

        // The TOML config file.
        .target(
            name: "MarkTimeConfig",
            dependencies: [
                "MarkTimeCore",
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]),

        // Thin adapters over the machine: clocks (and, with the daemon, button, gpsd, ALSA).
        .target(
            name: "MarkTimeDevices",
            dependencies: [
                "MarkTimeCore",
                "CSystemClock",
                .product(name: "Logging", package: "swift-log"),
            ]),

        // The recording path shared by the button and `marktime mark`.
        .target(
            name: "MarkTimeRecorder",
            dependencies: [
                "MarkTimeCore",
                "MarkTimeStore",
                .product(name: "Logging", package: "swift-log"),
            ]),

        // The command-line interface, as a library so tests can reach its pieces.
        .target(
            name: "MarkTimeCLI",
            dependencies: [
                "MarkTimeCore",
                "MarkTimeStore",
                "MarkTimeConfig",
                "MarkTimeDevices",
                "MarkTimeRecorder",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "CSV", package: "CSV.swift"),
            ]),

        .executableTarget(name: "marktime", dependencies: ["MarkTimeCLI"]),

        .testTarget(name: "MarkTimeCoreTests", dependencies: ["MarkTimeCore"]),
        .testTarget(
            name: "MarkTimeStoreTests",
            dependencies: ["MarkTimeStore", "MarkTimeRecorder", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "MarkTimeConfigTests", dependencies: ["MarkTimeConfig"]),
        .testTarget(name: "MarkTimeDevicesTests", dependencies: ["MarkTimeDevices"]),
        .testTarget(
            name: "MarkTimeCLITests",
            dependencies: ["marktime", "MarkTimeStore", "MarkTimeCore", "MarkTimeDevices", .product(name: "GRDB", package: "GRDB.swift")]),
    ],
    swiftLanguageModes: [.v6]
)
