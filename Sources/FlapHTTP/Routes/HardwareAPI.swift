import FlapEndpoints
import FoundationEssentials
import Hummingbird

/// "Find my board", as the appliance does it: its ports and devices listed (nothing written),
/// and a search that asks each free serial port with each driver's greeting.
public protocol HardwareFinder: Sendable {
    /// The ports and devices now, what a search under way is doing, and what the last one found.
    func hardware() async -> any Encodable & Sendable
    /// Asks every free port, RS-485 IDs in `ids`; nil when a search is already under way.
    func search(ids: ClosedRange<Int>) async -> (any Encodable & Sendable)?
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
            let ids = try Self.ids(in: try await Responses.body(of: request, limit: 1024))
            guard let found = await finder.search(ids: ids) else {
                throw APIError(.conflict, "a search is under way: GET /v1/hardware says what it is doing")
            }
            return Answer(Encoded(found))
        }
    }

    private func present() throws -> any HardwareFinder {
        guard let finder else { throw APIError(.notFound, "this flapd does not search for hardware") }
        return finder
    }

    static func ids(in body: [UInt8]?) throws -> ClosedRange<Int> {
        guard let body, !body.isEmpty else { return defaultIDs }
        guard let request = try? JSONDecoder().decode(SearchRequest.self, from: Data(body)) else {
            throw APIError(.badRequest, "send {} or {\"firstID\": 1, \"lastID\": 32}: the RS-485 IDs to ask")
        }
        let first = request.firstID ?? defaultIDs.lowerBound
        let last = request.lastID ?? max(first, min(defaultIDs.upperBound, first + mostIDs - 1))
        guard (1...999).contains(first), (1...999).contains(last), first <= last else {
            throw APIError(.badRequest, "firstID and lastID are RS-485 IDs, 1 to 999, the first not after the last (\(first)–\(last))")
        }
        guard last - first < mostIDs else {
            throw APIError(.badRequest, "\(last - first + 1) IDs is more than one search asks (\(mostIDs)); search again for the rest")
        }
        return first...last
    }
}
