import ArgumentParser
import Foundation

/// `marktime-rig`: the rig's scenarios, run inside the guest (or natively on a Pi)
/// by `Tests/rig/run`. Each prints `ok`/`not ok` lines and exits non-zero on a failure.
@main
struct MarkTimeRig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "marktime-rig",
        abstract: "Press a uinput key and check what marktime recorded (run by Tests/rig/run).")

    enum Name: String, ExpressibleByArgument, CaseIterable {
        case e2e, powercut, powercutCheck = "powercut-check", bench, inserts
    }

    @Argument(help: "e2e, powercut, powercut-check, bench, or inserts (on this machine, into --folder).")
    var scenario: Name

    @Option(help: "The marktime binary to test.")
    var marktime: String

    @Option(help: "For inserts: a folder on the disk to measure (made and removed).")
    var folder = "/var/tmp/marktime-inserts"

    @Option(help: "An NMEA log for gpsfake (default: one the rig writes, dated 2025-03-14).")
    var nmea: String?

    func run() throws {
        let code: Int32
        do {
            switch scenario {
            case .e2e: code = try Scenario.e2e(marktime: marktime, nmea: nmea)
            case .powercut: code = try Scenario.powercut(marktime: marktime, nmea: nmea, check: false)
            case .powercutCheck: code = try Scenario.powercut(marktime: marktime, nmea: nmea, check: true)
            case .bench: code = try Bench.run(marktime: marktime, nmea: nmea)
            case .inserts: code = try Inserts.run(folder: folder)
            }
        } catch {
            say("not ok - \(scenario.rawValue): \(error)")
            throw ExitCode(1)
        }
        if code != 0 { throw ExitCode(code) }
    }
}
