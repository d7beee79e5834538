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
        case e2e, powercut, powercutCheck = "powercut-check", bench, inserts, flushpoints, flushpointsCheck = "flushpoints-check", chrony, pps
        case chronometer, chronometerReboot = "chronometer-reboot"
    }

    @Argument(help: "e2e, powercut, powercut-check, bench, inserts (on this machine, into --folder), flushpoints, flushpoints-check, chrony, pps, chronometer or chronometer-reboot.")
    var scenario: Name

    @Option(help: "The marktime binary to test.")
    var marktime: String

    @Option(help: "For inserts: a folder on the disk to measure (made and removed).")
    var folder = "/var/tmp/marktime-inserts"

    @Option(help: "An NMEA log for gpsfake (default: one the rig writes, dated 2025-03-14).")
    var nmea: String?

    @Option(help: "For chrony: Debian's chronyd binary (Tests/rig/run unpacks it from its package).")
    var chronyd = "/usr/sbin/chronyd"

    @Option(help: "For chronometer: the receiver's port, where Tests/rig/run writes NMEA (QEMU's second ISA serial port on amd64; a virtio console, hvc0, on arm64's virt machine).")
    var receiver = "/dev/ttyS1"

    @Option(help: "For pps: the folder of the parport, parport_pc and pps_parport modules (Tests/rig/run keeps them).")
    var modules = ""

    @Option(help: "For flushpoints: how many presses the session makes.")
    var presses = 100

    @Option(help: "For flushpoints-check: how many crash states to check, spread over the log (0: every one).")
    var points = 0

    @Option(help: "For flushpoints-check: only the states at this entry of the log.")
    var only: Int?

    @Option(help: "For flushpoints-check: a torn state after every Nth flush point (0: none).")
    var tornEvery = 4

    @Option(help: "For flushpoints-check: the seed that picks the torn states' writes.")
    var seed: UInt64 = 1

    func run() throws {
        let code: Int32
        do {
            switch scenario {
            case .e2e: code = try Scenario.e2e(marktime: marktime, nmea: nmea)
            case .powercut: code = try Scenario.powercut(marktime: marktime, nmea: nmea, check: false)
            case .powercutCheck: code = try Scenario.powercut(marktime: marktime, nmea: nmea, check: true)
            case .bench: code = try Bench.run(marktime: marktime, nmea: nmea)
            case .inserts: code = try Inserts.run(folder: folder)
            case .flushpoints: code = try FlushPoints.record(marktime: marktime, nmea: nmea, presses: presses)
            case .flushpointsCheck: code = try FlushPoints.check(marktime: marktime, points: points, only: only, tornEvery: tornEvery, seed: seed)
            case .chrony: code = try ChronyScenario.run(marktime: marktime, chronyd: chronyd)
            case .pps: code = try PPSScenario.run(marktime: marktime, modules: modules)
            case .chronometer: code = try ChronometerScenario.run(marktime: marktime, receiver: receiver)
            case .chronometerReboot: code = try ChronometerScenario.reboot(marktime: marktime, receiver: receiver)
            }
        } catch {
            say("not ok - \(scenario.rawValue): \(error)")
            throw ExitCode(1)
        }
        if code != 0 { throw ExitCode(code) }
    }
}
