import MarkTimeCore

/// What the account rules need of a store: accounts with their password hashes, failed
/// logins, sessions and invites. It keeps and finds; `Logins` decides. A session's token
/// and an invite's code are kept only in a stored form of the repository's (a digest),
/// never as given. MarkTimeStore's `AppDatabase` is the one on SQLite.
public protocol AccountRepository: Sendable {
    /// The account named `name` and its password's bcrypt hash; nil when there is none.
    func account(named name: String) throws -> (account: Account, passwordHash: String)?
    /// The failed logins since `seconds` (whole seconds since the epoch, each one's time):
    /// for `name` from `address`, from `address` for any name, and for `name` from anywhere.
    func failedLogins(name: String, address: String, since seconds: Int64) throws -> (pair: [Int64], address: [Int64], name: [Int64])
    /// Adds an account of `role` with its password's hash; refused when the name is taken.
    func insertAccount(name: String, passwordHash: String, role: Role, at time: UTCTime) throws -> Account
    /// Records a failed login for `name` from `address`.
    func recordFailedLogin(name: String, address: String, at time: UTCTime) throws
    /// Opens a session of `account` and clears the failures of its name from `address`, together.
    func openSession(token: String, csrf: String, account: Account, address: String, at time: UTCTime) throws
    /// The session `token` opens: its CSRF token, when it was last seen, and its account.
    func session(token: String) throws -> (csrf: String, lastSeen: UTCTime, account: Account)?
    /// Marks a session as seen at `time`.
    func touchSession(token: String, at time: UTCTime) throws
    /// Ends a session.
    func endSession(token: String) throws
    /// Keeps an invite for an account of `role`, good until `expires`.
    func addInvite(code: String, role: Role, by creator: String?, at time: UTCTime, expires: UTCTime) throws
    /// Whether `code` names an invite not used and not expired at `time`.
    func inviteIsUsable(code: String, at time: UTCTime) throws -> Bool
    /// Uses the invite up and adds the account of its role, in one transaction; nil when
    /// the invite is no longer usable by then (another redeemed it first).
    func redeemInvite(code: String, at time: UTCTime, name: String, passwordHash: String) throws -> Account?
    /// Sets a new password hash; every session of the account ends.
    func setPasswordHash(name: String, hash: String) throws
}

/// The rules of logging in, sessions and invites, over an `AccountRepository`: the
/// lockout (`AccessRules.lockedUntil`), the bcrypt check that costs the same for a name
/// with no account, sessions that end after 30 idle days, and invites that make one
/// account each within 24 hours.
public struct Logins<Repository: AccountRepository>: Sendable {
    public let repository: Repository
    /// bcrypt's cost for new hashes (tests pass 4, the least, to stay quick).
    public let cost: UInt8
    /// Makes a session's token, its CSRF token and an invite's code (the system's
    /// generator; a test may give its own).
    let newToken: @Sendable () -> String

    public init(_ repository: Repository, cost: UInt8 = PasswordHash.cost, newToken: @escaping @Sendable () -> String = systemToken) {
        self.repository = repository
        self.cost = cost
        self.newToken = newToken
    }

    /// A random token: 32 bytes from the system's generator (`getrandom(2)`), as lowercase hex.
    public static func systemToken() -> String {
        var rng = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: (0..<32).flatMap { _ -> [UInt8] in
            let byte = UInt8.random(in: 0...255, using: &rng)
            return [digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]]
        }, as: UTF8.self)
    }

    /// Checks a login; on success opens a session. Failures count toward the lockout of
    /// the name from that address, of the address, and toward the account's backoff
    /// (`AccessRules.lockedUntil(pair:address:account:now:)`); while locked, the password is
    /// not even checked. A name with no account costs the same bcrypt check as one with.
    public func logIn(name: String, password: String, address: String, now: UTCTime) throws -> WebSession {
        let account = try check(name: name, password: password, address: address, now: now)
        let token = newToken(), csrf = newToken()
        try repository.openSession(token: token, csrf: csrf, account: account, address: address, at: now)
        return WebSession(token: token, csrf: csrf, account: account)
    }

    /// The lockout's check, then the password's: the account when it is right; else the
    /// refusal, with a failure recorded for the name from `address`.
    func check(name: String, password: String, address: String, now: UTCTime) throws -> Account {
        let seconds = now.nanosecondsSinceEpoch / 1_000_000_000
        let failures = try repository.failedLogins(name: name, address: address, since: seconds - 2 * AccessRules.lockoutSeconds)
        if let until = AccessRules.lockedUntil(pair: failures.pair, address: failures.address, account: failures.name, now: seconds) {
            throw LoginRefusal.lockedOut(until: UTCTime(wholeSeconds: until))
        }
        let found = try repository.account(named: name)
        guard PasswordHash.verify(password, hash: found?.passwordHash ?? PasswordHash.unknownAccount), let found else {
            try repository.recordFailedLogin(name: name, address: address, at: now)
            throw LoginRefusal.wrongNameOrPassword
        }
        return found.account
    }

    /// The session a cookie's token opens at `now`, marked as used; nil when unknown or
    /// idle for 30 days (then it is ended).
    public func session(token: String, now: UTCTime) throws -> WebSession? {
        guard let found = try repository.session(token: token) else { return nil }
        let lastSeen = found.lastSeen.nanosecondsSinceEpoch
        guard AccessRules.sessionIsLive(lastSeen: lastSeen / 1_000_000_000, now: now.nanosecondsSinceEpoch / 1_000_000_000) else {
            try repository.endSession(token: token)
            return nil
        }
        if AccessRules.sessionNeedsTouch(lastSeen: lastSeen, now: now.nanosecondsSinceEpoch) {
            try repository.touchSession(token: token, at: now)
        }
        return WebSession(token: token, csrf: found.csrf, account: found.account)
    }

    /// Changes a password after checking the current one, which counts toward the lockout
    /// as a login does (from `address`); every session of the account ends.
    public func changePassword(name: String, current: String, new secret: String, address: String, now: UTCTime) throws {
        guard try repository.account(named: name) != nil else { throw InputError("no account named '\(Text.escaped(name))'") }
        do { _ = try check(name: name, password: current, address: address, now: now) } catch let refusal as LoginRefusal {
            switch refusal {
            case .lockedOut(let until): throw InputError("too many wrong passwords: try again after \(until.iso8601)")
            case .wrongNameOrPassword: throw InputError("the current password is wrong")
            }
        }
        try repository.setPasswordHash(name: name, hash: try hash(secret))
    }

    /// Adds an account of `role`, its name and password checked (`AccessRules`), the
    /// password kept as a bcrypt hash.
    @discardableResult
    public func addAccount(name: String, password: String, role: Role, now: UTCTime) throws -> Account {
        let checked: String
        do { checked = try AccessRules.accountName(name) } catch { throw InputError(error.description) }
        return try repository.insertAccount(name: checked, passwordHash: try hash(password), role: role, at: now)
    }

    /// Sets a new password without asking for the current one (the owner, at the machine's
    /// command line); every session of the account ends.
    public func setPassword(name: String, password: String) throws {
        try repository.setPasswordHash(name: name, hash: try hash(password))
    }

    /// The bcrypt hash of a new password, once `AccessRules.password` takes it.
    func hash(_ password: String) throws -> String {
        do { return PasswordHash.hash(try AccessRules.password(password), cost: cost) } catch { throw InputError(error.description) }
    }

    /// A one-time invite code for an account of `role`, good for `AccessRules.inviteSeconds`.
    public func createInvite(by creator: String?, role: Role = .crew, now: UTCTime) throws -> (code: String, expires: UTCTime) {
        let code = String(newToken().prefix(16))
        let expires = now.adding(nanoseconds: AccessRules.inviteSeconds * 1_000_000_000)
        try repository.addInvite(code: code, role: role, by: creator, at: now, expires: expires)
        return (code, expires)
    }

    /// Creates an account with an invite code, which is then used up: both in one
    /// transaction, so that one code makes one account however many try it at once.
    @discardableResult
    public func redeemInvite(_ code: String, name: String, password: String, now: UTCTime) throws -> Account {
        let code = code.trimmingWhitespace()
        let unusable = InputError("that invite code is unknown, used or more than 24 hours old: ask for a new one (`marktime user invite`)")
        // A quick refusal before the slow hash; the repository's transaction decides.
        guard try repository.inviteIsUsable(code: code, at: now) else { throw unusable }
        let checked: String
        do { checked = try AccessRules.accountName(name) } catch { throw InputError(error.description) }
        guard let account = try repository.redeemInvite(code: code, at: now, name: checked, passwordHash: try hash(password)) else { throw unusable }
        return account
    }
}
