import MarkTimeAccounts
import MarkTimeCore
import Synchronization
import Testing

/// An in-memory `AccountRepository`: the rules tested apart from SQLite (the store's own
/// tests run the same rules on it).
final class MemoryAccounts: AccountRepository {
    struct State {
        var accounts: [String: (account: Account, hash: String)] = [:]
        var failures: [(name: String, address: String, seconds: Int64)] = []
        var sessions: [String: (csrf: String, lastSeen: UTCTime, name: String)] = [:]
        var invites: [String: (role: Role, expires: UTCTime, used: Bool)] = [:]
        var touches = 0
    }

    let state = Mutex(State())

    func add(_ name: String, password: String, role: Role = .crew) {
        let account = Account(id: Int64(name.count), name: name, role: role, theme: .day, fontSize: .normal, createdAt: UTCTime(wholeSeconds: 0))
        state.withLock { $0.accounts[name] = (account, PasswordHash.hash(password, cost: 4)) }
    }

    func account(named name: String) -> (account: Account, passwordHash: String)? {
        state.withLock { $0.accounts[name].map { ($0.account, $0.hash) } }
    }

    func failedLogins(name: String, address: String, since seconds: Int64) -> (pair: [Int64], address: [Int64], name: [Int64]) {
        state.withLock { s in
            let recent = s.failures.filter { $0.seconds > seconds }
            return (recent.filter { $0.name == name && $0.address == address }.map(\.seconds), recent.filter { $0.address == address }.map(\.seconds),
                    recent.filter { $0.name == name }.map(\.seconds))
        }
    }

    func recordFailedLogin(name: String, address: String, at time: UTCTime) {
        state.withLock { $0.failures.append((name, address, time.wholeSeconds)) }
    }

    func openSession(token: String, csrf: String, account: Account, address: String, at time: UTCTime) {
        state.withLock { s in
            s.failures.removeAll { $0.name == account.name && $0.address == address }
            s.sessions[token] = (csrf, time, account.name)
        }
    }

    func session(token: String) -> (csrf: String, lastSeen: UTCTime, account: Account)? {
        state.withLock { s in s.sessions[token].flatMap { found in s.accounts[found.name].map { (found.csrf, found.lastSeen, $0.account) } } }
    }

    func touchSession(token: String, at time: UTCTime) {
        state.withLock { s in
            s.sessions[token]?.lastSeen = time
            s.touches += 1
        }
    }

    func endSession(token: String) { state.withLock { _ = $0.sessions.removeValue(forKey: token) } }

    func addInvite(code: String, role: Role, by creator: String?, at time: UTCTime, expires: UTCTime) {
        state.withLock { $0.invites[code] = (role, expires, false) }
    }

    func inviteIsUsable(code: String, at time: UTCTime) -> Bool {
        state.withLock { s in s.invites[code].map { !$0.used && $0.expires > time } ?? false }
    }

    func insertAccount(name: String, passwordHash: String, role: Role, at time: UTCTime) throws -> Account {
        try state.withLock { s throws(InputError) in
            guard s.accounts[name] == nil else { throw InputError("there is already an account named '\(name)'") }
            let account = Account(id: Int64(s.accounts.count + 1), name: name, role: role, theme: .day, fontSize: .normal, createdAt: time)
            s.accounts[name] = (account, passwordHash)
            return account
        }
    }

    func redeemInvite(code: String, at time: UTCTime, name: String, passwordHash: String) -> Account? {
        state.withLock { s in
            guard let invite = s.invites[code], !invite.used, invite.expires > time else { return nil }
            s.invites[code]?.used = true
            let account = Account(id: Int64(s.accounts.count + 1), name: name, role: invite.role, theme: .day, fontSize: .normal, createdAt: time)
            s.accounts[name] = (account, passwordHash)
            return account
        }
    }

    func setPasswordHash(name: String, hash: String) {
        state.withLock { s in
            s.accounts[name]?.hash = hash
            s.sessions = s.sessions.filter { $0.value.name != name }
        }
    }
}

@Suite("The login, session and invite rules, over any repository")
struct LoginsTests {
    let t0 = UTCTime(wholeSeconds: 1_790_000_000)

    func at(minutes: Int64) -> UTCTime { t0.adding(nanoseconds: minutes * 60_000_000_000) }

    @Test func theSixthTryAfterFiveWrongPasswordsIsLockedOutFifteenMinutesAfterTheFifth() throws {
        // Given an account and five wrong passwords from one address, a minute apart
        let repository = MemoryAccounts()
        repository.add("skipper", password: "correct horse")
        let logins = Logins(repository, cost: 4)
        for i in 0..<5 {
            #expect(throws: LoginRefusal.wrongNameOrPassword) {
                try logins.logIn(name: "skipper", password: "guess \(i)", address: "10.0.0.66", now: at(minutes: Int64(i)))
            }
        }
        // When the right password comes from there at minute 5
        // Then it is refused until minute 19, and from another address it is taken
        #expect(throws: LoginRefusal.lockedOut(until: at(minutes: 19))) {
            try logins.logIn(name: "skipper", password: "correct horse", address: "10.0.0.66", now: at(minutes: 5))
        }
        #expect(try logins.logIn(name: "skipper", password: "correct horse", address: "10.0.0.7", now: at(minutes: 5)).account.name == "skipper")
    }

    @Test func aSessionIsTouchedAtMostOnceAMinuteAndEndsAfterThirtyIdleDays() throws {
        // Given a session opened at t0
        let repository = MemoryAccounts()
        repository.add("skipper", password: "correct horse")
        let logins = Logins(repository, cost: 4)
        let session = try logins.logIn(name: "skipper", password: "correct horse", address: "a", now: t0)
        // When it is used after 30 s, after 2 minutes, then 30 days after that
        _ = try logins.session(token: session.token, now: t0.adding(nanoseconds: 30_000_000_000))
        _ = try logins.session(token: session.token, now: at(minutes: 2))
        let late = try logins.session(token: session.token, now: at(minutes: 2 + 30 * 1440))
        // Then only the use after 2 minutes wrote, and the idle session is gone
        #expect(repository.state.withLock { $0.touches } == 1)
        #expect(late == nil)
        #expect(repository.state.withLock { $0.sessions.isEmpty })
    }

    @Test func anInviteMakesOneAccountOfItsRole() throws {
        // Given a family invite
        let repository = MemoryAccounts()
        let logins = Logins(repository, cost: 4)
        let (code, expires) = try logins.createInvite(by: "skipper", role: .family, now: t0)
        // When it is redeemed twice
        let account = try logins.redeemInvite(" \(code) ", name: "grandma", password: "battery staple", now: at(minutes: 1))
        // Then the first makes a family account, 24 hours valid; the second is refused
        #expect(account.role == .family)
        #expect(expires == at(minutes: 1440))
        #expect(throws: InputError("that invite code is unknown, used or more than 24 hours old: ask for a new one (`marktime user invite`)")) {
            try logins.redeemInvite(code, name: "deck", password: "battery staple", now: at(minutes: 2))
        }
    }

    @Test("A token is 32 random bytes as 64 lowercase hex digits, and two are not the same")
    func systemTokens() {
        let a = Logins<MemoryAccounts>.systemToken(), b = Logins<MemoryAccounts>.systemToken()
        #expect(a.count == 64)
        #expect(a.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(a != b)
    }

    @Test func aSessionsTokensAndAnInvitesCodeComeFromTheGeneratorGiven() throws {
        // Given the rules with a generator of numbered tokens
        let repository = MemoryAccounts()
        repository.add("skipper", password: "correct horse")
        let counter = Mutex(0)
        let logins = Logins(repository, cost: 4) { counter.withLock { n in n += 1; return String(repeating: "\(n)", count: 20) } }
        // When a session is opened and an invite made
        let session = try logins.logIn(name: "skipper", password: "correct horse", address: "a", now: t0)
        let (code, _) = try logins.createInvite(by: "skipper", now: t0)
        // Then the token, the CSRF token and the code (its first 16 characters) are the generator's, in turn
        #expect(session.token == String(repeating: "1", count: 20))
        #expect(session.csrf == String(repeating: "2", count: 20))
        #expect(code == String(repeating: "3", count: 16))
    }

    @Test func aPasswordChangeWithTheWrongCurrentOneIsRefusedAndCounted() throws {
        // Given an account
        let repository = MemoryAccounts()
        repository.add("skipper", password: "correct horse")
        let logins = Logins(repository, cost: 4)
        // When the current password given is wrong
        #expect(throws: InputError("the current password is wrong")) {
            try logins.changePassword(name: "skipper", current: "wrong horse", new: "battery staple", address: "a", now: t0)
        }
        // Then the failure is recorded toward the lockout
        #expect(repository.state.withLock { $0.failures.map(\.name) } == ["skipper"])
    }

    @Test func anAccountKeepsOnlyItsPasswordsBcryptHash() throws {
        // When an account is added
        let repository = MemoryAccounts()
        let account = try Logins(repository, cost: 4).addAccount(name: "mate", password: "battery staple", role: .crew, now: t0)
        // Then the repository holds a hash the password verifies, not the password
        let kept = try #require(repository.account(named: "mate"))
        #expect(account.role == .crew)
        #expect(kept.passwordHash != "battery staple")
        #expect(PasswordHash.verify("battery staple", hash: kept.passwordHash))
    }

    @Test func aPasswordTheRulesRefuseNeverReachesTheRepository() {
        // When an account is added, and a password set, with a password of five letters
        let repository = MemoryAccounts()
        repository.add("skipper", password: "correct horse")
        let logins = Logins(repository, cost: 4)
        #expect(throws: InputError.self) { try logins.addAccount(name: "mate", password: "short", role: .crew, now: t0) }
        #expect(throws: InputError.self) { try logins.setPassword(name: "skipper", password: "short") }
        // Then there is no new account, and the old password still opens the old one
        #expect(repository.account(named: "mate") == nil)
        #expect(PasswordHash.verify("correct horse", hash: repository.account(named: "skipper")?.passwordHash ?? ""))
    }
}
