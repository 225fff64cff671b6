import FlapEndpoints
import FoundationEssentials
import HTTPTypes
import Hummingbird

/// "Find my board", as the appliance does it: its ports and devices listed (nothing written),
/// and a search that asks each free serial port with each driver's greeting.
public protocol HardwareFinder: Sendable {
    /// The ports and devices now, what a search under way is doing, and what the last one found.
    func hardware() async -> any Encodable & Sendable
    /// Asks every free port, RS-485 IDs in `ids`; nil when a search is already under way.
    func search(ids: ClosedRange<Int>) async -> (any Encodable & Sendable)?
    /// Asks `address` whether a Vestaboard answers there; with `token`, turns its Local API on and
    /// keeps its key in the state directory.
    func vestaboard(at address: String, enablementToken token: String?) async throws(HardwareRefusal) -> any Encodable & Sendable
    /// Listens for heart-rate straps for `window`: each one heard, where it stands, its last reading.
    func straps(listening window: Duration) async throws(HardwareRefusal) -> any Encodable & Sendable
}

/// Why a request about hardware was refused.
public struct HardwareRefusal: Error, Sendable {
    /// Whose fault it is, which sets the answer's status.
    public enum Kind: Sendable {
        /// What the owner typed (400).
        case badRequest
        /// What the device answered, or that it did not (502).
        case deviceRefused
        /// flapd itself (500).
        case failed
        /// Something already under way (409).
        case busy
    }

    /// Whose fault it is.
    public var kind: Kind
    /// What was wrong, in words.
    public var message: String

    /// A refusal of `kind` saying `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    var status: HTTPResponse.Status {
        switch kind {
        case .badRequest: .badRequest
        case .deviceRefused: .badGateway
        case .failed: .internalServerError
        case .busy: .conflict
        }
    }
}

/// `/v1/hardware`: the owner's, as writing to a port is. A search takes seconds (each RS-485 ID
/// is given 200 ms, a Chainlink controller 2.5 s): `GET` says meanwhile what it is doing.
struct HardwareAPI: RouteGroup {
    let finder: (any HardwareFinder)?

    /// The RS-485 IDs asked when the request names none: the first 32, 12 s on a silent port.
    static let defaultIDs = 1...32
    /// The most IDs one search asks, so that one stays within a minute.
    static let mostIDs = 64

    /// `POST /v1/hardware/search`'s body.
    struct SearchRequest: Decodable {
        var firstID: Int?
        var lastID: Int?
    }

    func add(to v1: AccessRoutes) {
        v1.on(.hardware, .owner) { _, _ in
            let finder = try present()
            return Answer(Encoded(await finder.hardware()))
        }
        v1.on(.searchHardware, .owner) { request, _ in
            let finder = try present()
            let ids = try Self.ids(
                try await Self.asked(request, or: SearchRequest(), usage: "send {} or {\"firstID\": 1, \"lastID\": 32}: the RS-485 IDs to ask"))
            guard let found = await finder.search(ids: ids) else {
                throw APIError(.conflict, "a search is under way: GET /v1/hardware says what it is doing")
            }
            return Answer(Encoded(found))
        }
        v1.on(.findVestaboard, .owner) { request, _ in try await vestaboard(request) }
        v1.on(.findStraps, .owner) { request, _ in
            let finder = try present()
            let asked = try await Self.asked(request, or: StrapRequest(), usage: "send {} or {\"seconds\": 10}: how long to listen for straps")
            let seconds = asked.seconds ?? 10
            guard (1...30).contains(seconds) else { throw APIError(.badRequest, "seconds is 1 to 30, not \(seconds)") }
            do {
                return Answer(Encoded(try await finder.straps(listening: .seconds(seconds))))
            } catch let refusal as HardwareRefusal {
                throw APIError(refusal.status, refusal.message)
            }
        }
    }

    /// `POST /v1/hardware/straps`'s body.
    struct StrapRequest: Decodable {
        var seconds: Int?
    }

    /// `POST /v1/hardware/vestaboard`'s body.
    struct VestaboardRequest: Decodable {
        var address: String?
        var enablementToken: String?
    }

    private func vestaboard(_ request: Request) async throws -> Answer<Encoded> {
        let finder = try present()
        let asked = try await Self.asked(
            request, or: VestaboardRequest(), usage: "send {\"address\": \"vestaboard.local\"}, and \"enablementToken\" to turn its Local API on")
        do {
            return Answer(Encoded(try await finder.vestaboard(at: asked.address ?? "vestaboard.local", enablementToken: asked.enablementToken)))
        } catch {
            throw APIError(error.status, error.message)
        }
    }

    private func present() throws -> any HardwareFinder {
        guard let finder else { throw APIError(.notFound, "this flapd does not search for hardware") }
        return finder
    }

    /// A request's optional body as `T`: `empty` when there is none, 413 past 1 KiB, 400 saying
    /// `usage` when it is not a `T`.
    static func asked<T: Decodable>(_ request: Request, or empty: T, usage: String) async throws -> T {
        guard let body = try await Responses.body(of: request, limit: 1024) else {
            throw APIError(.contentTooLarge, "the request is larger than 1 KiB: " + usage)
        }
        if body.isEmpty { return empty }
        guard let asked = try? JSONDecoder().decode(T.self, from: Data(body)) else { throw APIError(.badRequest, usage) }
        return asked
    }

    static func ids(_ request: SearchRequest) throws -> ClosedRange<Int> {
        let first = request.firstID ?? defaultIDs.lowerBound
        let last = request.lastID ?? min(999, first + defaultIDs.count - 1)
        guard (1...999).contains(first), (1...999).contains(last), first <= last else {
            throw APIError(.badRequest, "firstID and lastID are RS-485 IDs, 1 to 999, the first not after the last (\(first)–\(last))")
        }
        guard last - first < mostIDs else {
            throw APIError(.badRequest, "\(last - first + 1) IDs is more than one search asks (\(mostIDs)); search again for the rest")
        }
        return first...last
    }
}
