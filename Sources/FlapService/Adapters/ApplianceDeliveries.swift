import FlapHTTP
import FlapMetrics
import FlapTime
import FlapVestaboard
import FoundationEssentials

/// The real Vestaboards' writes as the API reaches them.
struct ApplianceDeliveries: DeliveryAccess {
    let queue: DeliveryQueue
    let workers: [BoardDelivery<ApplianceClock>]
    let metrics: FlapMetrics
    /// The wall clock a retry or cancel is stamped with.
    let now: @Sendable () -> Date

    func boards() async -> [BoardStatus] {
        let depth = (try? queue.depth()) ?? [:]
        var boards: [BoardStatus] = []
        for worker in workers {
            let health = await worker.health
            metrics.boardQueue(panel: worker.queueKey, depth: depth[worker.queueKey] ?? 0)
            var board = BoardStatus(
                panel: worker.panel, api: worker.client.api.kind, address: worker.client.api.address,
                reachable: health.reachable, lastSuccess: health.lastSuccess, lastError: health.lastError,
                queueDepth: depth[worker.queueKey] ?? 0)
            board.note = worker.note
            boards.append(board)
        }
        return boards
    }

    func deliveries(limit: Int) async throws -> [any Encodable & Sendable] { try queue.list(limit: limit) }

    func retry(_ id: Int64) async throws -> Bool? {
        guard let delivery = try queue.delivery(id) else { return nil }
        guard try queue.retry(id, now: now()) else { return false }
        await workers.first { $0.queueKey == delivery.panel }?.poke()
        return true
    }

    func cancel(_ id: Int64) async throws -> Bool? {
        guard try queue.delivery(id) != nil else { return nil }
        return try queue.cancel(id, now: now())
    }
}
