import FlapClocks
import FlapCore
import FlapHardware
import FlapSimulated
import Synchronization
import TestSupport
import Testing

/// LED panels on their simulated devices, on a clock the test moves.
@Suite(.timeLimit(.minutes(3))) struct PixelPanelTests {
    final class TimeOfDay: Sendable {
        let minute = Mutex(12 * 60)
        var now: @Sendable () -> Int { { self.minute.withLock { $0 } } }
    }

    static func board(_ text: String, size: BoardSize) throws -> Board {
        try Board(rows: TextLayout.encodeText(text, options: LayoutOptions(size: size)).rows)
    }

    static func plan(_ panel: some Panel, to text: String) async throws -> FlipPlan {
        let planner = try FlipPlanner(drum: panel.info.drum, motion: .shortestWay)
        let motion = await panel.positions().map { ModuleMotion(position: $0) }
        return try planner.plan(from: motion, to: try board(text, size: panel.info.size))
    }

    /// Plays `plan`, moving the clock on to each frame as the panel waits for it.
    static func play(_ plan: FlipPlan, on panel: some Panel, clock: ManualClock) async throws {
        let done = Done()
        let playing = Task {
            defer { done.set() }
            try await panel.play(plan, cutoff: PlayCutoff())
        }
        while !done.isSet {
            // The panel waits at most a frame ahead while playing (the resting watch, longer).
            let waiting = await clock.settle { deadlines, now in done.isSet || deadlines.contains { now.duration(to: $0) <= .seconds(1) } }
            #expect(waiting, "the panel neither waited for a frame nor finished")
            if done.isSet || !waiting { break }
            if let next = clock.nextDeadline { clock.jump(by: clock.now.duration(to: next)) }
        }
        try await playing.value
    }

    /// Lets the resting panel's watch run after the clock moved: it sleeps again when done.
    static func rest(_ clock: ManualClock, by duration: Duration) async {
        clock.jump(by: duration)
        await clock.settle { deadlines, now in deadlines.contains { $0 > now } }
    }

    /// Rests by `duration`, then a second more at a time until `condition` holds: the panel's task
    /// may set its next deadline only after the jump (it was still busy), and a clock that no
    /// longer moves would never reach it.
    static func rest(_ clock: ManualClock, by duration: Duration, until condition: () async -> Bool) async throws -> Bool {
        await rest(clock, by: duration)
        return try await eventually {
            if await condition() { return true }
            await rest(clock, by: .seconds(1))
            return false
        }
    }

    final class Done: Sendable {
        private let flag = Mutex(false)
        func set() { flag.withLock { $0 = true } }
        var isSet: Bool { flag.withLock { $0 } }
    }

    static func info(_ size: BoardSize, driver: String) -> PanelInfo {
        PanelInfo(id: "led", size: size, drum: .vestaboard, motion: .shortestWay, driver: driver)
    }

    @Test func aMAX7219CascadeShowsTheAnimationAndEndsOnTheBoard() async throws {
        let clock = ManualClock()
        let chain = SimulatedMAX7219Chain(width: 32)
        let display = MAX7219Display(spi: chain, cascade: try MAX7219Cascade(width: 32))
        let size = BoardSize(rows: 1, columns: 5)
        let renderer = try BoardRenderer(size: size, width: 32, height: 8)
        let panel = PixelPanel(
            info: Self.info(size, driver: "max7219"), display: display, renderer: renderer, clock: clock,
            schedule: BrightnessSchedule(level: 0.5), minuteOfDay: { 720 })
        await panel.start()
        #expect(chain.image == Bitmap(width: 32, height: 8))
        #expect(chain.chips.allSatisfy { !$0.shutdown && $0.scanLimit == 7 && $0.decodeMode == 0 && $0.intensity == 7 })
        let plan = try await Self.plan(panel, to: "HELLO")
        try await Self.play(plan, on: panel, clock: clock)
        var final = PixelFrame(width: 32, height: 8)
        renderer.draw(plan.finalBoard, into: &final)
        #expect(chain.image == final.bitmap)
        #expect(await panel.positions() == plan.modules.map { $0.path.last! })
        // One frame a sixtieth of a second at most, and more than the two ends.
        let frames = await panel.framesShown
        #expect(frames > 3 && Double(frames) <= plan.duration / .seconds(1) * 60 + 3, "\(frames) frames for \(plan.duration)")
        #expect(chain.problems.isEmpty)
        await panel.shutDown()
        #expect(chain.chips.allSatisfy { $0.shutdown } && chain.image == Bitmap(width: 32, height: 8))
    }

    @Test func aCutPlanRestsWhereTheMotionWasCut() async throws {
        let clock = ManualClock()
        let chain = SimulatedMAX7219Chain(width: 32)
        let size = BoardSize(rows: 1, columns: 5)
        let renderer = try BoardRenderer(size: size, width: 32, height: 8)
        let panel = PixelPanel(
            info: Self.info(size, driver: "max7219"), display: MAX7219Display(spi: chain, cascade: try MAX7219Cascade(width: 32)),
            renderer: renderer, clock: clock, minuteOfDay: { 720 })
        await panel.start()
        let plan = try await Self.plan(panel, to: "ZZZZZ")
        let cutoff = PlayCutoff()
        let playing = Task { try await panel.play(plan, cutoff: cutoff) }
        let cut = plan.duration / 2
        var elapsed = Duration.zero
        while elapsed < cut {
            await clock.settle { deadlines, now in deadlines.contains { now.duration(to: $0) <= .seconds(1) } }
            clock.jump(by: .milliseconds(10))
            elapsed += .milliseconds(10)
        }
        cutoff.cut(at: elapsed)
        playing.cancel()
        await #expect(throws: CancellationError.self) { try await playing.value }
        #expect(await panel.positions() == plan.motion(at: elapsed).map(\.position))
        var expected = PixelFrame(width: 32, height: 8)
        renderer.draw(plan.board(at: elapsed), into: &expected)
        #expect(chain.image == expected.bitmap)
    }

    @Test func aWS2812MatrixShowsColoursWithinItsCurrentLimit() async throws {
        let clock = ManualClock()
        let strip = SimulatedWS2812Strip(count: 32 * 8)
        let limit = 4_000.0
        let display = WS2812Display(spi: strip, strip: try WS2812Strip(width: 32, height: 8, wiring: .serpentine), currentLimit: limit)
        let size = BoardSize(rows: 1, columns: 5)
        let renderer = try BoardRenderer(size: size, width: 32, height: 8)
        let panel = PixelPanel(info: Self.info(size, driver: "ws2812"), display: display, renderer: renderer, clock: clock, minuteOfDay: { 720 })
        await panel.start()
        // Colour chips: red, blue, then "HI", at full brightness within 4 A (about 3.4 A).
        var plan = try await Self.plan(panel, to: "{63}{67}HI")
        try await Self.play(plan, on: panel, clock: clock)
        var final = PixelFrame(width: 32, height: 8)
        renderer.draw(plan.finalBoard, into: &final)
        #expect(strip.problems.isEmpty)
        #expect(strip.picture(width: 32, wiring: .serpentine) == final)
        #expect(await display.lastBrightness == 1)
        // Every module a white chip: 5 × 35 white LEDs would draw 10.5 A; the strip dims to 4 A.
        plan = try await Self.plan(panel, to: "{69}{69}{69}{69}{69}")
        try await Self.play(plan, on: panel, clock: clock)
        let dimmed = await display.lastBrightness
        let shown = strip.leds
        let current =
            shown.reduce(0.0) { $0 + Double(Int($1.red) + Int($1.green) + Int($1.blue)) / 255 * WS2812Display.milliampsPerChannel }
            + Double(shown.count) * WS2812Display.idleMilliamps
        #expect(dimmed < 0.37 && dimmed > 0.3, "brightness \(dimmed)")
        #expect(current <= limit, "\(current) mA")
        await panel.shutDown()
        #expect(strip.leds.allSatisfy { $0 == .black })
    }

    @Test func nightDimmingAndDarkWhenIdleThenANewBoardWakesIt() async throws {
        let clock = ManualClock()
        let time = TimeOfDay()
        let chain = SimulatedMAX7219Chain(width: 32)
        let size = BoardSize(rows: 1, columns: 5)
        let schedule = try BrightnessSchedule([.init(minute: 7 * 60, level: 1), .init(minute: 22 * 60, level: 0.1)])
        let panel = PixelPanel(
            info: Self.info(size, driver: "max7219"), display: MAX7219Display(spi: chain, cascade: try MAX7219Cascade(width: 32)),
            renderer: try BoardRenderer(size: size, width: 32, height: 8), clock: clock,
            schedule: schedule, blankAfter: .seconds(3600), minuteOfDay: time.now)
        await panel.start()
        try await Self.play(try await Self.plan(panel, to: "HI"), on: panel, clock: clock)
        #expect(chain.chips.allSatisfy { $0.intensity == 15 })
        time.minute.withLock { $0 = 22 * 60 + 1 }
        // The rest check runs on the panel's own task once the clock has passed its deadline.
        #expect(try await Self.rest(clock, by: .seconds(20)) { await panel.brightness == 0.1 })
        #expect(chain.chips.allSatisfy { $0.intensity == 1 && !$0.shutdown })
        #expect(chain.image != Bitmap(width: 32, height: 8))
        #expect(try await Self.rest(clock, by: .seconds(3600)) { await panel.isBlank })
        #expect(chain.chips.allSatisfy { $0.shutdown })
        try await Self.play(try await Self.plan(panel, to: "HO"), on: panel, clock: clock)
        #expect(!(await panel.isBlank) && chain.chips.allSatisfy { !$0.shutdown && $0.intensity == 1 })
        // After midnight, before seven, it is still night.
        time.minute.withLock { $0 = 3 * 60 }
        #expect(schedule.level(atMinute: 3 * 60) == 0.1 && schedule.level(atMinute: 7 * 60) == 1)
        #expect(throws: ScheduleError.self) { _ = try BrightnessSchedule([.init(minute: 60, level: 2)]) }
        #expect(
            BrightnessSchedule.minute(of: "22:30") == 1350 && BrightnessSchedule.minute(of: "24:00") == nil
                && BrightnessSchedule.minute(of: "7:5") == nil)
    }

    @Test func aHUB75MatrixGetsEveryFrameThroughTheLibrarysCanvas() async throws {
        let clock = ManualClock()
        let matrix = SimulatedRGBMatrix()
        var options = RGBMatrixOptions()
        options.rows = 32
        options.columns = 64
        options.brightness = 80
        let display = try HUB75Display(api: matrix, options: options)
        let size = BoardSize(rows: 4, columns: 10)
        let renderer = try BoardRenderer(size: size, width: 64, height: 32)
        let panel = PixelPanel(
            info: Self.info(size, driver: "hub75"), display: display, renderer: renderer, clock: clock,
            schedule: BrightnessSchedule(level: 0.8), minuteOfDay: { 720 })
        await panel.start()
        let plan = try await Self.plan(panel, to: "{63} HELLO\nWORLD {66}")
        try await Self.play(plan, on: panel, clock: clock)
        var final = PixelFrame(width: 64, height: 32)
        renderer.draw(plan.finalBoard, into: &final)
        #expect(matrix.shown == final)
        let framesShown = await panel.framesShown
        #expect(matrix.brightness == 80 && matrix.swaps == framesShown)
        await display.close()
        #expect(matrix.deleted && matrix.shown == PixelFrame(width: 64, height: 32))
        options.rows = 20
        #expect(throws: HardwareError.self) { _ = try HUB75Display(api: SimulatedRGBMatrix(), options: options) }
    }
}
