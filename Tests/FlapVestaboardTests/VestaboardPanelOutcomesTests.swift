import FlapCore
import FlapHardware
import Foundation
import TestSupport
import Testing

@testable import FlapVestaboard

/// A panel that is handed a new board before the last one reached the Vestaboard keeps nothing
/// of the writes it gave up on (a soak found their outcomes piling up).
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct VestaboardPanelOutcomesTests {
    let suite = BoardDeliveryTests()

    @Test func outcomesOfAbandonedAndSupersededWritesAreNotKept() async throws {
        let rig = try await suite.rig { .local($0.url, key: $0.localKey) }
        let size = BoardSize.flagship
        let panel = VestaboardPanel(
            info: PanelInfo(id: "wall", size: size, drum: .vestaboard, motion: .forwardOnly, driver: "vestaboard"),
            delivery: rig.delivery, clock: rig.clock, strategy: .queued, takesTransitions: true)
        await panel.start()
        let planner = try FlipPlanner()
        var playing: Task<Void, any Error>?
        var last = Board(size: size)
        for index in 0..<30 {
            let target = try Board(rows: TextLayout.encodeText("BOARD \(index)", options: LayoutOptions(size: size)).rows)
            let plan = try planner.plan(from: last, to: target)
            last = target
            // As the motion loop does: a new target cancels the play in progress.
            playing?.cancel()
            playing = Task { try await panel.play(plan, cutoff: PlayCutoff()) }
            if index % 3 == 0 { try await Task.sleep(for: .milliseconds(5)) }
        }
        let final = last.codeRows
        #expect(try await suite.until(rig.clock) { try await rig.board.log().board == final })
        // The last write's outcome has been taken by its play, which now waits out the motion.
        #expect(try await suite.until(rig.clock) { await panel.heldOutcomes == 0 })
        playing?.cancel()
        let held = await panel.heldOutcomes
        #expect(held <= 1, "outcomes kept: \(held)")
    }
}
