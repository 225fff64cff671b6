import FlapHTTP
import Foundation
import Synchronization
import TestSupport
import Testing

/// Board pictures drawn once for everyone asking at the same time, one at a time, and kept.
@Suite struct PictureRendersTests {
    /// How many drawings run at once, and the most ever.
    final class Overlap: Sendable {
        let counts = Mutex((now: 0, most: 0))
        func draw(_ tag: String) -> [UInt8] {
            counts.withLock {
                $0.now += 1; $0.most = max($0.most, $0.now)
            }
            usleep(5_000)  // a drawing takes a while: others asking meanwhile must wait or share it
            counts.withLock { $0.now -= 1 }
            return Array(tag.utf8)
        }
    }

    /// The order pictures were drawn in.
    final class Order: Sendable {
        let tags = Mutex<[String]>([])
    }

    @Test func manyAskingForOnePictureAtOnceGetOneDrawing() async throws {
        let renders = PictureRenders()
        let overlap = Overlap()
        let pictures = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<32 { group.addTask { try await renders.picture(tag: "board-4096") { overlap.draw("board-4096") } } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(pictures.count == 32 && Set(pictures).count == 1)
        #expect(await renders.drawn == 1)
    }

    @Test func differentPicturesAreDrawnOneAtATimeAndTheLastFewKept() async throws {
        let renders = PictureRenders()
        let overlap = Overlap()
        let tags = (0..<PictureRenders.kept).map { "size-\($0)" }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for tag in tags { group.addTask { _ = try await renders.picture(tag: tag) { overlap.draw(tag) } } }
            try await group.waitForAll()
        }
        #expect(overlap.counts.withLock { $0.most } == 1, "never two drawings at once")
        #expect(await renders.drawn == tags.count)
        for tag in tags { _ = try await renders.picture(tag: tag) { overlap.draw(tag) } }
        #expect(await renders.drawn == tags.count, "kept: none drawn again")
        _ = try await renders.picture(tag: "one-more") { overlap.draw("one-more") }
        _ = try await renders.picture(tag: tags[0]) { overlap.draw(tags[0]) }
        #expect(await renders.drawn == tags.count + 2, "the oldest made room for the newest")
    }

    /// 296 viewer-key requests at widths from 3 800 to 4 095, 64 at a time, cost 29 CPU-seconds
    /// and kept an owner's picture waiting 4.35 s. Others' drawings now wait at most four at a
    /// time within a rate, and the household's go first.
    @Test func othersWaitWithinABudgetAndTheHouseholdGoesFirst() async throws {
        let renders = PictureRenders()
        let gate = DispatchSemaphore(value: 0)
        let order = Order()
        let drawing: @Sendable (String) -> @Sendable () -> [UInt8] = { tag in
            {
                order.tags.withLock { $0.append(tag) }; return Array(tag.utf8)
            }
        }
        let first = Task {
            try await renders.picture(tag: "owner-first") {
                gate.wait(); return [0]
            }
        }
        #expect(try await eventually { await renders.drawn == 1 })
        let others = (0..<PictureRenders.othersWaiting).map { n in
            Task { try await renders.picture(tag: "width-\(3_800 + n)", for: .other, draw: drawing("width-\(3_800 + n)")) }
        }
        #expect(try await eventually { await renders.waiting.others == PictureRenders.othersWaiting })
        await #expect(throws: PictureRenders.PicturesBusy.self) {
            try await renders.picture(tag: "width-4000", for: .other, draw: drawing("width-4000"))
        }
        let owner = Task { try await renders.picture(tag: "owner-second", draw: drawing("owner-second")) }
        #expect(try await eventually { await renders.waiting.household == 1 })
        gate.signal()
        _ = try await first.value
        _ = try await owner.value
        for other in others { _ = try await other.value }
        #expect(order.tags.withLock { $0.first } == "owner-second", "\(order.tags.withLock { $0 })")
        #expect(order.tags.withLock { $0.count } == 1 + PictureRenders.othersWaiting, "the refused one was never drawn")
    }
}
