import ArgumentParser
import Foundation
import MarkTimeCore
import MarkTimeDevices
import MarkTimePlaces
import MarkTimeStore
import MarkTimeSystem
import Rainbow

extension MarkTime {
    struct Clock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clock",
            abstract: "The family clock (`marktime clock`), and the chronometer: a time signal, trust-gps.",
            subcommands: [FamilyClock.self, TimeSignal.self, TrustGPS.self, Rates.self], defaultSubcommand: FamilyClock.self)
    }

    struct Rates: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rates",
            abstract: "The chronometer's rate book: the clock's daily rate, a line a day per boot.",
            discussion: """
                While a good source (PPS, a synchronised system clock, GPS) is heard for an hour or more, the daemon \
                learns the rate of the clock it carries time on, and writes it here, a line a day per boot, with the \
                system clock's error then. With every good source gone, time is carried at the rate; after a reboot, \
                at the last line's, from the first good time the boot is given (`marktime clock signal`), until the \
                boot learns its own.
                  marktime clock rates
                  marktime clock rates --format json
                """)
        @OptionGroup var store: StoreOptions
        @Option(help: "table or json.") var format: Format = .table

        func run() async throws {
            let book = try store.openForReading().rateBook()
            switch format {
            case .json: print(JSON.array(book.map(\.json)).render())
            case .table:
                guard !book.isEmpty else {
                    print("the rate book is empty: the daemon writes it once it has heard a good time source (GPS, PPS, chrony) for an hour")
                    return
                }
                RateBookEntry.table(book).forEach { print($0) }
            }
        }
    }

    struct TimeSignal: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "signal",
            abstract: "Set the clock from a time signal: press the button on the tick of the minute you name.",
            discussion: """
                Without GPS, a radio time signal (a minute's pips) or a phone on the cellular network gives the \
                time. Run this a little before the tick, naming the minute (UTC) the tick begins, then press the \
                button on the tick. The press's kernel time and that minute become a `signal` clock sample, good to \
                your reaction time (clock.signal_uncertainty_s, 0.3 s unless set): while no better source (pps, a \
                synchronised system clock, GPS) is heard, presses are stamped from it, carried at the rate learned \
                earlier in the boot, and this boot's unsynced or carried sights are re-stamped from it when that is \
                better. GPS set aside as disagreeing counts again if it agrees with the tick. Without --date the date \
                is the one that puts the tick nearest the clock, which must know its own error: an unsynced clock \
                (after a reboot without GPS or an RTC) may be days off, so give --date. A tick more than half a \
                minute beyond the clock's own uncertainty is refused as a wrong minute, unless --force says the \
                clock is the one that is wrong. A second press within 5 s of the tick's is not a sight.
                  marktime clock signal 14:05
                  marktime clock signal 14:05 --date 2026-11-27
                  marktime clock signal 14:05:30 --within 300
                """)
        @OptionGroup var store: StoreOptions
        @Argument(help: ArgumentHelp("The tick's time, UTC: HH:MM, or HH:MM:SS.", valueName: "tick")) var tick: String
        @Option(help: ArgumentHelp("Seconds to wait for the press (1 to 3600).", valueName: "seconds"))
        var within: Int = TimeSignalRequest.defaultWindow
        @Option(help: ArgumentHelp("The tick's UTC date, YYYY-MM-DD: needed when the clock is unsynced.", valueName: "date")) var date: String?
        @Flag(help: "Take the tick even if it is far from the clock's own time.") var force = false
        @Option(help: "table or json.") var format: Format = .table

        func run() async throws {
            guard TimeSignalRequest.windows.contains(within) else { throw InputError("--within \(within): give the seconds to wait for the press, 1 to 3600") }
            let request = try TimeSignalRequest.parse(tick: tick, date: date, window: within, force: force)
            let second = request.secondOfDay
            let db = try store.openForReading()
            guard case .daemon = DaemonLock.holder(store: db.path) else { throw TimeSignalClient.noDaemon(store: db.path) }
            if format == .table { print("press the button on the tick of \(TimeSignalRequest.text(secondOfDay: second)) UTC (waiting up to \(within) s)") }
            let answer = try TimeSignalClient.ask(store: db.path, request: request)
            switch (answer, format) {
            case (.refused(let reason), .table): throw InputError("time signal not taken: \(reason)")
            case (_, .json): print(answer.json.render())
            case (_, .table): print(answer.sentence)
            }
            if case .refused = answer { throw ExitCode(1) }
        }
    }

    struct TrustGPS: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "trust-gps",
            abstract: "Accept GPS time set aside as disagreeing with the time carried, or a GPS position flagged as moving faster than the boat can.",
            discussion: """
                When GPS comes back, or jumps, with a time that disagrees with the time the daemon carried from the \
                last one it trusted by more than both uncertainties allow (a spoofer's offset, a receiver's week \
                rollover), the daemon sets GPS aside: presses are stamped from the carried time, nothing is \
                re-stamped from GPS, and `marktime status` says so with the difference. Check the time another way (a \
                radio time signal, a phone on the cellular network, `marktime lunar`); if GPS is right, this accepts \
                it, and it counts again from now. Sights already stored keep their stamps. A GPS position that moved \
                further from the last trusted one than the boat could sail (gps.max_speed_kn, 30 kn unless set) is \
                flagged the same way; this accepts it too.
                  marktime clock trust-gps
                """)
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let db = try store.openForReading()
            guard case .daemon = DaemonLock.holder(store: db.path), let status = try db.daemonStatus(), !status.stopped else {
                throw InputError("the daemon is not running on \(db.path): GPS time is only set aside by a running daemon (`marktime daemon` starts it)")
            }
            let flag = status.fix?.flag
            guard status.gpsSetAside != nil || flag != nil else {
                print("gps time is not set aside, nor its position flagged: nothing to accept")
                return
            }
            if let aside = status.gpsSetAside { print("gps is set aside: \(aside)") }
            if let flag { print("gps position is flagged: \(flag)") }
            Doorbell.ring(store: db.path, message: DoorbellMessage.trustGPS.text)
            // The daemon says it in its next status, within a heartbeat.
            let clock = try SystemClock().read().instant
            while try db.daemonStatus().map({ $0.gpsSetAside != nil || $0.fix?.flag != nil }) == true {
                guard try SystemClock().read().instant.nanoseconds - clock.nanoseconds < 5_000_000_000 else {
                    throw InputError("the daemon did not take it within 5 s: see its log (`journalctl -u marktime`), and try again")
                }
                try await Task.sleep(nanoseconds: 100_000_000)
            }
            print("gps \(flag == nil ? "time" : status.gpsSetAside == nil ? "position" : "time and position") accepted: it counts again")
        }
    }

    struct FamilyClock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "family",
            abstract: "The family clock: one hand per member, pointing at the kind of place they are at.",
            discussion: """
                Sectors are the place kinds (home, work, school, harbour, anchorage, other) and Unknown. \
                Members come from `marktime member add`; the daemon moves the one marked --me.
                  marktime clock
                  marktime clock --svg clock.svg
                """)
        @OptionGroup var store: StoreOptions
        @Option(help: ArgumentHelp("Write the clock as an SVG picture to this file.", valueName: "file")) var svg: String?

        func run() async throws {
            let board = try store.openForReading().familyClock()
            let (clock, members, legend) = (board.clock, board.members, board.legend)
            if let svg {
                do { try SideFile.writeOutput(svg) { write in try write(Array(clock.svg(legend: legend).utf8)) } } catch { throw cannotWrite(svg, error, example: "clock.svg") }
                print("wrote \(svg)")
                return
            }
            for row in clock.text() {
                print(row.map { cell in Self.paint(String(cell.0), cell.1) }.joined().replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression))
            }
            if members.isEmpty { print("no members yet: `marktime member add NAME --me`") }
            for (m, line) in zip(members, legend) { print(Self.paint("●", m.color) + " " + line) }
        }

        static func paint(_ text: String, _ color: MemberColor?) -> String {
            switch color {
            case .red: text.red
            case .green: text.green
            case .yellow: text.yellow
            case .blue: text.blue
            case .magenta: text.magenta
            case .cyan: text.cyan
            case .white: text.white
            case nil: text
            }
        }
    }
}
