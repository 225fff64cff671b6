import FlapClocks
import FlapCore
import FlapHardware
import FlapSimulated
import Foundation
import TestSupport
import Testing
import Wematch

@testable import FlapKiosk

/// The plot drawn through the real display drivers onto simulated devices and read back.
@Suite struct KioskPictureTests {
    typealias Instant = ManualClock.Instant
    let t0 = ManualClock().now
    let joined = Date(timeIntervalSince1970: 1_795_000_000)

    /// a–b synced (hard), c–d–e a path (soft, chain 3), f alone, g stale.
    func room() -> Room<Instant> {
        var room = Room<Instant>(name: "lobby")
        let points: [(MemberID, Double, Double)] = [
            ("a", 70, 70), ("b", 72, 71), ("c", 120, 150), ("d", 124, 150), ("e", 128, 150), ("f", 170, 80), ("g", 100, 60)
        ]
        for (index, (id, previous, current)) in points.enumerated() {
            room.join(
                id, MemberRecord(name: "member_\(id)", colour: Palette.colours[index * 3], joinedAt: joined.addingTimeInterval(Double(index))),
                now: t0)
            room.receive(HeartSample(previous: previous, current: current, seq: 1), from: id, now: t0)
        }
        _ = room.update(now: t0)
        // A minute and a half on (the stars have drifted), g has fallen silent: stale, not yet gone.
        for second in stride(from: 2, through: 90, by: 2) {
            for (id, previous, current) in points where id != "g" || second <= 84 {
                room.receive(HeartSample(previous: previous, current: current, seq: 1 + second), from: id, now: t0.advanced(by: .seconds(second)))
            }
            _ = room.update(now: t0.advanced(by: .seconds(second)))
        }
        return room
    }

    var later: ManualClock.Instant { t0.advanced(by: .seconds(90)) }

    func rgb(_ hex: String) -> RGB { let (r, g, b) = Palette.rgb(hex)!; return RGB(r, g, b) }

    @Test func theScreenShowsHeartsRingsAxesAndTheLegend() async throws {
        var room = room()
        let plot = room.plot(now: later)
        #expect(plot.state.clusters.map(\.kind) == ["hard", "soft"])
        let memory = SimulatedFramebuffer(format: try FramebufferFormat(width: 1280, height: 720, layout: .xrgb8888))
        let display = FramebufferDisplay(memory: memory)
        let picture = KioskPicture(width: 1280, height: 720)
        try await display.show(picture.draw(plot, positions: [:]), brightness: 1)
        let shown = memory.picture
        let geometry = picture.geometry
        if let path = ProcessInfo.processInfo.environment["KIOSK_PICTURE"] { try Data(StoredPNG.encode(shown)).write(to: URL(fileURLWithPath: path)) }

        // Each heart in its colour at its point (the stale one dimmed), where no later one covers it.
        for heart in uncovered(plot, geometry) {
            let (x, y) = geometry.pixel(heart.point)
            let expected = heart.stale ? rgb(heart.colour).scaled(by: 0.3) : rgb(heart.colour)
            #expect(shown[Int(x.rounded()), Int(y.rounded())] == expected, "heart \(heart.id)")
        }
        // The axes: the corner at (40, 40) and the far ends are lit.
        let origin = geometry.pixel(HeartPoint(previous: 40, current: 40))
        #expect(shown[Int(origin.x), Int(origin.y)].isLit)
        #expect(shown[Int(geometry.pixel(HeartPoint(previous: 200, current: 40)).x), Int(origin.y)].isLit)
        // The diagonal of steady rates passes through (110, 110), dashed on a screen.
        let diagonal = (60...180).map { Double($0) }.map { geometry.pixel(HeartPoint(previous: $0, current: $0)) }
        let lit = diagonal.filter { shown[Int($0.x.rounded()), Int($0.y.rounded())].isLit }.count
        #expect(lit > diagonal.count / 3 && lit < diagonal.count)

        // Rings: solid around a–b, dashed around c–d–e.
        let hard = ringCoverage(shown, plot: plot, cluster: plot.state.clusters[0], geometry: geometry)
        let soft = ringCoverage(shown, plot: plot, cluster: plot.state.clusters[1], geometry: geometry)
        #expect(hard > 0.95, "solid ring \(hard)")
        #expect(soft > 0.3 && soft < 0.75, "dashed ring \(soft)")

        // The legend holds each member's colour chip; nothing is drawn beyond the display.
        let legend = geometry.legend!
        for member in plot.state.members where !member.stale {
            #expect(shown.pixels.contains(rgb(member.colour)))
        }
        #expect((legend.left..<1280).contains { x in (0..<720).contains { shown[x, $0].isLit } })
    }

    @Test func aSixtyFourByThirtyTwoMatrixShowsEveryHeartInItsPlace() async throws {
        var room = room()
        let plot = room.plot(now: later)
        let matrix = SimulatedRGBMatrix()
        var options = RGBMatrixOptions()
        options.rows = 32
        options.columns = 64
        let display = try HUB75Display(api: matrix, options: options)
        let picture = KioskPicture(width: display.width, height: display.height)
        #expect(picture.geometry.side == 32)
        try await display.show(picture.draw(plot, positions: [:]), brightness: 1)
        let shown = matrix.shown
        for heart in uncovered(plot, picture.geometry) where !heart.stale {
            let (x, y) = picture.geometry.pixel(heart.point)
            // The 5×5 heart's middle row is solid: its centre is the member's colour, unless a
            // ring drawn later crosses it.
            #expect(shown[Int(x.rounded()), Int(y.rounded())] == rgb(heart.colour), "heart \(heart.id)")
        }
        // The legend's counts are to the right of the square plot.
        #expect((33..<64).contains { x in (0..<32).contains { shown[x, $0].isLit } })
    }

    @Test func heartsGlideBetweenFramesAndStarsFade() async throws {
        var room = Room<Instant>(name: "lobby")
        for (id, current) in [("a", 70.0), ("b", 90.0)] {
            room.join(id, MemberRecord(name: id, colour: Palette.colours[0], joinedAt: joined), now: t0)
            room.receive(HeartSample(previous: current, current: current, seq: 1), from: id, now: t0)
        }
        var plot = room.plot(now: t0)
        #expect(plot.stars.isEmpty && plot.starsLit == 0)
        var bell = SyncBell()
        #expect(bell.newPairs(in: plot) == 0)
        // b comes down to a: they sync, a star is lit, the bell rings once.
        room.receive(HeartSample(previous: 72, current: 71, seq: 2), from: "b", now: t0.advanced(by: .seconds(1)))
        plot = room.plot(now: t0.advanced(by: .seconds(1)))
        #expect(plot.starsLit == 1 && plot.stars.count == 1 && plot.stars[0].opacity == 1)
        #expect(bell.newPairs(in: plot) == 1)
        #expect(bell.newPairs(in: plot) == 0)
        // The star has faded after 3 minutes and 5 seconds.
        for second in stride(from: 2, through: 186, by: 2) {
            for id in ["a", "b"] {
                room.receive(HeartSample(previous: 72, current: 72, seq: 2 + second), from: id, now: t0.advanced(by: .seconds(second)))
            }
        }
        plot = room.plot(now: t0.advanced(by: .seconds(186)))
        #expect(plot.stars.isEmpty && plot.starsLit == 1)
    }
}

extension KioskPictureTests {
    /// Hearts no later-drawn heart overlaps (synced hearts sit close and overlap by design).
    func uncovered(_ plot: RoomPlot, _ geometry: PlotGeometry) -> [RoomPlot.Heart] {
        plot.hearts.enumerated().filter { index, heart in
            let (x, y) = geometry.pixel(heart.point)
            return !plot.hearts[(index + 1)...].contains { later in
                let (lx, ly) = geometry.pixel(later.point)
                return abs(lx - x) < Double(2 * geometry.heartRadius + 2) && abs(ly - y) < Double(2 * geometry.heartRadius + 2)
            }
        }.map(\.element)
    }

    /// The share of points on the cluster's ring (as the picture places it) that are lit.
    func ringCoverage(_ frame: PixelFrame, plot: RoomPlot, cluster: RoomState.Cluster, geometry: PlotGeometry) -> Double {
        let points = plot.hearts.filter { cluster.members.contains($0.id) }.map { geometry.pixel($0.point) }
        let centre = (x: points.map(\.x).reduce(0, +) / Double(points.count), y: points.map(\.y).reduce(0, +) / Double(points.count))
        let reach = points.map { (($0.x - centre.x) * ($0.x - centre.x) + ($0.y - centre.y) * ($0.y - centre.y)).squareRoot() }.max()!
        let radius = reach + Double(geometry.heartRadius) + Double(max(2, geometry.heartRadius / 2))
        var lit = 0
        let samples = 360
        for step in 0..<samples {
            let angle = Double(step) / Double(samples) * 2 * .pi
            let x = Int((centre.x + radius * cos(angle)).rounded()), y = Int((centre.y + radius * sin(angle)).rounded())
            if frame[x, y] == KioskPicture.ringColour { lit += 1 }
        }
        return Double(lit) / Double(samples)
    }
}
