import FlapCore
import FlapHardware
import FlapStorage
import Foundation
import TestSupport
import Testing

@testable import FlapVestaboard

/// The outbox on a disk that fills up: the board it could not queue is queued, and written, by
/// itself once there is room, and the file stays sound.
@Suite(.cleansUp, .timeLimit(.minutes(2)), .enabled(if: SmallFilesystem.canMount, "mounting a small filesystem needs root"))
struct OutboxStorageTests {
    let suite = BoardDeliveryTests()

    @Test func aBoardTheFullDiskCouldNotQueueIsWrittenOnceThereIsRoom() async throws {
        let disk = try await SmallFilesystem.mount(mebibytes: 6)
        teardown { await disk.unmount() }
        let path = disk.path + "/outbox.sqlite"
        let rig = try await suite.rig({ .local($0.url, key: $0.localKey) }, path: path)
        let size = BoardSize.flagship
        let panel = VestaboardPanel(
            info: PanelInfo(id: "wall", size: size, drum: .vestaboard, motion: .forwardOnly, driver: "vestaboard"),
            delivery: rig.delivery, clock: rig.clock, strategy: .queued, takesTransitions: true)
        await panel.start()
        let target = try Board(rows: TextLayout.encodeText("FULL DISK", options: LayoutOptions(size: size)).rows)
        let plan = try FlipPlanner().plan(from: Board(size: size), to: target)

        try disk.fill()
        let playing = Task { try await panel.play(plan, cutoff: PlayCutoff()) }
        // Refused by the disk: said once, nothing written to the board.
        #expect(try await suite.until(rig.clock) { !rig.queue.health.faults.isEmpty })
        #expect(rig.queue.health.faults.first?.kind == .full && rig.queue.health.faults.first?.path == path)
        #expect(try await rig.board.writes().isEmpty)

        try disk.free()
        #expect(try await suite.until(rig.clock) { try await rig.board.log().board == target.codeRows })
        #expect(rig.queue.health.faults.isEmpty)
        playing.cancel()
        #expect(try await sqliteIntegrity(path) == "ok")
    }
}
