import Foundation
import MarkTimeAccounts
import MarkTimeCore
import MarkTimeStore
import RigSupport
import Testing

@Suite("marktime user")
struct UserCLITests {
    let cli = CLI()

    @Test func anAccountAddedFromStdinCanLogIn() throws {
        // Given an admin added with its password on standard input
        let r = try cli.run(["user", "add", "skipper", "--admin", "--password-stdin"], input: "correct horse\n")
        #expect(r.stdout == "added skipper (admin)\n", "\(r.stderr)")
        // Then the list shows it, and the store's hash checks the password
        let list = try cli.json(["user", "list"]) as? [[String: Any]] ?? []
        #expect(list.map { $0["name"] as? String } == ["skipper"])
        #expect(list.map { $0["admin"] as? Bool } == [true])
        #expect(PasswordHash.verify("correct horse", hash: try cli.database().passwordHash(of: "skipper")))
    }

    @Test func withoutATerminalOrStdinThePasswordIsAskedFor() throws {
        let r = try cli.run(["user", "add", "skipper"])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: no terminal to type the password on: give --password-stdin and pipe it in\n")
        #expect(try cli.run(["user", "list"]).stdout == "no accounts yet: `marktime user add NAME --admin`\n")
    }

    @Test func aShortPasswordIsRefusedWithTheRule() throws {
        let r = try cli.run(["user", "add", "crew", "--password-stdin"], input: "short\n")
        #expect(r.status == 1)
        #expect(r.stderr == "Error: the password is 5 characters long: give at least 8\n")
    }

    @Test func passwdChangesThePasswordAndRemoveRemovesTheAccount() throws {
        _ = try cli.run(["user", "add", "crew", "--password-stdin"], input: "battery staple\n")
        #expect(try cli.run(["user", "passwd", "crew", "--password-stdin"], input: "new battery\n").stdout == "password changed for crew\n")
        #expect(PasswordHash.verify("new battery", hash: try cli.database().passwordHash(of: "crew")))
        #expect(try cli.run(["user", "remove", "crew"]).stdout == "removed crew\n")
        let r = try cli.run(["user", "passwd", "crew", "--password-stdin"], input: "new battery\n")
        #expect(r.stderr == "Error: no account named 'crew'; there are none yet: `marktime user add NAME`\n")
    }

    @Test func logoutEndsEverySessionOfTheAccount() throws {
        // Given an account logged in on two devices
        _ = try cli.run(["user", "add", "crew", "--password-stdin"], input: "battery staple\n")
        let db = try cli.database()
        let now = try #require(UTCTime(secondsSinceEpoch: Date().timeIntervalSince1970))
        let phone = try Logins(db, cost: 4).logIn(name: "crew", password: "battery staple", address: "10.0.0.2", now: now)
        let laptop = try Logins(db, cost: 4).logIn(name: "crew", password: "battery staple", address: "10.0.0.3", now: now)
        // When it is logged out everywhere
        let r = try cli.run(["user", "logout", "crew"])
        // Then both sessions are gone
        #expect(r.stdout == "logged crew out everywhere (2 sessions ended)\n")
        #expect(try Logins(db, cost: 4).session(token: phone.token, now: now) == nil)
        #expect(try Logins(db, cost: 4).session(token: laptop.token, now: now) == nil)
        #expect(try cli.run(["user", "logout", "nobody"]).stderr == "Error: no account named 'nobody'; the accounts: crew\n")
    }

    @Test func anInviteCodeCreatesOneAccount() throws {
        // Given an invite printed by the CLI
        let r = try cli.run(["user", "invite"])
        let code = String(r.stdout.dropLast())
        #expect(code.count == 16)
        #expect(r.stderr.hasPrefix("invite code above, for a crew account: good once, until "))
        // Then the store takes it once
        let db = try cli.database()
        let now = try #require(UTCTime(secondsSinceEpoch: Date().timeIntervalSince1970))
        try Logins(db, cost: 4).redeemInvite(code, name: "crew", password: "battery staple", now: now)
        #expect(try db.accounts().map(\.name) == ["crew"])
    }

    @Test("Roles from the CLI: added, listed, changed, and a family invite")
    func rolesFromTheCLI() throws {
        // Given a family account and a crew account added by the CLI
        #expect(try cli.run(["user", "add", "grandma", "--role", "family", "--password-stdin"], input: "correct horse\n").stdout == "added grandma (family)\n")
        #expect(try cli.run(["user", "add", "mate", "--password-stdin"], input: "correct horse\n").stdout == "added mate (crew)\n")
        // When the crew is made admin, and a family invite is redeemed
        #expect(try cli.run(["user", "role", "mate", "admin"]).stdout == "mate is now admin\n")
        let code = String(try cli.run(["user", "invite", "--role", "family"]).stdout.dropLast())
        let now = try #require(UTCTime(secondsSinceEpoch: Date().timeIntervalSince1970))
        try Logins(try cli.database(), cost: 4).redeemInvite(code, name: "cousin", password: "battery staple", now: now)
        // Then the list says each role, and a wrong role is refused with the three
        let list = try #require(try JSONSerialization.jsonObject(with: Data(try cli.run(["user", "list", "--format", "json"]).stdout.utf8)) as? [[String: Any]])
        #expect(list.map { "\($0["name"]!) \($0["role"]!)" } == ["cousin family", "grandma family", "mate admin"])
        #expect(try cli.run(["user", "role", "mate", "captain"]).stderr == "Error: 'captain' is not a role: give admin, crew or family\n")
        #expect(try cli.run(["user", "add", "x", "--admin", "--role", "family", "--password-stdin"], input: "correct horse\n").stderr
                == "Error: --admin and --role family disagree: give one of them\n")
    }
}
