import ArgumentParser
import Foundation
import Logging
import MarkTimeCore
import MarkTimeConfig
import MarkTimeDevices
import MarkTimeSystem

extension MarkTime {
    struct Daemon: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "daemon",
            abstract: "Run the logger: button, gpsd clock and position, beeps.",
            discussion: """
                Each key-down is stamped with the kernel's CLOCK_MONOTONIC event time, converted to UTC by the best \
                clock source (pps, system, gps, unsynced), stored durably with the GPS position, and confirmed with a \
                double beep (a warning pattern when the clock is unsynced, a long low buzz when storing failed).

                The button is --button, else button.device, else /dev/input/marktime (the udev rule's symlink). With no \
                button present the daemon keeps running and picks it up when it appears. SIGTERM stops it gracefully. \
                Logs go to standard error, for journald. The command checks its options and then runs as marktimed, \
                the executable of the daemon and the page (beside marktime, or in /usr/libexec/marktime).

                With web.enabled (the default) it also runs the phone page (as `marktime web` does) on web.listen, as its \
                child: started again when it exits (after 1 s, doubling to a minute), stopped with the daemon. \
                Under systemd the page is its own unit, marktime-web.service, and the daemon runs with --no-web.
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var config: ConfigOptions

        @Option(help: ArgumentHelp("The button's input device.", valueName: "path"))
        var button: String?

        @Option(help: ArgumentHelp("gpsd to use (default: gpsd.address, localhost:2947).", valueName: "host:port"))
        var gpsd: String?

        @Flag(name: .customLong("web", withSingleDash: false), inversion: .prefixedNo,
              help: "Run the phone page as a child (default: web.enabled, true).")
        var web: Bool?

        func run() async throws {
            let options = DaemonArguments(store: store.store, config: config.config, button: button,
                                          gpsd: try gpsd.map(DaemonArguments.checkedGPSD), web: web)
            try MarkTime.execServer(.daemon(options))
        }
    }

    /// Becomes `marktimed` with `arguments`: the daemon or the page, in the executable of
    /// their own that runs all day (see the Layout article).
    static func execServer(_ arguments: ServerArguments) throws -> Never {
        try Kernel.exec(try serverExecutable(beside: Files.ownExecutable), ["marktimed"] + arguments.commandLine)
    }

    /// `marktimed`, beside `marktime` in a build folder, or in /usr/libexec/marktime when
    /// `marktime` is in /usr/bin (the Debian package).
    static func serverExecutable(beside marktime: String) throws(InputError) -> String {
        let folder = marktime.lastIndex(of: "/").map { String(marktime[..<$0]) } ?? "."
        let places = [folder + "/marktimed", folder + "/../libexec/marktime/marktimed"]
        guard let found = places.first(where: Files.isExecutable) else {
            throw InputError("marktime's server executable is missing: neither \(places.joined(separator: " nor ")) is a file this user may run; "
                + "reinstall the package (`sudo apt install --reinstall marktime`), or build it (`swift build --product marktimed`)")
        }
        return found
    }

    struct Beep: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "beep",
            abstract: "Play one of marktime's tones, to test the speaker.",
            discussion: """
                ok: double 2 kHz beep (sight stored). warning: three 1 kHz beeps (stored, clock unsynced). \
                failure: long low buzz (not stored). alarm: the anchor alarm (plays --seconds, default 3). chime: reminders. \
                The device is sound.device (default `default`); `aplay -L` lists the names.
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var config: ConfigOptions

        @Option(help: "ok, warning, failure, alarm or chime.")
        var tone: ToneName = .ok

        @Option(parsing: .unconditional, help: "How long the looping alarm plays, seconds.", transform: decimal)
        var seconds: Double = 3

        enum ToneName: String, ExpressibleByArgument, CaseIterable {
            case ok, warning, failure, alarm, chime
            var tone: Tone { Tone(rawValue: rawValue)! }
        }

        func run() async throws {
            let seconds = try Quantity.check(seconds, in: 0...600, what: "--seconds", unit: "s")
            let settings = try config.settings()
            let device = try settings.sound.device
            if let reason = ALSABeeper.probe(device: device) {
                throw InputError("cannot open sound device '\(device)': \(reason); set sound.device to one that `aplay -L` lists")
            }
            let beeper = try ALSABeeper(device: device, volume: try settings.sound.volume,
                                    logger: Logger(label: "marktime", factory: { _ in SwiftLogNoOpLogHandler() }))
            // The alarm's length is counted in samples, so a busy machine cannot stretch it.
            beeper.play(tone.tone, frames: Int((seconds * Double(ALSABeeper.sampleRate)).rounded()))
            beeper.finish()
            guard beeper.played == 1 else { throw InputError("the tone did not play: \(beeper.state)") }
        }
    }

    struct Say: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "say",
            abstract: "Say a sentence as the daemon reads a keypad's entry and a preset, to test the voice and the speaker.",
            discussion: """
                Spoken by eSpeak NG (sound.voice, default en; `espeak-ng --voices` lists them) at sound.volume, through \
                sound.device. With the daemon, sound.speech (default true) reads each keypad entry back and the keypad's * \
                says the plan's next body; a press's beep always cuts speech off.
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var config: ConfigOptions

        @Argument(help: "What to say, e.g. \"Vega, fifty-one forty, bearing zero seven five\".")
        var text: String

        func run() async throws {
            guard !text.trimmingWhitespace().isEmpty, text.count <= DoorbellMessage.longestSaid else {
                throw InputError("give a sentence of 1 to \(DoorbellMessage.longestSaid) characters to say")
            }
            let sound = try config.settings().sound
            let samples = try EspeakSpeech.render(text, voice: sound.voice, volume: sound.volume)
            if let reason = ALSABeeper.probe(device: sound.device) {
                throw InputError("cannot open sound device '\(sound.device)': \(reason); set sound.device to one that `aplay -L` lists")
            }
            let player = try ALSABeeper(device: sound.device, volume: sound.volume,
                                        logger: Logger(label: "marktime", factory: { _ in SwiftLogNoOpLogHandler() }))
            player.speak(samples)
            player.finish()
            guard player.speechCounts.spoken == 1 else { throw InputError("the speech did not play: \(player.state)") }
        }
    }

    struct Buttons: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "buttons",
            abstract: "List the input devices that can send keys, to choose the button.",
            discussion: "Set the one you want with `marktime config set button.device PATH`, or use the udev rule in udev/.")

        @OptionGroup var store: StoreOptions

        @Option(help: ArgumentHelp("Where input devices live.", valueName: "folder"))
        var folder = "/dev/input"

        func run() async throws {
            let (devices, unreadable) = InputDevices.keyDevices(folder: folder)
            if devices.isEmpty {
                print(unreadable.isEmpty
                    ? "No input device that can send keys was found in \(folder): plug in the button, or check the gpio-key overlay."
                    : "No readable input device sends keys in \(folder); \(unreadable.count) could not be opened (\(unreadable[0].1)): add yourself to the input group.")
                return
            }
            for d in devices {
                let more = d.keyCount > d.keys.count ? " … (\(d.keyCount) keys)" : ""
                print("\(d.path)  \(d.name)\n    keys: \(d.keys.joined(separator: " "))\(more)")
            }
            for (path, reason) in unreadable { print("\(path)  cannot open: \(reason)") }
        }
    }
}
