import MarkTimeAccounts
import Hummingbird
import HummingbirdWebSocket
import MarkTimeJournal
import MarkTimeStore
import NIOCore

/// One request's context: who is logged in (set by `AccessMiddleware`) and where from.
public struct WebContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>
    /// The session the cookie opened, if any.
    public var session: WebSession?
    /// The store's revision when the request arrived, for the page's live refresh.
    public var revision: String?
    /// The peer's IP address, for the lockout; `local` when there is none (tests).
    public let address: String

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        address = source.channel.remoteAddress?.ipAddress ?? "local"
    }

    /// The signed-in account. `AccessMiddleware` lets no request without a session past it
    /// but the login's and the sign-up's; should one reach an account's page, it is told to
    /// log in (401), never crashed on.
    public func account() throws(HTTPError) -> Account {
        guard let session else { throw HTTPError(.unauthorized, message: "Log in first.") }
        return session.account
    }

    /// Forms arrive URL-encoded, as a browser sends them.
    public var requestDecoder: URLEncodedFormDecoder { URLEncodedFormDecoder() }

    /// The most a form may send: its longest text is a moment or a sight's note. Photos
    /// stream in against their own limit (`ImageInfo.maximumBytes`).
    public var maxUploadSize: Int { Self.formLimit }
    static let formLimit = 64 * 1024
    static let formRefusal = "Refused: a form is at most 64 KB. Shorten its text and send it again."

    /// Whether `error` is a body over its limit: hummingbird says so for a body it holds
    /// whole, NIO for one that streams in.
    static func isTooLarge(_ error: any Error) -> Bool {
        (error as? HTTPError)?.status == .contentTooLarge || error is NIOTooManyBytesError
    }
}
