import FlapClocks
import Foundation
import Logging
import Synchronization
import TestSupport
import Testing

@testable import FlapVestaboard

/// The delivery queue and its worker against the fake Vestaboard over real HTTP, the worker's
/// waits on a manual clock: the clock moves only while the worker sleeps on it, and the HTTP is
/// waited for as it comes (its timeout, real time, is far from anything a test waits on).
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct BoardDeliveryTests {
    let base = Date(timeIntervalSince1970: 1_800_000_000)

    func rows(_ code: Int) -> [[Int]] { (0..<6).map { r in (0..<22).map { c in r == 2 && c == 3 ? code : 0 } } }

    struct Rig {
        let board: FakeVestaboard
        let clock: ManualClock
        let queue: DeliveryQueue
        let delivery: BoardDelivery<ManualClock>
        let path: String
        let running: Task<Void, Never>
    }

    func rig(
        _ api: (FakeVestaboard) -> VestaboardAPI, board: FakeVestaboard? = nil, path: String? = nil,
        onConflict: ConflictChoice = .refuse, timeout: Duration = .seconds(10)
    ) async throws -> Rig {
        let fake: FakeVestaboard
        if let board { fake = board } else { fake = try await FakeVestaboard.start() }
        let clock = ManualClock()
        let base = self.base
        let path = path ?? FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString).sqlite").path
        let queue = try DeliveryQueue(path: path)
        let delivery = BoardDelivery(
            panel: "wall", client: VestaboardClient(api: api(fake), timeout: timeout), queue: queue, clock: clock,
            now: { base.addingTimeInterval(clock.now.offset / .seconds(1)) }, onConflict: onConflict,
            logger: Logger(label: "test"))
        let running = Task { await delivery.run() }
        teardown {
            running.cancel()
            await running.value
            if board == nil { await fake.stop() }
        }
        return Rig(board: fake, clock: clock, queue: queue, delivery: delivery, path: path, running: running)
    }

    /// Waits until `condition` holds, moving the manual clock on by `step` each time the worker
    /// sleeps on it, and otherwise looking again shortly (the HTTP is real); the suite's time
    /// limit, not a count of looks, ends a wait that never ends.
    func until(_ clock: ManualClock, step: Duration = .milliseconds(500), _ condition: @Sendable () async throws -> Bool) async throws -> Bool {
        while true {
            if try await condition() { return true }
            if clock.hasSleepers { await clock.advance(by: step) } else { try await Task.sleep(for: .milliseconds(5)) }
        }
    }

    func state(_ queue: DeliveryQueue, _ id: Int64) -> Delivery.State? { try? queue.delivery(id)?.state }

    @Test func aBoardIsWrittenThroughTheLocalAPIWithItsTransition() async throws {
        let rig = try await rig { .local($0.url, key: $0.localKey) }
        let sent = try await rig.delivery.send(
            rows(8), transition: BoardTransition(strategy: "column", stepSize: 2, stepIntervalMs: 50),
            strategy: .queued, messageId: "m1")
        #expect(try await until(rig.clock) { state(rig.queue, sent.id) == .sent })
        let (requests, board) = try await rig.board.log()
        #expect(board == rows(8))
        let write = try #require(requests.first { $0.method == "POST" })
        #expect(write.api == "local" && write.status == "201")
        #expect(
            write.body.contains("\"strategy\":\"column\"") && write.body.contains("\"step_size\":2") && write.body.contains("\"step_interval_ms\":50")
        )
        #expect(try rig.queue.delivery(sent.id)?.attempts == 1)
        #expect(await rig.delivery.health.reachable == true)
    }

    @Test func aBoardForAnIdleWorkerIsQueuedAlreadyBegunInOneCommit() async throws {
        let rig = try await rig { .local($0.url, key: $0.localKey) }
        #expect(try await until(rig.clock) { await rig.delivery.idle })
        // Queued and begun together, before the worker has looked: one fsync before the write,
        // and a restart in between reads the board back before writing it again.
        let sent = try await rig.delivery.send(rows(3), transition: nil, strategy: .queued, messageId: "m1")
        let queued = try #require(try rig.queue.delivery(sent.id))
        #expect(sent.state == .sending || queued.state == .sent)
        #expect(sent.attempts == 1)
        #expect(try await until(rig.clock) { state(rig.queue, sent.id) == .sent })
        #expect(try rig.queue.delivery(sent.id)?.attempts == 1)
        #expect(try await rig.board.log().board == rows(3))
    }

    @Test func failuresAreRetriedAt2_4_8_16And32SecondsAndFinalOnesAreNot() async throws {
        // A timeout that a busy machine's ordinary answer never reaches, and an answer far past it.
        let rig = try await rig({ .local($0.url, key: $0.localKey) }, timeout: .seconds(5))
        // A 500, a dropped connection, an answer past the timeout: retried, then it lands.
        try await rig.board.fail("500", "drop", "slow:20")
        let sent = try await rig.delivery.send(rows(1), transition: nil, strategy: .queued, messageId: nil)
        let waits = Waits()
        let base = self.base
        #expect(
            try await until(rig.clock) {
                if let d = try rig.queue.delivery(sent.id), d.state == .pending, d.attempts > waits.count {
                    waits.append(d.notBefore.timeIntervalSince(base) - rig.clock.now.offset / .seconds(1))
                }
                return state(rig.queue, sent.id) == .sent
            })
        #expect(try rig.queue.delivery(sent.id)?.attempts == 4)
        #expect(waits.values.map { $0.rounded() } == [2, 4, 8], "\(waits.values)")

        // 400, 401 and 403 are final at once.
        for status in ["400", "401", "403"] {
            try await rig.board.fail(status)
            let refused = try await rig.delivery.send(rows(2), transition: nil, strategy: .queued, messageId: nil)
            #expect(try await until(rig.clock) { state(rig.queue, refused.id) == .failed })
            let failed = try #require(try rig.queue.delivery(refused.id))
            #expect(failed.attempts == 1 && failed.lastError?.contains(status) == true, "\(failed.lastError ?? "")")
        }

        // Six 500s: the first attempt and five retries, then it is given up.
        try await rig.board.fail("500", "500", "500", "500", "500", "500")
        let doomed = try await rig.delivery.send(rows(3), transition: nil, strategy: .queued, messageId: nil)
        #expect(try await until(rig.clock) { state(rig.queue, doomed.id) == .failed })
        #expect(try rig.queue.delivery(doomed.id)?.attempts == 6)
        #expect(try await rig.board.writes().filter { $0.body.contains("3,") }.count == 6)
    }

    @Test func retryAfterIsHonoured() async throws {
        let rig = try await rig { .local($0.url, key: $0.localKey) }
        try await rig.board.fail("429:7")
        let sent = try await rig.delivery.send(rows(4), transition: nil, strategy: .queued, messageId: nil)
        #expect(
            try await until(rig.clock, step: .milliseconds(100)) {
                (try rig.queue.delivery(sent.id)?.attempts ?? 0) == 1 && state(rig.queue, sent.id) == .pending
            })
        let waiting = try #require(try rig.queue.delivery(sent.id))
        #expect(waiting.notBefore.timeIntervalSince(base) - rig.clock.now.offset / .seconds(1) >= 6.9)
        #expect(try await until(rig.clock) { state(rig.queue, sent.id) == .sent })
    }
}

/// Retry waits seen, from the polling closure.
final class Waits: Sendable {
    private let seen = Mutex<[TimeInterval]>([])
    var count: Int { seen.withLock { $0.count } }
    var values: [TimeInterval] { seen.withLock { $0 } }
    func append(_ value: TimeInterval) { seen.withLock { $0.append(value) } }
}
