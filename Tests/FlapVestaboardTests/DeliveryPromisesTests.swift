import Foundation
import TestSupport
import Testing

@testable import FlapVestaboard

/// The queue's two promises under an outage and a restart: only the newest board of a panel is
/// ever written, and a board the panel already shows is not written again.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct DeliveryPromisesTests {
    let suite = BoardDeliveryTests()

    func rows(_ code: Int) -> [[Int]] { suite.rows(code) }

    @Test func aRetryIsSupersededByNewerBoardsThatArriveDuringItsAttempt() async throws {
        let rig = try await suite.rig({ .local($0.url, key: $0.localKey) }, timeout: .seconds(5))
        // The board goes away in the middle of the first write: its attempt hangs, then fails.
        try await rig.board.fail("hang:1.5")
        let retried = try await rig.delivery.send(rows(1), transition: nil, strategy: .queued, messageId: "a")
        #expect(try await suite.until(rig.clock) { suite.state(rig.queue, retried.id) == .sending })
        // Four newer boards from one sender while that attempt is still out.
        var newer: [Delivery] = []
        for code in 2...5 {
            newer.append(try await rig.delivery.send(rows(code), transition: nil, strategy: .queued, messageId: "m\(code)"))
        }
        let newest = try #require(newer.last)
        #expect(try await suite.until(rig.clock) { suite.state(rig.queue, newest.id) == .sent })
        // Only the newest reached the board; the one that waited for its retry ended superseded.
        let shown = try await rig.board.writes().filter(\.shown)
        #expect(shown.count == 1 && shown.first?.body.contains("[0,0,0,5,0") == true, "\(shown.map(\.body))")
        #expect(suite.state(rig.queue, retried.id) == .superseded)
        for delivery in newer.dropLast() { #expect(suite.state(rig.queue, delivery.id) == .superseded) }
        #expect(try rig.queue.depth().isEmpty)
    }

    @Test func aBoardTheRestartedQueueAlreadyWroteIsNotWrittenAgain() async throws {
        for strategy in [DeliveryStrategy.conflictAware, .queued, .optimistic] {
            let board = try await FakeVestaboard.start()
            teardown { await board.stop() }
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString).sqlite").path
            // Before the kill: the board was offline, a write waited for its retry.
            do {
                let queue = try DeliveryQueue(path: path)
                let waiting = try queue.enqueue(panel: "wall", rows: rows(7), transition: nil, strategy: strategy, messageId: "m", now: Date())
                    .delivery
                try queue.begin(waiting.id)
                try queue.failed(waiting.id, error: "connection refused", retryAt: Date(), now: Date())
            }
            let wall = try await suite.rig({ .local($0.url, key: $0.localKey) }, board: board, path: path)
            defer { wall.running.cancel() }
            #expect(try await suite.until(wall.clock) { (try wall.queue.list(panel: "wall").first?.state) == .sent })
            #expect(try await board.writes().count == 1)
            // The restarted display queues what it shows, the same board, again.
            let again = try await wall.delivery.send(rows(7), transition: nil, strategy: strategy, messageId: "m")
            #expect(try await suite.until(wall.clock) { suite.state(wall.queue, again.id) == .sent })
            #expect(try await board.writes().count == 1, "\(strategy): the board already showed it")
            // Once someone else changed the board, the same board is written again.
            try await board.write(rows(9))
            let back = try await wall.delivery.send(
                rows(7), transition: nil, strategy: strategy == .conflictAware ? .queued : strategy, messageId: "m")
            #expect(try await suite.until(wall.clock) { suite.state(wall.queue, back.id) == .sent })
            #expect(try await board.log().board == rows(7))
            #expect(try await board.writes().count == 2)
        }
    }
}
