import Foundation
import MarkTimeAccounts
import MarkTimeCore
import MarkTimeStore
import Synchronization
import Testing

@Suite("Accounts, sessions and the lockout")
struct AccountTests {
    let folder = TemporaryFolder()
    let db: AppDatabase
    let t0 = UTCTime(year: 2026, month: 11, day: 22, hour: 9)!

    init() throws { db = try AppDatabase(path: folder.store, createDirectory: false) }

    /// What a refused store operation says.
    func refusal(_ body: () throws -> Void) -> String? {
        do { try body(); return nil } catch { return "\(error)" }
    }

    /// The account rules over this store, with a cheap hash.
    var logins: Logins<AppDatabase> { Logins(db, cost: 4) }

    func at(minutes: Int64) -> UTCTime { t0.adding(nanoseconds: minutes * 60 * second) }

    /// An account with a cheap hash, so the tests stay quick.
    func add(_ name: String = "skipper", _ password: String = "correct horse") throws {
        try logins.addAccount(name: name, password: password, role: .crew, now: t0)
    }

    @Test func theStoreKeepsOnlyABcryptHashAtTheDefaultCost() throws {
        // Given an account added at the default cost
        try Logins(db).addAccount(name: "skipper", password: "correct horse", role: .admin, now: t0)
        // Then the store holds a bcrypt hash of cost 12, never the password
        let hash = try db.passwordHash(of: "skipper")
        #expect(hash.hasPrefix("$2b$12$"))
        #expect(PasswordHash.isBcrypt(hash))
        #expect(!hash.contains("correct horse"))
    }

    @Test func theRightPasswordOpensASessionThatLaterRequestsFind() throws {
        try add()
        // When skipper logs in (in any case)
        let session = try logins.logIn(name: "SKIPPER", password: "correct horse", address: "10.0.0.2", now: t0)
        // Then the session's token finds the account, with its own CSRF token
        let found = try #require(try logins.session(token: session.token, now: at(minutes: 5)))
        #expect(found.account.name == "skipper")
        #expect(found.csrf == session.csrf)
        #expect(session.token.count == 64)
        #expect(session.csrf != session.token)
    }

    @Test func aWrongPasswordSaysNeitherWhichPartWasWrong() throws {
        try add()
        #expect(throws: LoginRefusal.wrongNameOrPassword) {
            try logins.logIn(name: "skipper", password: "wrong horse", address: "10.0.0.2", now: t0)
        }
        #expect(throws: LoginRefusal.wrongNameOrPassword) {
            try logins.logIn(name: "nobody", password: "correct horse", address: "10.0.0.2", now: t0)
        }
    }

    @Test func fiveFailuresFromOtherAddressesDoNotLockTheOwnerOut() throws {
        // Given five wrong passwords for skipper within 15 minutes, each from another address
        try add()
        for i in 0..<5 {
            #expect(throws: LoginRefusal.wrongNameOrPassword) {
                try logins.logIn(name: "skipper", password: "guess \(i)xx", address: "10.0.0.\(i)", now: at(minutes: Int64(i)))
            }
        }
        // Then the owner's right password from their own address works at once
        #expect(try logins.logIn(name: "skipper", password: "correct horse", address: "10.0.0.9", now: at(minutes: 5)).account.name == "skipper")
    }

    @Test func fiveFailuresForANameFromOneAddressLockThatNameThere() throws {
        // Given five wrong passwords for skipper from one address within 15 minutes
        try add()
        for i in 0..<5 {
            #expect(throws: LoginRefusal.wrongNameOrPassword) {
                try logins.logIn(name: "skipper", password: "guess \(i)xx", address: "10.0.0.66", now: at(minutes: Int64(i)))
            }
        }
        // Then from there even the right password is refused until 15 minutes after the fifth
        #expect(throws: LoginRefusal.lockedOut(until: at(minutes: 19))) {
            try logins.logIn(name: "skipper", password: "correct horse", address: "10.0.0.66", now: at(minutes: 5))
        }
        #expect(try logins.logIn(name: "skipper", password: "correct horse", address: "10.0.0.66", now: at(minutes: 19)).account.name == "skipper")
        // while another address logs in meanwhile
        #expect(try logins.logIn(name: "skipper", password: "correct horse", address: "10.0.0.7", now: at(minutes: 6)).account.name == "skipper")
    }

    @Test func tenFailuresFromOneAddressLockThatAddressForEveryName() throws {
        try add()
        try add("crew", "battery staple")
        for i in 0..<10 {
            _ = try? logins.logIn(name: "name\(i)", password: "whatever1", address: "10.0.0.66", now: at(minutes: Int64(i)))
        }
        #expect(throws: LoginRefusal.lockedOut(until: at(minutes: 24))) {
            try logins.logIn(name: "crew", password: "battery staple", address: "10.0.0.66", now: at(minutes: 10))
        }
        // while crew logs in from elsewhere
        #expect(try logins.logIn(name: "crew", password: "battery staple", address: "10.0.0.7", now: at(minutes: 10)).account.name == "crew")
    }

    @Test func tenFailuresForAnAccountSlowEachAddressThatFailedToOneTryAMinute() throws {
        // Given ten wrong passwords for skipper from ten addresses, one a minute
        try add()
        for i in 0..<10 {
            _ = try? logins.logIn(name: "skipper", password: "guess \(i)xx", address: "10.0.1.\(i)", now: at(minutes: Int64(i)))
        }
        // Then the address that failed a moment ago waits a minute from its failure
        #expect(throws: LoginRefusal.lockedOut(until: at(minutes: 10))) {
            try logins.logIn(name: "skipper", password: "correct horse", address: "10.0.1.9", now: at(minutes: 9).adding(nanoseconds: 30_000_000_000))
        }
        // and one that failed earlier, or never, may try
        #expect(try logins.logIn(name: "skipper", password: "correct horse", address: "10.0.1.3", now: at(minutes: 10)).account.name == "skipper")
        #expect(try logins.logIn(name: "skipper", password: "correct horse", address: "10.0.2.1", now: at(minutes: 10)).account.name == "skipper")
    }

    @Test func aNameWithNoAccountIsCheckedAgainstAHashOfTheRealCost() {
        // (so it takes as long as a name with an account; a stored hash is cost 12)
        let hash = PasswordHash.unknownAccount
        #expect(PasswordHash.isBcrypt(hash))
        #expect(hash.split(separator: "$")[1] == "\(PasswordHash.cost)")
        #expect(!PasswordHash.verify("correct horse", hash: hash))
    }

    @Test func wrongCurrentPasswordsOnTheSettingsPageCountTowardTheLockout() throws {
        // Given five wrong current passwords from one address
        try add()
        for i in 0..<5 {
            #expect(refusal {
                try logins.changePassword(name: "skipper", current: "guess \(i)xx", new: "battery staple", address: "10.0.0.5",
                                          now: at(minutes: Int64(i)))
            } == "the current password is wrong")
        }
        // Then the sixth is refused even when right, and a login from there too
        #expect(refusal {
            try logins.changePassword(name: "skipper", current: "correct horse", new: "battery staple", address: "10.0.0.5", now: at(minutes: 5))
        } == "too many wrong passwords: try again after \(at(minutes: 19).iso8601)")
        #expect(throws: LoginRefusal.lockedOut(until: at(minutes: 19))) {
            try logins.logIn(name: "skipper", password: "correct horse", address: "10.0.0.5", now: at(minutes: 5))
        }
    }

    @Test func aSessionUnusedFor30DaysIsOver() throws {
        try add()
        let session = try logins.logIn(name: "skipper", password: "correct horse", address: "a", now: t0)
        #expect(try logins.session(token: session.token, now: at(minutes: 29 * 1440)) != nil)
        // used on day 29, so it lasts to day 59
        #expect(try logins.session(token: session.token, now: at(minutes: 58 * 1440)) != nil)
        #expect(try logins.session(token: session.token, now: at(minutes: 89 * 1440)) == nil)
        #expect(try logins.session(token: session.token, now: at(minutes: 89 * 1440 - 1)) == nil)
    }

    @Test func sessionsSurviveReopeningTheStore() throws {
        try add()
        let session = try logins.logIn(name: "skipper", password: "correct horse", address: "a", now: t0)
        let reopened = try AppDatabase(path: folder.store, createDirectory: false)
        #expect(try Logins(reopened).session(token: session.token, now: at(minutes: 1))?.account.name == "skipper")
    }

    @Test func logOutAndANewPasswordEndSessions() throws {
        try add()
        let first = try logins.logIn(name: "skipper", password: "correct horse", address: "a", now: t0)
        let second = try logins.logIn(name: "skipper", password: "correct horse", address: "a", now: t0)
        try db.logOut(token: first.token)
        #expect(try logins.session(token: first.token, now: t0) == nil)
        #expect(try logins.session(token: second.token, now: t0) != nil)
        try logins.setPassword(name: "skipper", password: "new battery")
        #expect(try logins.session(token: second.token, now: t0) == nil)
        #expect(try logins.logIn(name: "skipper", password: "new battery", address: "a", now: t0).account.name == "skipper")
    }

    @Test func anInviteMakesOneAccountWithin24Hours() throws {
        // Given an invite made at t0
        let (code, expires) = try logins.createInvite(by: "skipper", now: t0)
        #expect(expires == at(minutes: 1440))
        // When it is redeemed after 23 hours
        try logins.redeemInvite(code, name: "crew", password: "battery staple", now: at(minutes: 23 * 60))
        // Then the account exists, not admin, and the code is used up
        #expect(try db.accounts().map(\.name) == ["crew"])
        #expect(try db.accounts().first?.admin == false)
        #expect(refusal {
            try logins.redeemInvite(code, name: "deck", password: "battery staple", now: at(minutes: 23 * 60))
        } == "that invite code is unknown, used or more than 24 hours old: ask for a new one (`marktime user invite`)")
    }

    @Test("One invite code used by four sign-ups at once makes one account")
    func anInviteIsRedeemedOnceUnderConcurrency() throws {
        // Given an invite, and four connections to the store as the page's requests have
        let (code, _) = try logins.createInvite(by: "skipper", now: t0)
        let stores = try (0..<4).map { _ in try AppDatabase(path: folder.store, createDirectory: false) }
        let made = Mutex(0)
        let now = at(minutes: 1)
        // When four people sign up with it at the same moment
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            if (try? Logins(stores[i], cost: 4).redeemInvite(code, name: "crew\(i)", password: "battery staple", now: now)) != nil {
                made.withLock { $0 += 1 }
            }
        }
        // Then exactly one account was made, and the code is used up
        #expect(made.withLock { $0 } == 1)
        #expect(try db.accounts().count == 1)
    }

    @Test("A sign-up refused for its name leaves the invite usable")
    func aRefusedSignUpKeepsTheInvite() throws {
        // Given an account named crew, and an invite
        try logins.addAccount(name: "crew", password: "battery staple", role: .crew, now: t0)
        let (code, _) = try logins.createInvite(by: "skipper", now: t0)
        // When someone signs up with it as crew, then as deck
        #expect(refusal { try logins.redeemInvite(code, name: "crew", password: "battery staple", now: at(minutes: 1)) }
            == "there is already an account named 'crew'; choose another name")
        try logins.redeemInvite(code, name: "deck", password: "battery staple", now: at(minutes: 2))
        // Then the second is made with the same code
        #expect(try db.accounts().map(\.name) == ["crew", "deck"])
    }

    @Test func anInviteOlderThan24HoursIsRefused() throws {
        let (code, _) = try logins.createInvite(by: nil, now: t0)
        #expect(throws: InputError("that invite code is unknown, used or more than 24 hours old: ask for a new one (`marktime user invite`)")) {
            try logins.redeemInvite(code, name: "crew", password: "battery staple", now: at(minutes: 1440))
        }
        #expect(try db.accounts().isEmpty)
    }

    @Test func badNamesAndPasswordsAreRefusedWithTheRule() throws {
        #expect(refusal {
            try logins.addAccount(name: "crew", password: "short", role: .crew, now: t0)
        } == "the password is 5 characters long: give at least 8")
        #expect(refusal {
            try logins.addAccount(name: "crew", password: String(repeating: "x", count: 73), role: .crew, now: t0)
        } == "the password is 73 bytes long: bcrypt uses at most 72, so give a shorter one")
        #expect(refusal {
            try logins.addAccount(name: "a b", password: "battery staple", role: .crew, now: t0)
        } == "the account name 'a b' may have only letters, digits, '.', '_' and '-', at most 32, e.g. skipper")
        try add()
        #expect(refusal {
            try logins.addAccount(name: "Skipper", password: "battery staple", role: .crew, now: t0)
        } == "there is already an account named 'skipper'; choose another name")
    }

    @Test("An invite makes an account of the role it names; a role can be changed")
    func anInviteCarriesItsRole() throws {
        // Given invites for a family account and for a crew account
        let family = try logins.createInvite(by: "skipper", role: .family, now: t0)
        let crew = try logins.createInvite(by: "skipper", now: t0)
        // When each is redeemed
        try logins.redeemInvite(family.code, name: "grandma", password: "battery staple", now: t0)
        try logins.redeemInvite(crew.code, name: "mate", password: "battery staple", now: t0)
        // Then each account has its invite's role, and a change of role is kept
        #expect(try db.accounts().map { "\($0.name) \($0.role.rawValue)" } == ["grandma family", "mate crew"])
        try db.setRole(name: "grandma", role: .admin)
        #expect(try db.accounts().map { "\($0.name) \($0.admin)" } == ["grandma true", "mate false"])
        #expect(refusal { _ = try db.setRole(name: "nobody", role: .crew) } == "no account named 'nobody'; the accounts: grandma, mate")
    }
}

@Suite("The lockout rule")
struct LockoutRuleTests {
    @Test func thePairsLockTheAddresssLockAndTheAccountsBackoff() {
        let five = [Int64(0), 60, 120, 180, 240], ten = (0..<10).map { Int64($0) * 30 }
        // five for the name from this address lock the pair
        #expect(AccessRules.lockedUntil(pair: five, address: five, account: five, now: 300) == Int64(240 + 900))
        // five for the name from elsewhere do not
        #expect(AccessRules.lockedUntil(pair: [], address: [], account: five, now: 300) == nil)
        // ten from this address for any names lock the address
        #expect(AccessRules.lockedUntil(pair: [], address: ten, account: [], now: 300) == Int64(270 + 900))
        // ten for the account slow an address that failed to one try a minute
        #expect(AccessRules.lockedUntil(pair: [270], address: [270], account: ten, now: 300) == Int64(330))
        #expect(AccessRules.lockedUntil(pair: [200], address: [200], account: ten, now: 300) == nil)
    }

    @Test func aSessionIsMarkedUsedAtMostOnceAMinute() {
        #expect(!AccessRules.sessionNeedsTouch(lastSeen: 0, now: 60_000_000_000))
        #expect(AccessRules.sessionNeedsTouch(lastSeen: 0, now: 60_000_000_001))
    }

    @Test func fourFailuresDoNotLock() {
        #expect(AccessRules.lockedUntil(failures: [0, 60, 120, 180], now: 200) == nil)
    }

    @Test func fiveWithin15MinutesLockFor15MinutesFromTheFifth() {
        #expect(AccessRules.lockedUntil(failures: [0, 60, 120, 180, 240], now: 300) == Int64(240 + 900))
    }

    @Test func fiveSpreadOverMoreThan15MinutesDoNotLock() {
        #expect(AccessRules.lockedUntil(failures: [0, 300, 600, 800, 900], now: 901) == nil)
    }

    @Test func theLockEnds() {
        #expect(AccessRules.lockedUntil(failures: [0, 1, 2, 3, 4], now: 904) == nil)
        #expect(AccessRules.lockedUntil(failures: [0, 1, 2, 3, 4], now: 903) == 904)
    }
}

@Suite("The MARK rate limit")
struct MarkRateLimitTests {
    let second: Int64 = 1_000_000_000

    @Test("Given 8 MARKs in the same instant, then the first 5 are taken and the rest refused")
    func aBurstThenRefused() {
        var limit = MarkRateLimit()
        let taken = (0..<8).map { _ in limit.take("crew", now: 10 * second) }
        #expect(taken == [true, true, true, true, true, false, false, false])
    }

    @Test("Given an emptied bucket, then one MARK a second is taken again")
    func oneASecondAfterTheBurst() {
        var limit = MarkRateLimit()
        for _ in 0..<5 { _ = limit.take("crew", now: 0) }
        #expect(limit.take("crew", now: second / 2) == false)
        #expect(limit.take("crew", now: second + second / 2) == true)
        #expect(limit.take("crew", now: second + second / 2) == false)
    }

    @Test("Given one account over its limit, then another account's MARK is still taken")
    func perAccount() {
        var limit = MarkRateLimit()
        for _ in 0..<6 { _ = limit.take("crew", now: 0) }
        #expect(limit.take("skipper", now: 0) == true)
    }
}
