import Foundation
import GRDB
import MarkTimeAccounts
import MarkTimeCore
import MarkTimeSystem

extension AppDatabase {
    static func sha256(_ text: String) throws(StoreError) -> String {
        guard let hex = SHA256.hex(text) else { throw .refused(SHA256.failure) }
        return hex
    }

    typealias A = AccountRecord.CodingKeys
    typealias S = WebSessionRecord.CodingKeys

    static func accountRow(_ name: String, _ db: Database) throws -> AccountRecord {
        guard let row = try AccountRecord.filter(A.name == name).fetchOne(db) else {
            let names = try AccountRecord.order(A.name).fetchAll(db).map(\.name)
            throw StoreError.refused("no account named '\(Text.escaped(name))'"
                + (names.isEmpty ? "; there are none yet: `marktime user add NAME`" : "; the accounts: \(names.joined(separator: ", "))"))
        }
        return row
    }

    /// Adds an account of `role` with a bcrypt hash of `password`.
    @discardableResult
    public func addAccount(name text: String, password secret: String, role: Role, now: UTCTime,
                           cost: UInt8 = PasswordHash.cost) throws(StoreError) -> Account {
        let (name, hash) = try Self.checkedAccount(name: text, password: secret, cost: cost)
        return try write { db in try Self.insertAccount(db, name: name, hash: hash, role: role, now: now) }
    }

    /// Gives an account another role; its open pages learn of it at their next message.
    @discardableResult
    public func setRole(name: String, role: Role) throws(StoreError) -> Account {
        try write { db in
            var account = try Self.accountRow(name, db)
            (account.role, account.admin) = (role.rawValue, role == .admin)
            try account.update(db)
            return account.account
        }
    }

    /// A new account's name and password hash, its rules checked.
    static func checkedAccount(name text: String, password secret: String, cost: UInt8) throws(StoreError) -> (name: String, hash: String) {
        let name: String, password: String
        do {
            (name, password) = (try AccessRules.accountName(text), try AccessRules.password(secret))
        } catch { throw .refused(error.description) }
        return (name, PasswordHash.hash(password, cost: cost))
    }

    /// Inserts an account, refused when the name is taken.
    static func insertAccount(_ db: Database, name: String, hash: String, role: Role, now: UTCTime) throws -> Account {
        if let other = try AccountRecord.filter(A.name == name).fetchOne(db) {
            throw StoreError.refused("there is already an account named '\(other.name)'; choose another name")
        }
        var record = AccountRecord(name: name, passwordHash: hash, admin: role == .admin, role: role.rawValue, theme: Theme.day.rawValue, fontSize: FontSize.normal.rawValue,
                                   createdAtNs: now.nanosecondsSinceEpoch)
        try record.insert(db)
        return record.account
    }

    /// Every account, by name.
    public func accounts() throws(StoreError) -> [Account] {
        try read { db in try AccountRecord.order(A.name).fetchAll(db).map(\.account) }
    }

    /// Removes an account and ends its sessions.
    public func removeAccount(named name: String) throws(StoreError) {
        try write { db in _ = try Self.accountRow(name, db).delete(db) }
    }

    /// Sets a new password; every session of the account ends.
    public func setPassword(name: String, password secret: String, cost: UInt8 = PasswordHash.cost) throws(StoreError) {
        let password: String
        do { password = try AccessRules.password(secret) } catch { throw .refused(error.description) }
        let hash = PasswordHash.hash(password, cost: cost)
        try write { db in
            var account = try Self.accountRow(name, db)
            account.passwordHash = hash
            try account.update(db)
            try WebSessionRecord.filter(S.accountID == account.id).deleteAll(db)
        }
    }

    /// A one-time invite code for an account of `role`, good for `AccessRules.inviteSeconds`.
    public func createInvite(by creator: String?, role: Role = .crew, now: UTCTime) throws(StoreError) -> (code: String, expires: UTCTime) {
        let code = String(SHA256.randomToken().prefix(16))
        let expires = now.adding(nanoseconds: AccessRules.inviteSeconds * 1_000_000_000)
        try write { db in
            try InviteRecord(codeSha256: Self.sha256(code), createdAtNs: now.nanosecondsSinceEpoch, expiresNs: expires.nanosecondsSinceEpoch,
                             createdBy: creator, role: role.rawValue).insert(db)
        }
        return (code, expires)
    }

    /// Creates an account with an invite code, which is then used up: both in one
    /// transaction, so that one code makes one account however many try it at once.
    @discardableResult
    public func redeemInvite(_ code: String, name: String, password: String, now: UTCTime,
                             cost: UInt8 = PasswordHash.cost) throws(StoreError) -> Account {
        let key = try Self.sha256(code.trimmingWhitespace())
        let unusable = StoreError.refused("that invite code is unknown, used or more than 24 hours old: ask for a new one (`marktime user invite`)")
        typealias I = InviteRecord.CodingKeys
        let usable = InviteRecord.filter(key: key).filter(I.usedAtNs == nil && I.expiresNs > now.nanosecondsSinceEpoch)
        // A quick refusal before the slow hash; the transaction below decides.
        guard try read({ db in try usable.fetchCount(db) }) == 1 else { throw unusable }
        let (checked, hash) = try Self.checkedAccount(name: name, password: password, cost: cost)
        return try write { db in
            guard let invite = try usable.fetchOne(db), try usable.updateAll(db, I.usedAtNs.set(to: now.nanosecondsSinceEpoch)) == 1 else { throw unusable }
            return try Self.insertAccount(db, name: checked, hash: hash, role: Role(rawValue: invite.role) ?? .family, now: now)
        }
    }

    /// Checks a login; on success opens a session. Failures count toward the lockout of
    /// the name from that address, of the address, and toward the account's backoff
    /// (`AccessRules.lockedUntil(pair:address:account:now:)`); while locked, the password is
    /// not even checked. A name with no account costs the same bcrypt check as one with.
    public func logIn(name: String, password: String, address: String, now: UTCTime) throws -> WebSession {
        let (row, refusal) = try checkPassword(name: name, password: password, address: address, now: now)
        guard let row, refusal == nil else { throw refusal ?? LoginRefusal.wrongNameOrPassword }
        let token = SHA256.randomToken(), csrf = SHA256.randomToken()
        let account = row.account
        let key = try Self.sha256(token)
        try write { db in
            // This address's failures for the name; a stranger's elsewhere still count.
            typealias F = LoginFailureRecord.CodingKeys
            try LoginFailureRecord.filter(F.name == account.name && F.address == address).deleteAll(db)
            try WebSessionRecord(tokenSha256: key, accountID: account.id, csrf: csrf, createdAtNs: now.nanosecondsSinceEpoch,
                                 lastSeenNs: now.nanosecondsSinceEpoch).insert(db)
        }
        return WebSession(token: token, csrf: csrf, account: account)
    }

    /// The session a cookie's token opens at `now`, marked as used; nil when unknown or
    /// idle for 30 days (then it is removed).
    public func session(token: String, now: UTCTime) throws(StoreError) -> WebSession? {
        let key = try Self.sha256(token)
        let found = try read { db -> (WebSessionRecord, AccountRecord)? in
            guard let session = try WebSessionRecord.fetchOne(db, key: key),
                  let account = try AccountRecord.fetchOne(db, key: session.accountID) else { return nil }
            return (session, account)
        }
        guard let (session, account) = found else { return nil }
        let lastSeen = session.lastSeenNs
        guard AccessRules.sessionIsLive(lastSeen: lastSeen / 1_000_000_000, now: now.nanosecondsSinceEpoch / 1_000_000_000) else {
            try write { db in _ = try WebSessionRecord.deleteOne(db, key: key) }
            return nil
        }
        if AccessRules.sessionNeedsTouch(lastSeen: lastSeen, now: now.nanosecondsSinceEpoch) {
            try write { db in _ = try WebSessionRecord.filter(key: key).updateAll(db, S.lastSeenNs.set(to: now.nanosecondsSinceEpoch)) }
        }
        return WebSession(token: token, csrf: session.csrf, account: account.account)
    }

    /// Changes a password after checking the current one, which counts toward the lockout
    /// as a login does (from `address`); every session of the account ends.
    public func changePassword(name: String, current: String, new secret: String, address: String, now: UTCTime,
                               cost: UInt8 = PasswordHash.cost) throws(StoreError) {
        _ = try passwordHash(of: name)
        let refusal: LoginRefusal?
        do { refusal = try checkPassword(name: name, password: current, address: address, now: now).refusal } catch {
            throw .failed(path: path, reason: "\(error)")
        }
        switch refusal {
        case .lockedOut(let until)?: throw .refused("too many wrong passwords: try again after \(until.iso8601)")
        case .wrongNameOrPassword?: throw .refused("the current password is wrong")
        case nil: try setPassword(name: name, password: secret, cost: cost)
        }
    }

    /// The lockout's check, then the password's: the account when it is right, else why
    /// not (a failure is recorded for the name from `address`).
    func checkPassword(name: String, password: String, address: String, now: UTCTime) throws -> (row: AccountRecord?, refusal: LoginRefusal?) {
        let seconds = now.nanosecondsSinceEpoch / 1_000_000_000
        typealias F = LoginFailureRecord.CodingKeys
        let (pair, byAddress, byName, row): ([Int64], [Int64], [Int64], AccountRecord?) = try read { db in
            let recent = LoginFailureRecord.filter(F.atNs > (seconds - 2 * AccessRules.lockoutSeconds) * 1_000_000_000)
            let secondsOf = { (r: LoginFailureRecord) in r.atNs / 1_000_000_000 }
            return (try recent.filter(F.name == name && F.address == address).fetchAll(db).map(secondsOf),
                    try recent.filter(F.address == address).fetchAll(db).map(secondsOf),
                    try recent.filter(F.name == name).fetchAll(db).map(secondsOf),
                    try AccountRecord.filter(A.name == name).fetchOne(db))
        }
        if let until = AccessRules.lockedUntil(pair: pair, address: byAddress, account: byName, now: seconds) {
            return (nil, .lockedOut(until: UTCTime(wholeSeconds: until)))
        }
        guard PasswordHash.verify(password, hash: row?.passwordHash ?? PasswordHash.unknownAccount), let row else {
            try write { db in try LoginFailureRecord(name: name, address: address, atNs: now.nanosecondsSinceEpoch).insert(db) }
            return (nil, .wrongNameOrPassword)
        }
        return (row, nil)
    }

    /// Sets an account's theme and font size.
    @discardableResult
    public func setAppearance(name: String, theme: Theme, fontSize: FontSize) throws(StoreError) -> Account {
        try write { db in
            var account = try Self.accountRow(name, db)
            (account.theme, account.fontSize) = (theme.rawValue, fontSize.rawValue)
            try account.update(db)
            return account.account
        }
    }

    /// Ends every session of an account (log out everywhere); how many there were.
    @discardableResult
    public func endSessions(ofAccount name: String) throws(StoreError) -> Int {
        try write { db in
            let account = try Self.accountRow(name, db)
            return try WebSessionRecord.filter(S.accountID == account.id).deleteAll(db)
        }
    }

    /// Ends a session.
    public func logOut(token: String) throws(StoreError) {
        let key = try Self.sha256(token)
        try write { db in _ = try WebSessionRecord.deleteOne(db, key: key) }
    }

    /// The stored hash of an account's password (for checks that it is bcrypt).
    public func passwordHash(of name: String) throws(StoreError) -> String {
        try read { db in try Self.accountRow(name, db).passwordHash }
    }
}
