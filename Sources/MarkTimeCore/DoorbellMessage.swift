/// What another process asks of the daemon through the store's doorbell (a datagram
/// socket beside the store): typed here, as text on the wire.
public enum DoorbellMessage: Hashable, Sendable {
    /// Tasks changed: the reminder thread reads them again.
    case tasksChanged
    /// Places changed: the share service sends the waypoints again.
    case placesChanged
    /// Play a tone for a process without the sound card (the phone page, `marktime mark`).
    case beep(Tone)

    /// The message a datagram holds; nil for anything else.
    public init?(_ text: String) {
        switch text {
        case "tasks": self = .tasksChanged
        case "places": self = .placesChanged
        default:
            guard text.hasPrefix("beep "), let tone = Tone(rawValue: String(text.dropFirst(5))) else { return nil }
            self = .beep(tone)
        }
    }

    /// The datagram's text.
    public var text: String {
        switch self {
        case .tasksChanged: "tasks"
        case .placesChanged: "places"
        case .beep(let tone): "beep \(tone.rawValue)"
        }
    }
}
