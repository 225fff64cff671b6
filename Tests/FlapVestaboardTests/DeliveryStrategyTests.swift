import FlapClocks
import Foundation
import Logging
import TestSupport
import Testing

@testable import FlapVestaboard

/// The cloud's 15 s spacing, coalescing, each strategy, and a restart with writes waiting.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct DeliveryStrategyTests {
    let suite = BoardDeliveryTests()

    func rows(_ code: Int) -> [[Int]] { suite.rows(code) }

    @Test func cloudWritesAreSpacedFifteenSecondsAndOnlyTheNewestWaits() async throws {
        let rig = try await suite.rig { .cloud($0.url, token: $0.token) }
        let first = try await rig.delivery.send(rows(1), transition: nil, strategy: .queued, messageId: "a")
        #expect(try await suite.until(rig.clock) { suite.state(rig.queue, first.id) == .sent })
        let sentAt = rig.clock.now
        // Three boards while the 15 s run: the first two are superseded, the newest waits.
        let second = try await rig.delivery.send(rows(2), transition: nil, strategy: .queued, messageId: "b")
        let third = try await rig.delivery.send(rows(3), transition: nil, strategy: .queued, messageId: "c")
        let fourth = try await rig.delivery.send(rows(4), transition: nil, strategy: .queued, messageId: "d")
        #expect(suite.state(rig.queue, second.id) == .superseded && suite.state(rig.queue, third.id) == .superseded)
        #expect(try await suite.until(rig.clock, step: .milliseconds(250)) { suite.state(rig.queue, fourth.id) == .sent })
        #expect(sentAt.duration(to: rig.clock.now) >= .seconds(15))
        #expect(sentAt.duration(to: rig.clock.now) < .seconds(16))
        // Two writes, neither forced, the second the newest board. (The fake keeps the cloud's
        // window in real time, which the manual clock outran: it dropped the second, as the
        // cloud drops a write it gets too soon. Spacing them is what keeps that from happening.)
        let writes = try await rig.board.writes()
        #expect(writes.count == 2 && writes.allSatisfy { !$0.body.contains("forced") })
        #expect(writes.last?.body.contains("[0,0,0,4,0") == true, "\(writes.last?.body ?? "")")
        #expect(try rig.queue.depth().isEmpty)
    }

    @Test func immediateIsForcedPastTheSpacing() async throws {
        let rig = try await suite.rig { .cloud($0.url, token: $0.token) }
        let first = try await rig.delivery.send(rows(1), transition: nil, strategy: .queued, messageId: nil)
        #expect(try await suite.until(rig.clock) { suite.state(rig.queue, first.id) == .sent })
        let start = rig.clock.now
        let urgent = try await rig.delivery.send(rows(2), transition: nil, strategy: .immediate, messageId: nil)
        #expect(try await suite.until(rig.clock, step: .milliseconds(100)) { suite.state(rig.queue, urgent.id) == .sent })
        #expect(start.duration(to: rig.clock.now) < .seconds(1))
        let writes = try await rig.board.writes()
        #expect(writes.last?.body.contains("\"forced\":true") == true && writes.last?.shown == true)
    }

    @Test func conflictAwareRefusesOrOverwritesSomeoneElsesMessage() async throws {
        for choice in [ConflictChoice.refuse, .overwrite] {
            let rig = try await suite.rig({ .local($0.url, key: $0.localKey) }, onConflict: choice)
            let mine = try await rig.delivery.send(rows(1), transition: nil, strategy: .conflictAware, messageId: nil)
            #expect(try await suite.until(rig.clock) { suite.state(rig.queue, mine.id) == .sent })
            // Someone writes the board from the Vestaboard app.
            try await rig.board.write(rows(9))
            let next = try await rig.delivery.send(rows(2), transition: nil, strategy: .conflictAware, messageId: nil)
            let expected: Delivery.State = choice == .refuse ? .conflict : .sent
            #expect(try await suite.until(rig.clock) { suite.state(rig.queue, next.id) == expected })
            #expect(try await rig.board.log().board == (choice == .refuse ? rows(9) : rows(2)))
            if choice == .refuse {
                // Asked again (flapctl queue retry), it is refused again: the board is still someone else's.
                #expect(try rig.queue.retry(next.id, now: Date()))
                await rig.delivery.poke()
                #expect(try await suite.until(rig.clock) { suite.state(rig.queue, next.id) == .conflict })
            }
        }
    }

    @Test func optimisticReportsABoardThatShowsSomethingElse() async throws {
        let rig = try await suite.rig { .cloud($0.url, token: $0.token) }
        // Someone wrote the board a moment ago: the cloud drops flapd's write inside its 15 s,
        // answering as if shown; reading back tells.
        try await rig.board.write(rows(9))
        let write = try await rig.delivery.send(rows(2), transition: nil, strategy: .optimistic, messageId: nil)
        #expect(try await suite.until(rig.clock) { suite.state(rig.queue, write.id) == .sent })
        let done = try #require(try rig.queue.delivery(write.id))
        #expect(done.conflictSeen && done.lastError?.contains("read back") == true)
    }

    @Test func aRestartLosesNothingAndSendsNothingTwice() async throws {
        let board = try await FakeVestaboard.start()
        teardown { await board.stop() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString).sqlite").path
        // Before the "crash": one write reached the board but was not recorded as sent (flapd
        // stopped between the answer and the commit), and a newer one for another panel waits.
        do {
            let queue = try DeliveryQueue(path: path)
            let reached = try queue.enqueue(panel: "wall", rows: rows(5), transition: nil, strategy: .queued, messageId: nil, now: Date()).delivery
            try queue.begin(reached.id)
            _ = try await VestaboardClient(api: .local(board.url, key: board.localKey)).write(rows(5))
            _ = try queue.enqueue(panel: "hall", rows: rows(6), transition: nil, strategy: .queued, messageId: nil, now: Date())
        }
        let wall = try await suite.rig({ .local($0.url, key: $0.localKey) }, board: board, path: path)
        defer { wall.running.cancel() }
        #expect(try await suite.until(wall.clock) { (try wall.queue.list(panel: "wall").first?.state) == .sent })
        #expect(try await board.writes().count == 1, "the interrupted write is not sent again")
        // The other panel's write is still there, waiting for its own worker.
        #expect(try wall.queue.depth() == ["hall": 1])
    }
}
