import FlapDisplay
import FlapHardware
import FlapKiosk
import FlapRooms

/// What a panel whose policy is `kiosk` shows instead of messages: the Wematch room, its plot on
/// pixels, its summary in flaps.
struct RoomShow: Sendable {
    let room: RoomService<ContinuousClock>

    func show(on stage: PanelStage) async {
        if let pixels = stage.pixels {
            let player = KioskPlayer(
                width: pixels.surface.width, height: pixels.surface.height, monochrome: pixels.surface.monochrome,
                framesPerSecond: pixels.framesPerSecond, clock: stage.clock,
                plot: { await room.plot() }, show: { try await pixels.present($0) })
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
