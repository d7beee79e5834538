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

    static func account(_ row: Row) -> Account {
        Account(id: row["id"], name: row["name"], admin: row["admin"], theme: Theme(rawValue: row["theme"]) ?? .day,
                fontSize: FontSize(rawValue: row["font_size"]) ?? .normal,
                createdAt: UTCTime(nanosecondsSinceEpoch: row["created_at_ns"]))
    }

    static func accountRow(_ name: String, _ db: Database) throws -> Row {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM account WHERE name = ?", arguments: [name]) else {
            let names = try String.fetchAll(db, sql: "SELECT name FROM account ORDER BY name")
            throw StoreError.refused("no account named '\(Text.escaped(name))'"
                + (names.isEmpty ? "; there are none yet: `marktime user add NAME`" : "; the accounts: \(names.joined(separator: ", "))"))
        }
        return row
    }

    /// Adds an account with a bcrypt hash of `password`.
    @discardableResult
    public func addAccount(name text: String, password secret: String, admin: Bool, now: UTCTime,
                           cost: UInt8 = PasswordHash.cost) throws(StoreError) -> Account {
        let name: String, password: String
        do {
            (name, password) = (try AccessRules.accountName(text), try AccessRules.password(secret))
        } catch { throw .refused(error.description) }
        let hash = PasswordHash.hash(password, cost: cost)
        return try write { db in
            if let other = try String.fetchOne(db, sql: "SELECT name FROM account WHERE name = ?", arguments: [name]) {
                throw StoreError.refused("there is already an account named '\(other)'; choose another name")
            }
            try db.execute(sql: "INSERT INTO account (name, password_hash, admin, created_at_ns) VALUES (?, ?, ?, ?)",
                           arguments: [name, hash, admin, now.nanosecondsSinceEpoch])
            return Self.account(try Self.accountRow(name, db))
        }
    }

    /// Every account, by name.
    public func accounts() throws(StoreError) -> [Account] {
        try read { db in try Row.fetchAll(db, sql: "SELECT * FROM account ORDER BY name").map(Self.account) }
    }

    /// Removes an account and ends its sessions.
    public func removeAccount(named name: String) throws(StoreError) {
        try write { db in
            let row = try Self.accountRow(name, db)
            try db.execute(sql: "DELETE FROM account WHERE id = ?", arguments: [row["id"] as Int64])
        }
    }

    /// Sets a new password; every session of the account ends.
    public func setPassword(name: String, password secret: String, cost: UInt8 = PasswordHash.cost) throws(StoreError) {
        let password: String
        do { password = try AccessRules.password(secret) } catch { throw .refused(error.description) }
        let hash = PasswordHash.hash(password, cost: cost)
        try write { db in
            let id: Int64 = try Self.accountRow(name, db)["id"]
            try db.execute(sql: "UPDATE account SET password_hash = ? WHERE id = ?", arguments: [hash, id])
            try db.execute(sql: "DELETE FROM web_session WHERE account_id = ?", arguments: [id])
        }
    }

    /// A one-time invite code, good for `AccessRules.inviteSeconds`.
    public func createInvite(by creator: String?, now: UTCTime) throws(StoreError) -> (code: String, expires: UTCTime) {
        let code = String(SHA256.randomToken().prefix(16))
        let expires = now.adding(nanoseconds: AccessRules.inviteSeconds * 1_000_000_000)
        try write { db in
            try db.execute(sql: "INSERT INTO invite (code_sha256, created_by, created_at_ns, expires_ns) VALUES (?, ?, ?, ?)",
                           arguments: [Self.sha256(code), creator, now.nanosecondsSinceEpoch, expires.nanosecondsSinceEpoch])
        }
        return (code, expires)
    }

    /// Creates an account with an invite code, which is then used up.
    @discardableResult
    public func redeemInvite(_ code: String, name: String, password: String, now: UTCTime,
                             cost: UInt8 = PasswordHash.cost) throws(StoreError) -> Account {
        let valid: Bool = try read { db in
            try Bool.fetchOne(db, sql: "SELECT used_at_ns IS NULL AND expires_ns > ? FROM invite WHERE code_sha256 = ?",
                              arguments: [now.nanosecondsSinceEpoch, Self.sha256(code.trimmingWhitespace())]) ?? false
        }
        guard valid else { throw .refused("that invite code is unknown, used or more than 24 hours old: ask for a new one (`marktime user invite`)") }
        let account = try addAccount(name: name, password: password, admin: false, now: now, cost: cost)
        try write { db in
            try db.execute(sql: "UPDATE invite SET used_at_ns = ? WHERE code_sha256 = ?",
                           arguments: [now.nanosecondsSinceEpoch, Self.sha256(code.trimmingWhitespace())])
        }
        return account
    }

    /// Checks a login; on success opens a session. Failures count toward the lockout of
    /// both the name and the address; while locked, the password is not even checked.
    public func logIn(name: String, password: String, address: String, now: UTCTime) throws -> WebSession {
        let seconds = now.nanosecondsSinceEpoch / 1_000_000_000
        let (byName, byAddress, row): ([Int64], [Int64], Row?) = try read { db in
            let since = (seconds - 2 * AccessRules.lockoutSeconds) * 1_000_000_000
            return (try Int64.fetchAll(db, sql: "SELECT at_ns / 1000000000 FROM login_failure WHERE name = ? AND at_ns > ?", arguments: [name, since]),
                    try Int64.fetchAll(db, sql: "SELECT at_ns / 1000000000 FROM login_failure WHERE address = ? AND at_ns > ?", arguments: [address, since]),
                    try Row.fetchOne(db, sql: "SELECT * FROM account WHERE name = ?", arguments: [name]))
        }
        let locked = [AccessRules.lockedUntil(failures: byName, now: seconds), AccessRules.lockedUntil(failures: byAddress, now: seconds)].compactMap { $0 }
        if let until = locked.max() { throw LoginRefusal.lockedOut(until: UTCTime(wholeSeconds: until)) }
        guard let row, PasswordHash.verify(password, hash: row["password_hash"]) else {
            try write { db in
                try db.execute(sql: "INSERT INTO login_failure (name, address, at_ns) VALUES (?, ?, ?)",
                               arguments: [name, address, now.nanosecondsSinceEpoch])
            }
            throw LoginRefusal.wrongNameOrPassword
        }
        let token = SHA256.randomToken(), csrf = SHA256.randomToken()
        let account = Self.account(row)
        try write { db in
            try db.execute(sql: "DELETE FROM login_failure WHERE name = ?", arguments: [account.name])
            try db.execute(sql: "INSERT INTO web_session (token_sha256, account_id, csrf, created_at_ns, last_seen_ns) VALUES (?, ?, ?, ?, ?)",
                           arguments: [Self.sha256(token), account.id, csrf, now.nanosecondsSinceEpoch, now.nanosecondsSinceEpoch])
        }
        return WebSession(token: token, csrf: csrf, account: account)
    }

    /// The session a cookie's token opens at `now`, marked as used; nil when unknown or
    /// idle for 30 days (then it is removed).
    public func session(token: String, now: UTCTime) throws(StoreError) -> WebSession? {
        let key = try Self.sha256(token)
        let found = try read { db in
            try Row.fetchOne(db, sql: """
                SELECT s.csrf, s.last_seen_ns, a.* FROM web_session s JOIN account a ON a.id = s.account_id WHERE s.token_sha256 = ?
                """, arguments: [key])
        }
        guard let row = found else { return nil }
        let lastSeen: Int64 = row["last_seen_ns"]
        guard AccessRules.sessionIsLive(lastSeen: lastSeen / 1_000_000_000, now: now.nanosecondsSinceEpoch / 1_000_000_000) else {
            try write { db in try db.execute(sql: "DELETE FROM web_session WHERE token_sha256 = ?", arguments: [key]) }
            return nil
        }
        // Mark it used at most once a minute: a page's requests need not each write.
        if now.nanosecondsSinceEpoch - lastSeen > 60_000_000_000 {
            try write { db in
                try db.execute(sql: "UPDATE web_session SET last_seen_ns = ? WHERE token_sha256 = ?", arguments: [now.nanosecondsSinceEpoch, key])
            }
        }
        return WebSession(token: token, csrf: row["csrf"], account: Self.account(row))
    }

    /// Changes a password after checking the current one; every session of the account ends.
    public func changePassword(name: String, current: String, new secret: String, cost: UInt8 = PasswordHash.cost) throws(StoreError) {
        let hash = try passwordHash(of: name)
        guard PasswordHash.verify(current, hash: hash) else { throw .refused("the current password is wrong") }
        try setPassword(name: name, password: secret, cost: cost)
    }

    /// Sets an account's theme and font size.
    @discardableResult
    public func setAppearance(name: String, theme: Theme, fontSize: FontSize) throws(StoreError) -> Account {
        try write { db in
            let id: Int64 = try Self.accountRow(name, db)["id"]
            try db.execute(sql: "UPDATE account SET theme = ?, font_size = ? WHERE id = ?", arguments: [theme.rawValue, fontSize.rawValue, id])
            return Self.account(try Self.accountRow(name, db))
        }
    }

    /// Ends a session.
    public func logOut(token: String) throws(StoreError) {
        try write { db in try db.execute(sql: "DELETE FROM web_session WHERE token_sha256 = ?", arguments: [Self.sha256(token)]) }
    }

    /// The stored hash of an account's password (for checks that it is bcrypt).
    public func passwordHash(of name: String) throws(StoreError) -> String {
        try read { db in try Self.accountRow(name, db)["password_hash"] }
    }
}
