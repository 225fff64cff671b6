import FlapHTTP
import FlapJSON
import FlapSources
import FlapTime
import FoundationEssentials
import ServiceLifecycle

/// The content sources for the API, over the hub that runs them.
struct ApplianceSources: SourceDesk {
    let hub: SourceHub<ApplianceClock>
    let triggers: TriggerRunner<ApplianceClock>?
    /// The wall clock the sources' views are read at.
    let now: @Sendable () -> Date

    func triggerViews() async -> [any Encodable & Sendable] { await triggers?.views() ?? [] }

    func sources() -> [any Encodable & Sendable] { hub.shelf.views(at: now()) }

    func source(_ name: String) -> (any Encodable & Sendable)? { hub.shelf.views(at: now()).first { $0.health.name == name } }

    func health() -> [any Encodable & Sendable] { hub.shelf.health(at: now()) }

    func refresh(_ name: String) -> Bool { hub.refresh(name) }

    func push(_ name: String, body: JSONValue) throws -> any Encodable & Sendable {
        do {
            _ = try hub.push(name, body: body)
        } catch let error as SourcePushError {
            switch error {
            case .unknownSource(let name): throw SourceDeskRefusal.missing(name)
            case .notWebhook(let name): throw SourceDeskRefusal.notWebhook(name)
            case .invalid(let problems): throw SourceDeskRefusal.invalid(problems)
            case .tooFast(let wait):
                throw SourceDeskRefusal.tooFast(
                    retryAfter: wait, rate: "\(WebhookRate.burst) pushes at once, then \(Int(WebhookRate.perSecond)) a second")
            }
        }
        guard let view = source(name) else { throw SourceDeskRefusal.missing(name) }
        return view
    }

    func isKey(_ key: String, of name: String) -> Bool { hub.isKey(key, of: name) }
}
