import MarkTimeCore
import MarkTimeSystem

/// The beeper of a process without the sound card (`marktime mark`, the phone page): it
/// asks the store's daemon to play the tone, through its doorbell. Silent without a daemon.
public struct DaemonBeeper: Beeper {
    public let store: String

    public init(store: String) { self.store = store }

    public func play(_ tone: Tone) { Doorbell.ring(store: store, message: DoorbellMessage.beep(tone).text) }
    public func stop() {}
    public var state: String { "through the daemon" }
}

/// Says a sentence through the daemon's speech (`say` at the store's doorbell), for a
/// process without the sound card (the phone page); nothing when no daemon runs.
public struct DaemonSpeaker: Speaker {
    public let store: String

    public init(store: String) { self.store = store }

    public func say(_ text: String) { Doorbell.ring(store: store, message: DoorbellMessage.say(text).text) }
}

/// The daemon's doorbell beside the store at `store`; ringing it without a daemon does nothing.
public struct StoreDoorbell: DaemonBell {
    public let store: String

    public init(store: String) { self.store = store }

    public func ring(_ message: DoorbellMessage) { Doorbell.ring(store: store, message: message.text) }
}
