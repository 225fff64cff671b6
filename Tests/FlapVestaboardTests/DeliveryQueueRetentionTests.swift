import Foundation
import Testing

@testable import FlapVestaboard

/// The outbox keeps what is waiting and the newest finished writes, nothing more.
@Suite struct DeliveryQueueRetentionTests {
    @Test func finishedWritesBeyondTheirRetentionAreForgottenAndWaitingOnesKept() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString).sqlite").path
        let queue = try DeliveryQueue(path: path)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let rows = [[1, 2, 3]]
        for index in 0..<40 {
            let now = start.addingTimeInterval(Double(index))
            let delivery = try queue.enqueue(panel: "wall", rows: rows, transition: nil, strategy: .queued, messageId: "m\(index)", now: now).delivery
            try queue.begin(delivery.id)
            try queue.sent(delivery.id, now: now)
        }
        let waiting = try queue.enqueue(
            panel: "wall", rows: rows, transition: nil, strategy: .queued, messageId: "last", now: start.addingTimeInterval(100)
        ).delivery
        // Older than the cut-off: gone; then at most 10 finished ones, the newest.
        try queue.prune(before: start.addingTimeInterval(5), keep: 10)
        let kept = try queue.list(limit: 1000)
        #expect(kept.count == 11)
        #expect(kept.first?.id == waiting.id && kept.first?.state == .pending)
        #expect(kept.dropFirst().map(\.messageId) == (30..<40).reversed().map { "m\($0)" })
        // What flapd last wrote is kept apart, for the spacing and the read-back.
        #expect(try queue.lastWrite(panel: "wall")?.rows == rows)
    }
}
