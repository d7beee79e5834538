/// What a key of the navigator's keypad (`keypad.device`) means: a USB number pad or any
/// keyboard, read as evdev key codes (`linux/input-event-codes.h`), the number pad's and
/// the top row's alike, whatever Num Lock says.
public enum KeypadKey: Hashable, Sendable {
    case digit(Character)
    case point
    /// Keeps what was typed as the last sight's Hs.
    case enter
    /// Takes back the last character typed.
    case erase
    /// Throws away what was typed.
    case clear
    /// Sets the last sight's body to the plan's next one.
    case nextBody
    /// Takes back the last entry kept.
    case undo
    /// Reads the plan's next body aloud: its name, predicted Hs and bearing.
    case speakPlan

    /// The key for an evdev key code, nil for a key that means nothing here.
    public static func of(code: UInt16) -> KeypadKey? {
        switch code {
        case 2...10: .digit(Character(String(code - 1)))  // KEY_1 … KEY_9
        case 11, 82: .digit("0")  // KEY_0, KEY_KP0
        case 79, 80, 81: .digit(Character(String(code - 78)))  // KEY_KP1 … KEY_KP3
        case 75, 76, 77: .digit(Character(String(code - 71)))  // KEY_KP4 … KEY_KP6
        case 71, 72, 73: .digit(Character(String(code - 64)))  // KEY_KP7 … KEY_KP9
        case 52, 83, 51, 121: .point  // KEY_DOT, KEY_KPDOT, KEY_COMMA, KEY_KPCOMMA
        case 28, 96: .enter  // KEY_ENTER, KEY_KPENTER
        case 14: .erase  // KEY_BACKSPACE
        case 1, 111: .clear  // KEY_ESC, KEY_DELETE
        case 78, 15, 48: .nextBody  // KEY_KPPLUS, KEY_TAB, KEY_B
        case 74, 22: .undo  // KEY_KPMINUS, KEY_U
        case 55, 31: .speakPlan  // KEY_KPASTERISK, KEY_S
        default: nil
        }
    }
}

/// The keypad's entry: the digits typed so far, and what each key asks for. Pure: events in,
/// commands out. `3412.3` then Enter is 34° 12′.3; the body key and undo act at once.
public struct KeypadEntry: Hashable, Sendable {
    /// What the navigator asked for.
    public enum Command: Hashable, Sendable {
        /// Set the last sight's Hs (degrees), as typed.
        case hs(Double, typed: String)
        case nextBody
        case undo
        case speakPlan
        /// The entry is not a reading: why, in a sentence, and what to type instead.
        case refused(String)
    }

    /// What is typed and not yet kept.
    public private(set) var typed = ""
    /// More characters than any reading needs (`179 59.9` is 7) are refused as they come.
    public static let longest = 8

    public init() {}

    /// The command a key-down asks for, nil while typing; key-ups and autorepeat are ignored.
    public mutating func handle(_ input: InputEvent) -> Command? {
        guard input.type == InputEvent.keyType, input.value == 1, let key = KeypadKey.of(code: input.code) else { return nil }
        return handle(key)
    }

    public mutating func handle(_ key: KeypadKey) -> Command? {
        switch key {
        case .digit(let d):
            guard typed.count < Self.longest else {
                typed = ""
                return .refused("more than \(Self.longest) keys before Enter is not a reading: the entry is cleared; type it again, "
                    + "degrees then two digits of minutes (3412.3 is 34° 12′.3)")
            }
            typed.append(d)
        case .point:
            guard !typed.contains(".") else {
                typed = ""
                return .refused("a reading has one decimal point: the entry is cleared; type it again (3412.3 is 34° 12′.3)")
            }
            typed.append(".")
        case .erase:
            if !typed.isEmpty { typed.removeLast() }
        case .clear:
            typed = ""
        case .enter:
            defer { typed = "" }
            do { return .hs(try Self.reading(typed), typed: typed) } catch { return .refused(error.description) }
        case .nextBody:
            return .nextBody
        case .undo:
            typed = ""
            return .undo
        case .speakPlan:
            return .speakPlan
        }
        return nil
    }

    /// An altitude as it is typed, to the tenth of a minute: 34.205 → `3412.3`.
    public static func typed(_ degrees: Double) -> String {
        let tenths = Int((max(0, degrees) * 600).rounded())
        let minutes = tenths % 600
        return "\(tenths / 600)\(minutes / 10 < 10 ? "0" : "")\(minutes / 10).\(minutes % 10)"
    }

    /// Reads a keypad reading: degrees, then two digits of whole minutes, then the tenths
    /// after a point (`3412.3`, `512`, `7005`); an altitude from 0° to 90°.
    public static func reading(_ typed: String) throws(InputError) -> Double {
        let form = "degrees then two digits of minutes: 3412.3 is 34° 12′.3, 512 is 5° 12′"
        guard !typed.isEmpty else { throw InputError("Enter with nothing typed: type the reading first, \(form)") }
        let parts = typed.split(separator: ".", omittingEmptySubsequences: false)
        let whole = String(parts[0])
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        // At most 3 digits of degrees and 2 of tenths: the page sends any text, not 8 keys.
        guard parts.count <= 2, (3...5).contains(whole.count), fraction.count <= 2, whole.allSatisfy(\.isASCIIDigit), fraction.allSatisfy(\.isASCIIDigit),
              let degrees = Int(whole.dropLast(2)), let minutes = Double(String(whole.suffix(2)) + (fraction.isEmpty ? "" : "." + fraction)) else {
            throw InputError("'\(Text.shown(String(typed.prefix(20))))\(typed.count > 20 ? "…" : "")' is not a reading: give \(form)")
        }
        guard minutes < 60 else {
            throw InputError("'\(typed)' is not an angle: its minutes (\(whole.suffix(2))) must be under 60; give \(form)")
        }
        let value = Double(degrees) + minutes / 60
        guard value <= 90 else {
            throw InputError("'\(typed)' is \(degrees)°, above 90°: an altitude is from 0° on the horizon to 90° at the zenith; give \(form)")
        }
        return value
    }
}

/// A change to a sight's reading asked for by the keypad, the phone's quick entry, or an
/// undo, carried out by the daemon's one writer.
public struct ReadingRequest: Hashable, Sendable {
    public enum Change: Hashable, Sendable {
        case hs(Double)
        /// Set the Hs and the body, either nil to leave it (the phone's quick entry).
        case set(hs: Double?, body: String?)
        /// The plan's next body after the sight's own (its first when it has none).
        case nextBody
        /// Put back what an earlier change replaced.
        case restore(ReadingChange)
    }

    /// The sight; nil for the newest in the store.
    public var sightID: Int64?
    public var change: Change
    /// Who asked through the doorbell, to answer once kept; nil for the keypad.
    public var asker: String?

    public init(sightID: Int64?, change: Change, asker: String? = nil) {
        (self.sightID, self.change, self.asker) = (sightID, change, asker)
    }
}

/// A sight's body and Hs before and after a reading request, as the store kept them.
public struct ReadingChange: Hashable, Sendable {
    public var sightID: Int64
    public var before: Reading
    public var after: Reading
    /// It put back an earlier change (so it is not itself undone).
    public var undoes: Bool

    /// A body and an Hs, either unset.
    public struct Reading: Hashable, Sendable {
        public var body: String?
        public var hs: Double?

        public init(body: String?, hs: Double?) {
            (self.body, self.hs) = (body, hs)
        }
    }

    public init(sightID: Int64, before: Reading, after: Reading, undoes: Bool = false) {
        (self.sightID, self.before, self.after, self.undoes) = (sightID, before, after, undoes)
    }

    /// What is read back: `sight 12: Vega, Hs 34° 12'.3`.
    public var sentence: String {
        let body = after.body ?? "no body"
        let hs = after.hs.map { "Hs \(SextantAngle.format($0))" } ?? "no Hs"
        return "sight \(sightID): \(body), \(hs)\(undoes ? " (undone)" : "")"
    }
}
