import HummingbirdBcrypt
import MarkTimeCore

/// Who may use the phone page, and for how long: account names, passwords, the lockout
/// after failed logins, session and invite lifetimes. Pure: every instant is an argument.
public enum AccessRules {
    /// Failed logins for one name from one address that lock that pair out.
    public static let lockoutFailures = 5
    /// Failed logins from one address, whatever the names, that lock the address out.
    public static let addressLockoutFailures = 10
    /// Failed logins for one account, from any addresses, after which each address may try
    /// it once a minute (`backoffSeconds`): slower, never shut, so the owner gets in.
    public static let accountBackoffFailures = 10
    public static let backoffSeconds: Int64 = 60
    /// The window those failures must fall in, and how long the lockout lasts: 15 minutes.
    public static let lockoutSeconds: Int64 = 15 * 60
    /// A session unused this long is over: 30 days.
    public static let sessionIdleSeconds: Int64 = 30 * 86_400
    /// An invite code is good for 24 hours, once.
    public static let inviteSeconds: Int64 = 86_400
    public static let minimumPasswordLength = 8
    /// bcrypt reads at most 72 bytes; a longer password would be silently cut.
    public static let maximumPasswordBytes = 72

    /// An account name: letters, digits, `.`, `_` and `-`, 1 to 32 of them.
    public static func accountName(_ text: String) throws(InputError) -> String {
        let name = try Text.name(text, what: "an account", example: "skipper")
        guard name.count <= 32, name.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0) })
        else {
            throw InputError("the account name '\(Text.escaped(name))' may have only letters, digits, '.', '_' and '-', at most 32, e.g. skipper")
        }
        return name
    }

    /// A password long enough to resist guessing, and short enough for bcrypt to use whole.
    public static func password(_ text: String) throws(InputError) -> String {
        guard text.count >= minimumPasswordLength else {
            throw InputError("the password is \(text.count) characters long: give at least \(minimumPasswordLength)")
        }
        guard text.utf8.count <= maximumPasswordBytes else {
            throw InputError("the password is \(text.utf8.count) bytes long: bcrypt uses at most \(maximumPasswordBytes), so give a shorter one")
        }
        guard !text.unicodeScalars.contains(where: Text.isControl) else {
            throw InputError("the password has a control character (a newline, tab or escape): type it on one line")
        }
        return text
    }

    /// Until when (seconds) failed logins at `failures` (seconds, any order) lock at `now`:
    /// `count` (five) within 15 minutes lock for 15 minutes from the last of them. nil when
    /// not locked.
    public static func lockedUntil(failures: [Int64], count: Int = lockoutFailures, now: Int64) -> Int64? {
        let recent = failures.filter { $0 <= now && now - $0 < 2 * lockoutSeconds }.sorted()
        guard recent.count >= count else { return nil }
        var until: Int64?
        for end in (count - 1)..<recent.count
        where recent[end] - recent[end - count + 1] < lockoutSeconds {
            until = max(until ?? 0, recent[end] + lockoutSeconds)
        }
        guard let until, until > now else { return nil }
        return until
    }

    /// Until when a login is refused (seconds), given the recent failures for its name from
    /// its address (`pair`), from its address for any name, and for its name from any
    /// address; nil when it may try. While locked, the password is not even checked.
    ///
    /// Fair: a stranger's failures from another address never lock the owner out. Five
    /// failures for a name from one address lock that pair for 15 minutes; ten from one
    /// address, whatever the names, lock the address; ten for one account from anywhere
    /// slow every address that failed for it to one try a minute.
    public static func lockedUntil(pair: [Int64], address: [Int64], account: [Int64], now: Int64) -> Int64? {
        var until = [lockedUntil(failures: pair, now: now), lockedUntil(failures: address, count: addressLockoutFailures, now: now)]
        let recentForAccount = account.filter { $0 <= now && now - $0 < lockoutSeconds }
        if recentForAccount.count >= accountBackoffFailures, let last = pair.filter({ $0 <= now }).max(), now - last < backoffSeconds {
            until.append(last + backoffSeconds)
        }
        return until.compactMap { $0 }.max()
    }

    /// Whether a session last marked used at `lastSeen` must be marked again at `now`
    /// (nanoseconds): at most once a minute, so that a page's requests need not each write.
    public static func sessionNeedsTouch(lastSeen: Int64, now: Int64) -> Bool {
        now - lastSeen > 60_000_000_000
    }

    /// Whether a session last used at `lastSeen` is still good at `now`.
    public static func sessionIsLive(lastSeen: Int64, now: Int64) -> Bool {
        now - lastSeen < sessionIdleSeconds
    }
}

/// A bcrypt hash of a password (HummingbirdBcrypt), and its check.
public enum PasswordHash {
    /// 2^12 rounds: one hash takes 0.2 to 1 s on the rig (QEMU TCG), a slow machine like a
    /// Pi, so each guess costs an attacker that much while a login stays bearable.
    /// `Tests/rig/run bench` times it, and the costs either side.
    public static let cost: UInt8 = 12

    public static func hash(_ password: String, cost: UInt8 = cost) -> String {
        Bcrypt.hash(password, cost: cost)
    }

    /// A hash of no one's password at the cost of real ones: a login for a name that has
    /// no account checks against it, so it takes as long as one for a name that has.
    public static let unknownAccount = hash("marktime: a name with no account", cost: cost)

    public static func verify(_ password: String, hash: String) -> Bool {
        Bcrypt.verify(password, hash: hash)
    }

    /// A hash is bcrypt's: `$2b$` (or `$2a$`/`$2y$`), a two-digit cost, 53 more characters.
    public static func isBcrypt(_ hash: String) -> Bool {
        let parts = hash.split(separator: "$", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0].isEmpty && ["2a", "2b", "2y"].contains(parts[1]) && parts[2].count == 2
            && parts[3].count == 53
    }
}

/// An account's colours on the phone page: `sunlight` (white on dark grey, for bright
/// sun), `night` (red on black, to keep night vision), `day`.
public enum Theme: String, CaseIterable, Sendable {
    case day, sunlight, night

    public static func parse(_ text: String) throws(InputError) -> Theme {
        guard let t = Theme(rawValue: text.trimmingWhitespace().lowercased()) else {
            throw InputError("unknown theme '\(Text.escaped(text))': use day, sunlight or night")
        }
        return t
    }
}

/// An account's text size on the phone page.
public enum FontSize: String, CaseIterable, Sendable {
    case small, normal, large

    public static func parse(_ text: String) throws(InputError) -> FontSize {
        guard let f = FontSize(rawValue: text.trimmingWhitespace().lowercased()) else {
            throw InputError("unknown font size '\(Text.escaped(text))': use small, normal or large")
        }
        return f
    }
}
