import FlapControl
import FlapCore
import FlapHardware
import FlapKiosk
import FlapSimulated
import Foundation
import Synchronization
import Wematch

/// `flapbench --rooms`, the kiosk's part: the cost of one frame of the room's plot (drawn and
/// put on the device through its real driver, onto the simulated twin) on a 64×32 HUB75 matrix
/// and a 1280×720 framebuffer, and the latency from a sample entering the room to the first
/// frame shown that is drawn from it (its heart's glide begins), the frame loop running at 60
/// frames a second.
struct KioskBench {
    let seconds: Double
    let output: StandardStream

    func run() async throws {
        let matrix = SimulatedRGBMatrix()
        var options = RGBMatrixOptions()
        options.rows = 32
        options.columns = 64
        let hub75 = try HUB75Display(api: matrix, options: options)
        let screen = FramebufferDisplay(memory: SimulatedFramebuffer(format: try FramebufferFormat(width: 1280, height: 720, layout: .xrgb8888)))
        for (name, display) in [("64×32 HUB75 matrix", hub75 as any PixelDisplay), ("1280×720 framebuffer", screen)] {
            try await frameCost(name, display)
        }
        try await latency()
    }

    /// A room of 20 members, 5 clusters of them synced, stars shining.
    static func room(at start: ContinuousClock.Instant) -> Room<ContinuousClock.Instant> {
        var room = Room<ContinuousClock.Instant>(name: "bench")
        for i in 0..<20 {
            room.join(
                "m\(i)",
                MemberRecord(
                    name: MemberNames.name(for: "m\(i)", avoiding: []), colour: Palette.colours[i],
                    joinedAt: Date(timeIntervalSince1970: Double(i))), now: start)
            let bpm = 55 + Double(i / 4) * 25 + Double(i % 4) * 2
            room.receive(HeartSample(previous: bpm, current: bpm + 1, seq: 1), from: "m\(i)", now: start)
        }
        _ = room.update(now: start)
        return room
    }

    private func frameCost(_ name: String, _ display: any PixelDisplay) async throws {
        let clock = ContinuousClock()
        var room = Self.room(at: clock.now)
        let picture = KioskPicture(width: display.width, height: display.height)
        var glides = HeartGlides<ContinuousClock.Instant>()
        var times: [Duration] = []
        let end = clock.now + .milliseconds(Int(seconds * 1000))
        var seq = 1
        while clock.now < end || times.count < 20 {
            seq += 1
            let now = clock.now
            // Every heart on the move: the most a frame has to draw.
            for i in 0..<20 where seq % 30 == 0 {
                let bpm = 55 + Double(i / 4) * 25 + Double(i % 4) * 2 + Double(seq % 7)
                room.receive(HeartSample(previous: bpm, current: bpm + 1, seq: seq), from: "m\(i)", now: now)
            }
            let began = clock.now
            let plot = room.plot(now: began)
            glides.follow(plot.hearts, at: began)
            var positions: [MemberID: HeartPoint] = [:]
            for heart in plot.hearts { positions[heart.id] = glides.position(of: heart.id, at: began) }
            try await display.show(picture.draw(plot, positions: positions), brightness: 1)
            times.append(began.duration(to: clock.now))
        }
        times.sort()
        let median = times[times.count / 2]
        write(
            "kiosk frame, \(name) (room of 20, 5 clusters)",
            "median \(WematchBench.microseconds(median))  p99 \(WematchBench.microseconds(times[times.count * 99 / 100]))  (\(String(format: "%.0f", 1 / (median / .seconds(1)))) frames/s on one core)"
        )
    }

    private func latency() async throws {
        let clock = ContinuousClock()
        let room = Mutex(Self.room(at: clock.now))
        let screen = FramebufferDisplay(memory: SimulatedFramebuffer(format: try FramebufferFormat(width: 1280, height: 720, layout: .xrgb8888)))
        // When the sample under test went in, and the seq of the plot drawn last.
        let probe = Mutex<(sent: ContinuousClock.Instant?, seq: Int, drawnSeq: Int, latencies: [Duration])>((nil, 1, 0, []))
        let player = KioskPlayer(
            width: 1280, height: 720, framesPerSecond: 60, clock: clock,
            plot: {
                let plot = room.withLock { $0.plot(now: clock.now) }
                probe.withLock { $0.drawnSeq = plot.hearts.first { $0.id == "m0" }?.seq ?? 0 }
                return plot
            },
            show: { frame in
                try await screen.show(frame, brightness: 1)
                probe.withLock { p in
                    if let sent = p.sent, p.drawnSeq == p.seq {
                        p.latencies.append(sent.duration(to: clock.now))
                        p.sent = nil
                    }
                }
            })
        let playing = Task { await player.run() }
        let end = clock.now + .milliseconds(Int(seconds * 1000))
        var seq = 1
        var random = SystemRandomNumberGenerator()
        while clock.now < end || probe.withLock({ $0.latencies.count }) < 20 {
            // Samples arrive at any moment between frames, as they do from the broker.
            try await clock.sleep(for: .milliseconds(Int.random(in: 80...120, using: &random)))
            seq += 1
            let bpm = 60 + Double(seq % 20)
            let sent = clock.now
            room.withLock { $0.receive(HeartSample(previous: bpm, current: bpm + 1, seq: seq), from: "m0", now: sent) }
            probe.withLock {
                $0.sent = sent; $0.seq = seq
            }
        }
        playing.cancel()
        var latencies = probe.withLock { $0.latencies }
        latencies.sort()
        write(
            "sample → kiosk frame shown, 1280×720 at 60 frames/s",
            "median \(WematchBench.microseconds(latencies[latencies.count / 2]))  p99 \(WematchBench.microseconds(latencies[latencies.count * 99 / 100]))  (\(latencies.count) samples)"
        )
    }

    private func write(_ name: String, _ value: String) {
        output.write("\(name.padding(toLength: 64, withPad: " ", startingAt: 0)) \(value)\n")
        output.flush()
    }
}
