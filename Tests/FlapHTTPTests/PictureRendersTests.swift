import FlapHTTP
import Foundation
import Synchronization
import Testing

/// Board pictures drawn once for everyone asking at the same time, one at a time, and kept.
@Suite struct PictureRendersTests {
    /// How many drawings run at once, and the most ever.
    final class Overlap: Sendable {
        let counts = Mutex((now: 0, most: 0))
        func draw(_ tag: String) -> [UInt8] {
            counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            usleep(5_000)  // a drawing takes a while: others asking meanwhile must wait or share it
            counts.withLock { $0.now -= 1 }
            return Array(tag.utf8)
        }
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
}
