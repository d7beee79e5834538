import ArgumentParser
import Foundation
import MarkTimeAccounts
import MarkTimeCore
import MarkTimeStore
import MarkTimeSystem

/// A password: one line of standard input with `--password-stdin`, else typed twice at the
/// terminal without echo.
struct PasswordOptions: ParsableArguments {
    @Flag(help: "Read the password from the first line of standard input (for scripts).")
    var passwordStdin = false

    func read(for name: String) throws -> String {
        if passwordStdin {
            guard let line = readLine(strippingNewline: true) else {
                throw InputError("--password-stdin: standard input was empty; pipe the password in, e.g. `printf '%s\\n' \"$PW\" | marktime user add \(name) --password-stdin`")
            }
            return line
        }
        guard Terminal.isTerminal(STDIN_FILENO) else {
            throw InputError("no terminal to type the password on: give --password-stdin and pipe it in")
        }
        let first = try Self.prompt("Password for \(name): "), second = try Self.prompt("Again: ")
        guard first == second else { throw InputError("the two passwords differ; nothing was changed") }
        return first
    }

    /// Reads a line from the terminal with echo off, putting the terminal back after.
    static func prompt(_ text: String) throws -> String {
        FileHandle.standardError.write(Data(text.utf8))
        defer { FileHandle.standardError.write(Data("\n".utf8)) }
        guard let line = Terminal.withEchoOff({ readLine(strippingNewline: true) }) else {
            throw InputError("no password typed; nothing was changed")
        }
        return line
    }
}

extension MarkTime {
    struct UserCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "user",
            abstract: "Accounts for the phone page (`marktime web`): add, list, remove, change a password, invite.",
            discussion: """
                Examples:
                  marktime user add skipper --admin          (asks for the password twice)
                  printf '%s\\n' "$PW" | marktime user add crew --password-stdin
                  marktime user add grandma --role family     (may look, not change)
                  marktime user role crew admin
                  marktime user invite --role family         (a one-time code for the page's "Create account")
                  marktime user passwd crew
                  marktime user logout crew                  (ends every session: a lost phone)
                Roles: admin (invites; removes places, people and tasks; lifts the anchor watch), \
                crew (the default: MARK, sight edits, places, the anchor watch and its alarm, tasks, \
                the journal) and family (looks: every page and the clock, its own settings). \
                Names are letters, digits, '.', '_' and '-' (at most 32); passwords 8 to 72 bytes. \
                Passwords are kept only as bcrypt hashes (cost 12). Changing a password ends the \
                account's sessions.
                """,
            subcommands: [Add.self, List.self, Remove.self, SetRole.self, Passwd.self, Logout.self, Invite.self],
            defaultSubcommand: List.self)

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "add", abstract: "Add an account.")
            @OptionGroup var store: StoreOptions
            @Argument(help: "Its name.") var name: String
            @Flag(help: "The admin role: the same as --role admin.") var admin = false
            @Option(help: "admin, crew or family (default crew).") var role: String?
            @OptionGroup var password: PasswordOptions

            func run() async throws {
                let db = try store.open()
                _ = try AccessRules.accountName(name)  // before asking for a password
                let chosen = try role.map(Role.parse) ?? (admin ? .admin : .crew)
                if admin, chosen != .admin { throw InputError("--admin and --role \(chosen.rawValue) disagree: give one of them") }
                let account = try Logins(db).addAccount(name: name, password: try password.read(for: name), role: chosen, now: try wallClock())
                print("added \(account.name) (\(account.role.rawValue))")
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "Every account.")
            @OptionGroup var store: StoreOptions
            @Option(help: "table or json.") var format: Format = .table

            func run() async throws {
                let accounts = try store.openForReading().accounts()
                switch format {
                case .json:
                    print(JSON.array(accounts.map { a in
                        .object([("name", .string(a.name)), ("role", .string(a.role.rawValue)), ("admin", .bool(a.admin)), ("theme", .string(a.theme.rawValue)),
                                 ("font_size", .string(a.fontSize.rawValue)), ("created", .string(a.createdAt.iso8601))])
                    }).render())
                case .table:
                    guard !accounts.isEmpty else { print("no accounts yet: `marktime user add NAME --admin`"); return }
                    print(TextTable(header: ["NAME", "ROLE", "THEME", "FONT", "CREATED"], rows: accounts.map { a in
                        [a.name, a.role.rawValue, a.theme.rawValue, a.fontSize.rawValue, a.createdAt.iso8601]
                    }).render())
                }
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove an account and end its sessions.")
            @OptionGroup var store: StoreOptions
            @Argument(help: "Its name.") var name: String

            func run() async throws {
                try store.open().removeAccount(named: name)
                print("removed \(name)")
            }
        }

        struct SetRole: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "role", abstract: "Give an account another role: admin, crew or family. Its open pages follow at once.")
            @OptionGroup var store: StoreOptions
            @Argument(help: "Its name.") var name: String
            @Argument(help: "admin, crew or family.") var role: String

            func run() async throws {
                let account = try store.open().setRole(name: name, role: try Role.parse(role))
                print("\(account.name) is now \(account.role.rawValue)")
            }
        }

        struct Passwd: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "passwd", abstract: "Set an account's password; its sessions end.")
            @OptionGroup var store: StoreOptions
            @Argument(help: "Its name.") var name: String
            @OptionGroup var password: PasswordOptions

            func run() async throws {
                let db = try store.open()
                _ = try db.passwordHash(of: name)  // an unknown name is refused before the prompt
                try Logins(db).setPassword(name: name, password: try password.read(for: name))
                print("password changed for \(name)")
            }
        }

        struct Logout: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "logout",
                abstract: "End every session of an account (log out everywhere): its open pages go to the login at once.")
            @OptionGroup var store: StoreOptions
            @Argument(help: "Its name.") var name: String

            func run() async throws {
                let ended = try store.open().endSessions(ofAccount: name)
                print("logged \(name) out everywhere (\(ended) session\(ended == 1 ? "" : "s") ended)")
            }
        }

        struct Invite: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "invite",
                abstract: "A one-time code, good for 24 hours, for the page's \"Create account\" form.",
                discussion: "The code alone goes to standard output, so `CODE=$(marktime user invite)` works.")
            @OptionGroup var store: StoreOptions
            @Option(help: "The role of the account it makes: admin, crew or family (default crew).") var role = "crew"

            func run() async throws {
                let role = try Role.parse(role)
                let (code, expires) = try Logins(try store.open()).createInvite(by: nil, role: role, now: try wallClock())
                print(code)
                FileHandle.standardError.write(Data("invite code above, for a \(role.rawValue) account: good once, until \(expires.iso8601); the page's \"Create account\" form takes it\n".utf8))
            }
        }
    }
}
