import FlapDisplay
import FlapKiosk
import FlapRooms

/// What a panel whose policy is `kiosk` shows instead of messages: the Wematch room, its plot on
/// pixels, its summary in flaps.
struct RoomShow: Sendable {
    let room: RoomService<ContinuousClock>

    func show(on stage: PanelStage) async {
        if let pixels = stage.pixels {
            let player = KioskPlayer(
                width: pixels.width, height: pixels.height, monochrome: pixels.monochrome,
                framesPerSecond: pixels.framesPerSecond, clock: stage.clock,
                plot: { await room.plot() }, show: pixels.present)
            await player.run()
        } else {
            let summary = RoomSummaryCoordinator(
                panelID: stage.id, motion: stage.motion, size: stage.size, clock: stage.clock, logger: stage.logger
            ) {
                await room.state()
            }
            await summary.run()
        }
    }
}
