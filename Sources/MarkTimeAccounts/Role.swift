import MarkTimeCore

/// What an account may do on the phone page. Each role may do all that the ones below it may.
public enum Role: String, CaseIterable, Comparable, Sendable {
    /// Looks: every page and the live clock; changes only its own appearance and password.
    case family
    /// Works the boat: MARK, sight edits, places, the anchor watch and its alarm, tasks, the journal.
    case crew
    /// Runs it: invites, and what cannot be undone from the page (removing places, people
    /// and tasks, lifting the anchor watch).
    case admin

    public static func < (a: Role, b: Role) -> Bool { a.rank < b.rank }
    private var rank: Int { Self.allCases.firstIndex(of: self)! }

    /// The role `text` names, refused with the three.
    public static func parse(_ text: String) throws(InputError) -> Role {
        guard let role = Role(rawValue: text.lowercased()) else {
            throw InputError("'\(Text.escaped(text))' is not a role: give admin, crew or family")
        }
        return role
    }

    /// The least role a change (`POST`) to `path` needs. Logging in and out and an
    /// account's own settings need none beyond a session.
    public static func needed(toPost path: String) -> Role {
        switch path {
        case "/login", "/logout", "/signup", "/settings/appearance", "/settings/password", "/settings/logout-everywhere": .family
        case "/settings/invite", "/places/remove", "/people/remove", "/tasks/remove", "/anchor/lift": .admin
        default: .crew
        }
    }

    /// MARK on the live connection.
    public static let neededToMark = Role.crew

    /// The sentence for an account of this role refused what needs `needed`.
    public func refusal(needs needed: Role) -> String {
        "Refused: this needs \(needed == .admin ? "an" : "a") \(needed.rawValue) account, and yours is \(rawValue). An admin can change it on the Pi: "
            + "`marktime user role NAME \(needed.rawValue)`."
    }
}
