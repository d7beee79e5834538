import Foundation
import GRDB
import MarkTimeAccounts
import MarkTimeCore
import MarkTimeSystem

extension AppDatabase: AccountRepository {
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

    public func insertAccount(name: String, passwordHash: String, role: Role, at time: UTCTime) throws(StoreError) -> Account {
        try write { db in try Self.insertAccount(db, name: name, hash: passwordHash, role: role, now: time) }
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

    // MARK: The repository of `Logins`

    public func account(named name: String) throws(StoreError) -> (account: Account, passwordHash: String)? {
        try read { db in try AccountRecord.filter(A.name == name).fetchOne(db).map { ($0.account, $0.passwordHash) } }
    }

    public func failedLogins(name: String, address: String, since seconds: Int64) throws(StoreError) -> (pair: [Int64], address: [Int64], name: [Int64]) {
        typealias F = LoginFailureRecord.CodingKeys
        return try read { db in
            let recent = LoginFailureRecord.filter(F.atNs > seconds * 1_000_000_000)
            let secondsOf = { (r: LoginFailureRecord) in r.atNs / 1_000_000_000 }
            return (try recent.filter(F.name == name && F.address == address).fetchAll(db).map(secondsOf),
                    try recent.filter(F.address == address).fetchAll(db).map(secondsOf),
                    try recent.filter(F.name == name).fetchAll(db).map(secondsOf))
        }
    }

    public func recordFailedLogin(name: String, address: String, at time: UTCTime) throws(StoreError) {
        try write { db in try LoginFailureRecord(name: name, address: address, atNs: time.nanosecondsSinceEpoch).insert(db) }
    }

    public func openSession(token: String, csrf: String, account: Account, address: String, at time: UTCTime) throws(StoreError) {
        let key = try Self.sha256(token)
        try write { db in
            // This address's failures for the name; a stranger's elsewhere still count.
            typealias F = LoginFailureRecord.CodingKeys
            try LoginFailureRecord.filter(F.name == account.name && F.address == address).deleteAll(db)
            try WebSessionRecord(tokenSha256: key, accountID: account.id, csrf: csrf, createdAtNs: time.nanosecondsSinceEpoch,
                                 lastSeenNs: time.nanosecondsSinceEpoch).insert(db)
        }
    }

    public func session(token: String) throws(StoreError) -> (csrf: String, lastSeen: UTCTime, account: Account)? {
        let key = try Self.sha256(token)
        return try read { db in
            guard let session = try WebSessionRecord.fetchOne(db, key: key),
                  let account = try AccountRecord.fetchOne(db, key: session.accountID) else { return nil }
            return (session.csrf, UTCTime(nanosecondsSinceEpoch: session.lastSeenNs), account.account)
        }
    }

    public func touchSession(token: String, at time: UTCTime) throws(StoreError) {
        let key = try Self.sha256(token)
        try write { db in _ = try WebSessionRecord.filter(key: key).updateAll(db, S.lastSeenNs.set(to: time.nanosecondsSinceEpoch)) }
    }

    public func endSession(token: String) throws(StoreError) {
        try logOut(token: token)
    }

    public func addInvite(code: String, role: Role, by creator: String?, at time: UTCTime, expires: UTCTime) throws(StoreError) {
        let key = try Self.sha256(code)
        try write { db in
            try InviteRecord(codeSha256: key, createdAtNs: time.nanosecondsSinceEpoch, expiresNs: expires.nanosecondsSinceEpoch,
                             createdBy: creator, role: role.rawValue).insert(db)
        }
    }

    /// The invites of `code` not used and not expired at `time`.
    static func usableInvite(_ code: String, at time: UTCTime) throws(StoreError) -> QueryInterfaceRequest<InviteRecord> {
        typealias I = InviteRecord.CodingKeys
        return InviteRecord.filter(key: try sha256(code)).filter(I.usedAtNs == nil && I.expiresNs > time.nanosecondsSinceEpoch)
    }

    public func inviteIsUsable(code: String, at time: UTCTime) throws(StoreError) -> Bool {
        let usable = try Self.usableInvite(code, at: time)
        return try read { db in try usable.fetchCount(db) } == 1
    }

    public func redeemInvite(code: String, at time: UTCTime, name: String, passwordHash: String) throws(StoreError) -> Account? {
        typealias I = InviteRecord.CodingKeys
        let usable = try Self.usableInvite(code, at: time)
        return try write { db in
            guard let invite = try usable.fetchOne(db), try usable.updateAll(db, I.usedAtNs.set(to: time.nanosecondsSinceEpoch)) == 1 else { return nil }
            return try Self.insertAccount(db, name: name, hash: passwordHash, role: Role(rawValue: invite.role) ?? .family, now: time)
        }
    }

    public func setPasswordHash(name: String, hash: String) throws(StoreError) {
        try write { db in
            var account = try Self.accountRow(name, db)
            account.passwordHash = hash
            try account.update(db)
            try WebSessionRecord.filter(S.accountID == account.id).deleteAll(db)
        }
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
