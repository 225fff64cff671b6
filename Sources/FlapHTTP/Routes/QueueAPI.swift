import FlapEndpoints
import Hummingbird

/// `/v1/queue`: writes to real Vestaboards, newest first; one retried or cancelled.
struct QueueAPI: RouteGroup {
    let deliveries: (any DeliveryAccess)?

    func add(to v1: AccessRoutes) {
        v1.on(.queue, .owner) { request, _ in
            let limit = try ListLimit.of(request, default: 50, maximum: 1000)
            guard let deliveries else { return Answer(["deliveries": [Encoded]()]) }
            return Answer(["deliveries": try await deliveries.deliveries(limit: limit).map(Encoded.init)])
        }
        v1.on(.retryDelivery, .owner) { _, context in
            try await act(on: context.parameter("id"), "retried", "only a failed or conflicting write can be retried") { try await $0.retry($1) }
        }
        v1.on(.dropDelivery, .owner) { _, context in
            try await act(on: context.parameter("id"), "cancelled", "only a write still waiting can be cancelled") { try await $0.cancel($1) }
        }
    }

    private func act(
        on text: String?, _ done: String, _ notNow: String,
        _ act: (any DeliveryAccess, Int64) async throws -> Bool?
    ) async throws -> Answer<[String: String]> {
        guard let text, let id = Int64(text) else { throw APIError(.badRequest, "a write's id is a number (flapctl queue list shows them)") }
        guard let deliveries, let changed = try await act(deliveries, id) else { throw APIError(.notFound, "no write \(id)") }
        guard changed else { throw APIError(.conflict, "write \(id): \(notNow)") }
        return Answer(["id": "\(id)", "status": done])
    }
}
