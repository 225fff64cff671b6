import FlapEndpoints
import FlapJSON
import FlapPrimitives
import Hummingbird
import Synchronization

/// The content sources as the API sees them, filled in by FlapService over its source hub.
public protocol SourceDesk: Sendable {
    /// Every source as its own JSON: its settings (no URL's query, no header), health and values now.
    func sources() -> [any Encodable & Sendable]
    /// Every trigger: its source, its condition in words, when it last fired, until when it cools down.
    func triggerViews() async -> [any Encodable & Sendable]
    func source(_ name: String) -> (any Encodable & Sendable)?
    /// Each source's health, for `/v1/status`.
    func health() -> [any Encodable & Sendable]
    /// Fetches a source now; false when there is no such fetched source.
    func refresh(_ name: String) -> Bool
    /// Pushes values to a webhook source; its view after. Throws ``SourceDeskRefusal``, or a
    /// storage fault when the values could not be kept.
    func push(_ name: String, body: JSONValue) throws -> any Encodable & Sendable
    /// Whether `key` is the webhook `name`'s own key.
    func isKey(_ key: String, of name: String) -> Bool
}

/// Why a push to a source was refused.
public enum SourceDeskRefusal: Error, Sendable {
    case missing(String)
    case notWebhook(String)
    case invalid([(field: String, problem: String)])
    /// Pushed to faster than it takes (`rate` in words): try again in this many seconds.
    case tooFast(retryAfter: Int, rate: String)
}

/// Pushes made with one key (a webhook's own, a member's, the API key), all sources together:
/// a leaked key floods no more than its rate.
final class PushesByKey: Sendable {
    /// Pushes taken at once with one key, and a second after those.
    static let burst = 20, perSecond = 2.0
    private let buckets = Mutex(TokenBuckets<UInt64>(burst: burst, perSecond: perSecond))
    private let started = ContinuousClock.now

    /// Seconds to wait, or nil to go ahead; the key is known by its hash, never kept.
    func take(_ request: Request) -> Int? {
        let credential = request.headers[.authorization] ?? request.headers[.cookie] ?? ""
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return buckets.withLock { $0.take(FNV1a.hash(credential), at: seconds) }
    }
}

/// `/v1/sources`: the sources, one source, a fetch now, and webhooks (`POST /v1/sources/{name}`
/// with the source's own key, a member's or the API key).
struct SourcesAPI: RouteGroup {
    let desk: (any SourceDesk)?
    let pushes: PushesByKey

    func add(to v1: AccessRoutes) {
        v1.on(.sources, .household) { _, _ in
            Answer(["sources": (desk?.sources() ?? []).map(Encoded.init), "triggers": (await desk?.triggerViews() ?? []).map(Encoded.init)])
        }
        v1.on(.source, .household) { _, context in
            let name = context.parameter("name")
            guard let view = desk?.source(name) else { throw Self.missing(name) }
            return Answer(Encoded(view))
        }
        v1.on(.refreshSource, .owner) { _, context in
            let name = context.parameter("name")
            guard let desk, desk.source(name) != nil else { throw Self.missing(name) }
            guard desk.refresh(name) else {
                throw APIError(.conflict, "\(name) is a webhook: it is pushed to with \(Endpoint.pushToSource.request(name)), not fetched")
            }
            return Answer(status: .accepted, ["refreshing": name])
        }
        // A webhook source's own key pushes to that source and nothing else.
        let webhookKey: @Sendable (String, APIRequestContext) -> Caller? = { [desk] key, context in
            let name = context.parameter("name")
            return desk?.isKey(key, of: name) == true ? .webhook(source: name) : nil
        }
        v1.on(.pushToSource, [.members, .webhook], otherKey: webhookKey) { request, context in
            let name = context.parameter("name")
            guard let desk else { throw Self.missing(name) }
            if let wait = pushes.take(request) {
                throw APIError(
                    .tooManyRequests,
                    "too many pushes with this key (\(PushesByKey.burst) at once, then \(Int(PushesByKey.perSecond)) a second); try again in \(wait) s",
                    headers: [.retryAfter: "\(wait)"])
            }
            if let encoding = request.headers[.contentEncoding], encoding.lowercased() != "identity" {
                throw APIError(
                    .unsupportedMediaType, "a webhook's values are read as they are sent: send them without Content-Encoding (not \(encoding))")
            }
            guard let body = try await Responses.body(of: request, limit: 16 * 1024) else {
                throw APIError(.contentTooLarge, "a webhook's values are at most 16 KB of JSON")
            }
            guard let value = try? JSONValue(parsing: body) else {
                throw APIError(.badRequest, "send the values as a JSON object, such as {\"state\": \"open\"}")
            }
            do {
                return Answer(Encoded(try desk.push(name, body: value)))
            } catch let refusal as SourceDeskRefusal {
                switch refusal {
                case .missing(let name): throw Self.missing(name)
                case .notWebhook(let name):
                    throw APIError(.conflict, "\(name) is fetched, not pushed to; \(Endpoint.refreshSource.request(name)) fetches it now")
                case .invalid(let problems):
                    let message = problems.map { $0.field.isEmpty ? $0.problem : "\($0.field): \($0.problem)" }.joined(separator: "; ")
                    throw APIError(.badRequest, message, problems: problems.map { .init(field: $0.field, problem: $0.problem) })
                case .tooFast(let wait, let rate):
                    throw APIError(.tooManyRequests, "\(name) takes \(rate); try again in \(wait) s", headers: [.retryAfter: "\(wait)"])
                }
            }
        }
    }

    static func missing(_ name: String) -> APIError {
        APIError(.notFound, "there is no source called \(name) (\(Endpoint.sources) lists them; they are [[source]] tables in flapd.toml)")
    }
}
