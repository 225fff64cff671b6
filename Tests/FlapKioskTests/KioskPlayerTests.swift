import FlapClocks
import FlapCore
import FlapHardware
import FlapSimulated
import Foundation
import Synchronization
import TestSupport
import Testing
import Wematch

@testable import FlapKiosk

/// The frame loop on a manual clock, through a real pixel panel onto a simulated framebuffer.
@Suite(.timeLimit(.minutes(3))) struct KioskPlayerTests {
    @Test func aHeartGlidesFrameByFrameToItsNewPoint() async throws {
        let clock = ManualClock()
        let memory = SimulatedFramebuffer(format: try FramebufferFormat(width: 320, height: 240, layout: .xrgb8888))
        let display = FramebufferDisplay(memory: memory)
        let renderer = try BoardRenderer(size: BoardSize(rows: 2, columns: 10), width: 320, height: 240, style: .screen)
        let info = PanelInfo(id: "main", size: BoardSize(rows: 2, columns: 10), drum: .vestaboard, motion: .shortestWay, driver: "framebuffer")
        let panel = PixelPanel(info: info, display: display, renderer: renderer, clock: clock, minuteOfDay: { 600 })
        let room = Mutex(Room<ManualClock.Instant>(name: "lobby"))
        let start = clock.now
        room.withLock { room in
            room.join("a", MemberRecord(name: "a", colour: "#ff0000", joinedAt: Date(timeIntervalSince1970: 1_795_000_000)), now: start)
            room.receive(HeartSample(previous: 60, current: 60, seq: 1), from: "a", now: start)
        }
        let player = KioskPlayer(
            width: 320, height: 240, framesPerSecond: 20, clock: clock,
            plot: { room.withLock { $0.plot(now: clock.now) } }, show: { try await panel.present($0) })
        let geometry = PlotGeometry(width: 320, height: 240)
        let running = Task { await player.run() }
        defer { running.cancel() }
        func heartAt(_ point: HeartPoint) -> Bool {
            let (x, y) = geometry.pixel(point)
            return memory.picture[Int(x.rounded()), Int(y.rounded())] == RGB(255, 0, 0)
        }
        /// Moves time on a frame at a time, letting each frame be drawn.
        func step(_ duration: Duration) async {
            for _ in 0..<Int(duration / .milliseconds(50)) {
                while !clock.hasSleepers { await Task.yield() }
                await clock.advance(by: .milliseconds(50))
            }
            while !clock.hasSleepers { await Task.yield() }
        }
        await step(.milliseconds(50))
        #expect(heartAt(HeartPoint(previous: 60, current: 60)))
        // A sample moves the heart to (60, 120): it glides there over 0.8 s, not jumps.
        room.withLock { $0.receive(HeartSample(previous: 60, current: 120, seq: 2), from: "a", now: clock.now) }
        await step(.milliseconds(50))
        #expect(heartAt(HeartPoint(previous: 60, current: 60)))
        await step(.milliseconds(400))
        // Half-way in time, half-way on the ease-in-out (it is symmetric).
        #expect(heartAt(HeartPoint(previous: 60, current: 90)))
        #expect(!heartAt(HeartPoint(previous: 60, current: 60)))
        await step(.milliseconds(450))
        #expect(heartAt(HeartPoint(previous: 60, current: 120)))
        // 20 frames a second: a frame for each 50 ms step.
        #expect(await player.framesShown >= 18)
        #expect(await panel.framesShown == (await player.framesShown))
    }
}
