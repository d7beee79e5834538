import Foundation
import Hummingbird
import MarkTimeCore
import MarkTimeDevices
import MarkTimeSystem

/// The chronometer from the phone: a time signal's tick named on the Now page, then the
/// daemon's button pressed on it, as `marktime clock signal` does.
struct ClockRoutes {
    let site: Site

    /// The longest wait a page may ask for, seconds: a phone does not hold a request longer.
    static let windows = 1...600

    func add(to router: Router<WebContext>) {
        router.post("/clock/signal") { request, context in try await signal(request, context: context) }
    }

    /// Waits for the daemon's answer (up to the window and 5 s) off the event loop, then
    /// shows the Now page with it; a refusal keeps what was typed.
    func signal(_ request: Request, context: WebContext) async throws -> Response {
        struct Form: Decodable { var tick, date, within: String? }
        let f = try await request.decode(as: Form.self, context: context)
        let typed = TimeSignalForm(tick: f.tick ?? "", date: f.date ?? "", within: f.within ?? "")
        let now = SightRoutes(site: site)
        do {
            var window = TimeSignalRequest.defaultWindow
            if let text = f.within?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
                guard let n = Int(text), Self.windows.contains(n) else {
                    throw InputError("the wait '\(Text.shown(text))' is not 1 to 600 seconds: leave it empty for 120")
                }
                window = n
            }
            let asked = try TimeSignalRequest.parse(tick: f.tick ?? "", date: f.date, window: window)
            let path = site.store.path
            guard case .daemon = DaemonLock.holder(store: path) else { throw TimeSignalClient.noDaemon(store: path) }
            let answer = try await onThreadOfItsOwn(named: "marktime-signal") { try TimeSignalClient.ask(store: path, request: asked) }
            if case .refused(let reason) = answer {
                return try now.nowPage(context: context, signal: typed, error: "Time signal not taken: " + reason, status: .unprocessableContent)
            }
            return try now.nowPage(context: context, notice: "Time signal: " + answer.sentence + ".")
        } catch {
            return try now.nowPage(context: context, signal: typed, error: "\(error)", status: .badRequest)
        }
    }
}
