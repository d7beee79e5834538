import MarkTimeCore
import MarkTimeSystem

/// `marktime clock signal`'s side of the doorbell: asks the store's daemon to take its
/// button's next press as a time signal's tick, and waits for the answer. `marktime lunar
/// --set-clock` sends a lunar's UT the same way.
public enum TimeSignalClient {
    /// No daemon runs on `store` to take the press.
    public static func noDaemon(store: String) -> InputError {
        InputError("no daemon is running on \(store): the time signal is taken from the daemon's button "
            + "(start it with `marktime daemon`, or `sudo systemctl start marktime`)")
    }

    /// The daemon's answer, once the press came or the window and its grace for reading a
    /// press ended (a few seconds more for the answer to travel); an error naming the fix
    /// when no daemon answers.
    public static func ask(store: String, request: TimeSignalRequest) throws(InputError) -> TimeSignalAnswer {
        try ask(store: store, message: .signal(request), seconds: request.window + Int(DaemonCore.signalReadGrace / 1_000_000_000) + 5)
    }

    /// The daemon's answer to a lunar's UT for a sight's instant.
    public static func tell(store: String, lunar: LunarTime) throws(InputError) -> TimeSignalAnswer {
        try ask(store: store, message: .lunar(lunar), seconds: 10)
    }

    private static func ask(store: String, message: DoorbellMessage, seconds: Int) throws(InputError) -> TimeSignalAnswer {
        switch Doorbell.ask(store: store, message: message.text, timeout: .seconds(seconds)) {
        case .answered(let text):
            guard let answer = TimeSignalAnswer(text) else { throw InputError("the daemon's answer is not understood: '\(text.prefix(80))'") }
            return answer
        case .notSent:
            throw noDaemon(store: store)
        case .noAnswer:
            throw InputError("the daemon did not answer within \(seconds) s: see its log (`journalctl -u marktime`), and try again")
        }
    }
}
