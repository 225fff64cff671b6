import FlapControl
import FlapCore
import FlapHardware
import FlapPrimitives
import FlapSimulated
import Foundation

/// `flapbench --frames`: the CPU time one animation frame costs, from the plan to the bytes
/// or library calls the device gets, and what 60 frames a second take of one core.
struct FramesBench {
    let seconds: Double
    let output: StandardStream

    /// A SPI bus that takes the bytes and does nothing with them: the driver's own cost, without
    /// a simulated chip's.
    final class DiscardingSPI: SPIDevice {
        let name = "discarding SPI"
        let speedHz = 10_000_000
        func transfer(_ bytes: [UInt8]) throws -> [UInt8] { bytes }
        func close() {}
    }

    struct Workload {
        var name: String
        var size: BoardSize
        var width: Int
        var height: Int
        var display: any PixelDisplay
    }

    func run() async throws {
        output.write("flapbench --frames: CPU time (user + system) per frame, best (median) of 3 rounds of \(seconds) s each\n")
        var hub75Options = RGBMatrixOptions()
        hub75Options.rows = 32
        hub75Options.columns = 64
        let workloads = [
            Workload(
                name: "64×32 RGB (HUB75 canvas), 4×10 board", size: BoardSize(rows: 4, columns: 10), width: 64, height: 32,
                display: try HUB75Display(api: SimulatedRGBMatrix(), options: hub75Options)),
            Workload(
                name: "32×8 MAX7219 (SPI bytes), 1×5 board", size: BoardSize(rows: 1, columns: 5), width: 32, height: 8,
                display: MAX7219Display(spi: DiscardingSPI(), cascade: try MAX7219Cascade(width: 32))),
            Workload(
                name: "1280×720 screen (xrgb8888), 6×22 board", size: .flagship, width: 1280, height: 720,
                display: FramebufferDisplay(memory: SimulatedFramebuffer(format: try FramebufferFormat(width: 1280, height: 720, layout: .xrgb8888))))
        ]
        for workload in workloads {
            let renderer = try BoardRenderer(
                size: workload.size, width: workload.width, height: workload.height,
                style: workload.width > 256 ? .screen : .led)
            let planner = try FlipPlanner(motion: .shortestWay)
            var plans: [(FlipPlan, [Duration])] = []
            for seed in 1...8 as ClosedRange<UInt64> {
                let plan = try planner.plan(from: Self.board(seed: seed, size: workload.size), to: Self.board(seed: seed + 100, size: workload.size))
                plans.append((plan, FlipAnimation.frameTimes(duration: plan.duration, framesPerSecond: 60)))
            }
            // As a panel draws: only what changed since the frame before, sent as rectangles.
            var drawing = BoardFrame(renderer: renderer)
            var rounds: [Double] = []
            for _ in 0..<3 {
                var frames = 0
                let wall = ContinuousClock.now, cpu = Self.cpuSeconds()
                while ContinuousClock.now - wall < .seconds(seconds) {
                    let (plan, times) = plans[frames % plans.count]
                    for time in times {
                        let changed = drawing.draw(plan, at: time)
                        try await workload.display.show(drawing.frame, brightness: 1, changed: changed)
                    }
                    frames += times.count
                }
                rounds.append((Self.cpuSeconds() - cpu) / Double(frames))
            }
            rounds.sort()
            let best = rounds[0], median = rounds[1]
            output.write(
                "\(workload.name.padding(toLength: 44, withPad: " ", startingAt: 0)) "
                    + String(format: "%9.1f µs/frame (%.1f)   at 60 fps: %.2f %% of a core\n", best * 1e6, median * 1e6, best * 60 * 100))
            output.flush()
        }
    }

    static func board(seed: UInt64, size: BoardSize) -> Board {
        var random = SeededRandom(seed: seed)
        var board = Board(size: size)
        for r in 0..<size.rows {
            for c in 0..<size.columns { board[r, c] = CharacterCode.all[Int(random.next() % 66)] }
        }
        return board
    }

    /// This process's CPU time so far.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
