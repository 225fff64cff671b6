import FlapCore

/// A panel drawn in light: the board and its flip animation rendered into frames (up to 60 a
/// second, the last exactly the final board) and shown on a ``PixelDisplay``. At rest it
/// follows the brightness schedule and, if configured, goes dark after a while without a new
/// board; the next board wakes it. Each frame repaints and sends only what changed (a
/// ``BoardFrame``); a frame in which nothing moved is not sent at all.
public actor PixelPanel<C: Clock<Duration>>: DrawsPixels where C: Sendable {
    /// Its id, size, drum and motion.
    public nonisolated let info: PanelInfo
    private let display: any PixelDisplay
    private let renderer: BoardRenderer
    private let clock: C
    /// The most frames a second it draws.
    public nonisolated let framesPerSecond: Int
    private let schedule: BrightnessSchedule
    private let blankAfter: Duration?
    private let minuteOfDay: @Sendable () -> Int
    private var current: [Int]
    private var resting: PixelFrame
    /// The frame drawn for the display, remembering what each module shows.
    private var drawing: BoardFrame
    private var restingSince: C.Instant
    private var shownBrightness: Double?
    private var blanked = false
    private var connected = true
    private var lastFailure: String?
    private var watcher: Task<Void, Never>?
    private var notify: AsyncStream<PanelNotice>.Continuation?
    /// Frames put on the display, for tests and benchmarks.
    public private(set) var framesShown = 0

    /// How often a resting panel looks at the schedule and the idle time.
    public static var restCheckInterval: Duration { .seconds(15) }

    /// A panel drawing with `renderer` on `display`, at up to `framesPerSecond`, on `clock`.
    public init(
        info: PanelInfo, display: any PixelDisplay, renderer: BoardRenderer, clock: C, framesPerSecond: Int = 60,
        schedule: BrightnessSchedule = BrightnessSchedule(level: 1), blankAfter: Duration? = nil,
        minuteOfDay: @escaping @Sendable () -> Int, positions: [Int]? = nil
    ) {
        self.info = info
        self.display = display
        self.renderer = renderer
        self.clock = clock
        self.framesPerSecond = min(FlipAnimation.maximumFramesPerSecond, max(1, framesPerSecond))
        self.schedule = schedule
        self.blankAfter = blankAfter
        self.minuteOfDay = minuteOfDay
        current = positions ?? Array(repeating: 0, count: info.size.count)
        resting = PixelFrame(width: renderer.width, height: renderer.height)
        drawing = BoardFrame(renderer: renderer)
        restingSince = clock.now
    }

    /// Shows the board it rests on and begins watching the schedule.
    public func start() async {
        _ = drawing.draw(board(of: current))
        resting = drawing.frame
        restingSince = clock.now
        await showResting()
        watch()
    }

    /// Draws the plan's motion frame by frame until its last landing.
    public func play(_ plan: FlipPlan, cutoff: PlayCutoff) async throws {
        await stopWatching()
        blanked = false
        let start = clock.now
        let level = schedule.level(atMinute: minuteOfDay())
        defer {
            restingSince = clock.now
            watch()
        }
        for time in FlipAnimation.frameTimes(duration: plan.duration, framesPerSecond: framesPerSecond) {
            // Behind (a loaded machine): skip to the frame due now rather than fall further behind.
            if time < plan.duration, start.advanced(by: time).advanced(by: .seconds(1) / framesPerSecond) < clock.now { continue }
            do {
                try await clock.sleep(until: start.advanced(by: time), tolerance: nil)
            } catch {
                let limit = min(cutoff.elapsed ?? start.duration(to: clock.now), plan.duration)
                current = plan.motion(at: limit).map(\.position)
                let changed = drawing.draw(plan.board(at: limit))
                resting = drawing.frame
                try? await show(resting, brightness: level, changed: changed)
                throw error
            }
            let changed = drawing.draw(plan, at: time)
            if time == plan.duration { resting = drawing.frame }
            if changed.isEmpty, shownBrightness == level { continue }
            try await show(drawing.frame, brightness: level, changed: changed)
        }
        current = plan.modules.map(\.target)
    }

    /// Each module's drum index, as last drawn.
    public func positions() -> [Int] { current }

    /// Shows a frame drawn elsewhere (the room's plot, frame after frame) at the scheduled
    /// brightness; it becomes what the panel rests on. The rest checks stop meanwhile: they
    /// would put the resting board back.
    public func present(_ frame: PixelFrame) async throws {
        await stopWatching()
        blanked = false
        resting = frame
        drawing.replace(with: frame)
        try await show(frame, brightness: schedule.level(atMinute: minuteOfDay()))
    }

    /// The display's pixels and colour.
    public nonisolated var surface: (width: Int, height: Int, monochrome: Bool) {
        (renderer.width, renderer.height, display.isMonochrome)
    }

    /// Ends the rest checks, once the one running (it may be drawing) is over.
    private func stopWatching() async {
        let last = watcher
        watcher = nil
        last?.cancel()
        await last?.value
    }

    /// Darkens the display.
    public func shutDown() async {
        await stopWatching()
        await display.darken()
        blanked = true
        notify?.finish()
    }

    /// Whether the display took the last frame.
    public func health() -> PanelHealth { PanelHealth(connected: connected) }

    /// What the display has to say, for the log.
    public func notices() -> AsyncStream<PanelNotice> {
        AsyncStream { notify = $0 }
    }

    /// Pixels land when planned: nothing to revise.
    public func revisions() -> AsyncStream<PlanRevision> { AsyncStream { $0.finish() } }

    /// Whether the display is dark now (idle, or shut down).
    public var isBlank: Bool { blanked }

    /// The brightness the resting board was last shown at.
    public var brightness: Double? { shownBrightness }

    // MARK: Rest

    private func watch() {
        watcher = Task { [weak self, clock] in
            while !Task.isCancelled {
                guard (try? await clock.sleep(for: Self.restCheckInterval, tolerance: nil)) != nil else { return }
                await self?.restCheck()
            }
        }
    }

    private func restCheck() async {
        guard !blanked else { return }
        if let blankAfter, restingSince.duration(to: clock.now) >= blankAfter {
            await display.darken()
            blanked = true
            shownBrightness = 0
            notify?.yield(PanelNotice(.info, "\(info.id): dark after \(blankAfter) without a new board"))
            return
        }
        if schedule.level(atMinute: minuteOfDay()) != shownBrightness { await showResting() }
    }

    private func showResting() async {
        try? await show(resting, brightness: schedule.level(atMinute: minuteOfDay()))
    }

    /// Shows `frame`; `changed` says where it differs from the frame shown before (nil: not known).
    private func show(_ frame: PixelFrame, brightness: Double, changed: [PixelRect]? = nil) async throws {
        do {
            if let changed {
                try await display.show(frame, brightness: brightness, changed: changed)
            } else {
                try await display.show(frame, brightness: brightness)
            }
            shownBrightness = brightness
            framesShown += 1
            if !connected { notify?.yield(PanelNotice(.info, "\(display.name): working again")) }
            connected = true
        } catch {
            drawing.replace(with: drawing.frame)  // the display may hold anything now: the next frame is sent whole
            if connected || lastFailure != "\(error)" { notify?.yield(PanelNotice(.error, "\(error)")) }
            connected = false
            lastFailure = "\(error)"
            throw error
        }
    }

    private func board(of positions: [Int]) -> Board {
        Board(size: info.size, positions: positions, drum: info.drum)
    }
}
