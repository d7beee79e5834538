import MarkTimeCore

/// Someone who may log in to the phone page.
public struct Account: Hashable, Sendable {
    public var id: Int64
    public var name: String
    public var role: Role
    public var theme: Theme
    public var fontSize: FontSize
    public var createdAt: UTCTime

    /// Whether it may invite and remove: the admin role.
    public var admin: Bool { role == .admin }

    public init(id: Int64, name: String, role: Role, theme: Theme, fontSize: FontSize, createdAt: UTCTime) {
        self.id = id
        self.name = name
        self.role = role
        self.theme = theme
        self.fontSize = fontSize
        self.createdAt = createdAt
    }
}

/// A logged-in browser: the cookie's token (returned once, never stored) and its CSRF token.
public struct WebSession: Hashable, Sendable {
    public var token: String
    public var csrf: String
    public var account: Account

    public init(token: String, csrf: String, account: Account) {
        self.token = token
        self.csrf = csrf
        self.account = account
    }
}

/// Why a login was refused.
public enum LoginRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name or the password is wrong; which one is not said.
    case wrongNameOrPassword
    /// Too many failures for this name or from this address: try again at `until`.
    case lockedOut(until: UTCTime)

    public var description: String {
        switch self {
        case .wrongNameOrPassword: "wrong name or password"
        case .lockedOut(let until): "too many failed logins: try again after \(until.iso8601)"
        }
    }
}
