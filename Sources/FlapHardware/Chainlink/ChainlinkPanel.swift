import FlapCore

/// A split-flap board run by a Chainlink controller (scottbez1/splitflap) over a serial link.
///
/// A plan is played as the controller can take it: each distinct start time of the plan sends
/// the whole board's config (the planner has already grouped the starts into commands the link
/// can carry, ``commandInterval(modules:)``), with the movement nonce changed for a module that
/// must turn a full turn. The controller moves the motors on its own ramp; the plan's landings
/// are the model's estimate, and `play` returns once the controller reports every moved module
/// at rest on its target (or the estimate plus a grace period has passed). Modules in chain order
/// are the board's modules in row-major order.
///
/// Faults come from the state reports, with the module's row and column: a module in sensor
/// error is re-homed (reset nonce) with backoff while the others go on working.
public actor ChainlinkPanel<C: Clock>: Panel where C.Duration == Duration {
    /// Its id, size, drum and motion.
    public nonisolated let info: PanelInfo
    /// The controller's motor model, which its plans are timed by.
    public nonisolated let profile: StepperProfile
    private let link: ChainlinkLink<C>
    private let clock: C
    private let portName: String
    private var config: [ToSplitflap.ModuleConfig]
    private var estimated: [Int]
    private var playing = false
    private var lastState: SplitflapState?
    private var lastStateAt: C.Instant?
    private var connected = false
    private var lastUptime: Int?
    private var watch: ModuleFaultWatch<C.Instant>
    private var tasks: [Task<Void, Never>] = []
    private let noticeContinuation: AsyncStream<PanelNotice>.Continuation
    private let noticeStream: AsyncStream<PanelNotice>
    private let revisionContinuation: AsyncStream<PlanRevision>.Continuation
    private let revisionStream: AsyncStream<PlanRevision>

    /// How long after its estimated end a plan may run before `play` stops waiting for reports.
    public static var grace: Duration { .seconds(3) }

    /// What a controller said about itself when it first answered.
    public struct Discovery: Sendable, Equatable {
        /// How many modules the chain has.
        public var modules: Int
        /// Its drum, from `flap_character_set`; nil if it never said.
        public var drum: Drum?
        /// Where each module rests (or will, once homed).
        public var positions: [Int]
    }

    /// Asks the controller behind `link` how many modules it has and which drum, waiting at most
    /// `timeout`; throws a ``HardwareError`` naming `device` when it does not answer.
    public static func discover(link: ChainlinkLink<C>, clock: C, device: String, timeout: Duration = .seconds(5)) async throws -> Discovery {
        await link.start()
        let deadline = clock.now.advanced(by: timeout)
        var asked: C.Instant?
        while clock.now < deadline {
            if asked.map({ $0.duration(to: clock.now) > .seconds(1) }) ?? true, await link.isIdle {
                await link.submit(.requestState)
                asked = clock.now
            }
            let (state, general) = await (link.latestState, link.latestGeneral)
            // The drum comes with the general state; a controller that never sends one still works.
            if let state, general != nil || clock.now.duration(to: deadline) < timeout / 2 {
                let drum = general.flatMap { try? Drum(string: String(decoding: $0.flapCharacterSet, as: UTF8.self), name: "controller") }
                // A module still homing ends on flap 0, the firmware's target after a reset; the
                // panel's first config must say so, or it would send that module elsewhere.
                let positions = state.modules.map { $0.state == .normal && !$0.moving ? $0.flapIndex : 0 }
                return Discovery(modules: state.modules.count, drum: drum, positions: positions)
            }
            // A port that cannot even be opened will not answer: say why at once.
            if let failure = await link.openFailure, failure.attempts >= 3 {
                await link.stop()
                throw failure.error
            }
            try await clock.sleep(for: .milliseconds(20), tolerance: nil)
        }
        await link.stop()
        throw HardwareError(
            device: device, problem: "no Chainlink controller answered within \(timeout)",
            remedy: "is it powered, running the splitflap firmware, and on this port at 230400 baud?")
    }

    /// A panel on `link` (started by ``discover(link:clock:device:timeout:)`` or here), its
    /// modules believed to be at `positions`.
    public init(info: PanelInfo, link: ChainlinkLink<C>, clock: C, device: String, positions: [Int]? = nil) {
        self.info = info
        profile = StepperProfile(flaps: info.drum.count)
        self.link = link
        self.clock = clock
        portName = device
        watch = ModuleFaultWatch(columns: info.size.columns)
        estimated = positions ?? Array(repeating: 0, count: info.size.count)
        config = estimated.map { ToSplitflap.ModuleConfig(targetFlapIndex: UInt8(clamping: $0)) }
        (noticeStream, noticeContinuation) = AsyncStream.makeStream(of: PanelNotice.self, bufferingPolicy: .bufferingNewest(256))
        (revisionStream, revisionContinuation) = AsyncStream.makeStream(of: PlanRevision.self, bufferingPolicy: .bufferingNewest(8))
    }

    /// Starts following the controller's reports (and the link, if not yet started).
    public func start() async {
        await link.start()
        let events = link.events
        tasks.append(
            Task { [weak self] in
                for await event in events { await self?.handle(event) }
            })
        // Re-homing falls due between reports (the controller may say nothing new for 5 s).
        tasks.append(
            Task { [weak self, clock] in
                while !Task.isCancelled {
                    try? await clock.sleep(for: .milliseconds(250), tolerance: nil)
                    if let state = await self?.lastState { await self?.review(state) }
                }
            })
    }

    /// The shortest time between two whole-board commands on the link: the frame's time on the
    /// wire at 230400 baud (10 bits a byte) plus a few ms for the ack.
    public static func commandInterval(modules: Int) -> Duration {
        let frame = ChainlinkFrame.encode(
            ToSplitflap(
                nonce: UInt32.max,
                payload: .config(
                    Array(repeating: ToSplitflap.ModuleConfig(targetFlapIndex: 51, movementNonce: 255, resetNonce: 255), count: modules))))
        return Duration.seconds(10) * frame.count / SerialSettings.chainlink.baudRate + .milliseconds(4)
    }

    // MARK: Panel

    /// Sends the whole board and waits until every module rests on its target (or the estimate and a grace have passed).
    public func play(_ plan: FlipPlan, cutoff: PlayCutoff) async throws {
        let start = clock.now
        playing = true
        defer { playing = false }
        let commands = StepperPlayback.starts(of: plan)
        do {
            for (time, modules) in commands {
                try await clock.sleep(until: start.advanced(by: time), tolerance: nil)
                for i in modules { aim(i, along: plan.modules[i].path) }
                await link.submit(.config(config))
            }
            let moved = Set(commands.flatMap(\.modules))
            // Until the estimate runs out, follow the reports: a module clearly behind or ahead of
            // the model moves its remaining landings (and clacks) to match.
            var revised = plan
            var reviewed = lastStateAt
            // Reports count once every command is acked, and only those received after that:
            // one received earlier may have left the controller before the last config arrived.
            var settled: C.Instant?
            while clock.now < start.advanced(by: revised.duration) {
                try await clock.sleep(for: .milliseconds(20), tolerance: nil)
                if settled == nil, await link.isIdle { settled = clock.now }
                guard lastStateAt != reviewed, let at = lastStateAt, let state = lastState, let settled, at > settled else { continue }
                reviewed = at
                let corrected = Self.corrected(revised, by: state, at: start.duration(to: at), modules: moved)
                if corrected != revised {
                    revised = corrected
                    revisionContinuation.yield(PlanRevision(original: plan, revised: revised))
                }
            }
            // The estimate has run out: wait for the controller to confirm. The grace is counted
            // from the last sign of motion; a module still turning or homing is waited for, up to a limit.
            let limit = clock.now.advanced(by: StepperPlayback.waitLimit)
            var deadline = clock.now.advanced(by: Self.grace)
            while clock.now < min(deadline, limit), !confirmed(moved, reportedAfter: settled) {
                if stillMoving(moved) { deadline = clock.now.advanced(by: Self.grace) }
                try await clock.sleep(for: .milliseconds(10), tolerance: nil)
                if settled == nil, await link.isIdle { settled = clock.now }
            }
            for i in moved { estimated[i] = plan.modules[i].target }
            correctFromReport()
        } catch {
            let cut = cutoff.elapsed ?? start.duration(to: clock.now)
            let motion = plan.motion(at: cut)
            for i in estimated.indices { estimated[i] = motion[i].position }
            throw error
        }
    }

    private func aim(_ module: Int, along path: [Int]) {
        guard let target = path.last else { return }
        config[module].targetFlapIndex = UInt8(clamping: target)
        // Back to where it is: only a new movement nonce makes the controller turn a full turn.
        if target == path.first { config[module].movementNonce &+= 1 }
    }

    private func confirmed(_ moved: Set<Int>, reportedAfter settled: C.Instant?) -> Bool {
        guard let settled, let state = lastState, let at = lastStateAt, at > settled else { return false }
        return moved.allSatisfy { i in
            guard i < state.modules.count else { return true }
            let module = state.modules[i]
            return module.state != .normal && module.state != .lookForHome || (!module.moving && module.flapIndex == Int(config[i].targetFlapIndex))
        }
    }

    private func stillMoving(_ moved: Set<Int>) -> Bool {
        guard let state = lastState else { return false }
        return moved.contains { $0 < state.modules.count && state.modules[$0].moving }
    }

    /// At rest, the controller's report is the truth: a module that re-homed or slipped shows
    /// where it really is.
    private func correctFromReport() {
        guard let state = lastState else { return }
        for (i, module) in state.modules.prefix(estimated.count).enumerated()
        where module.state == .normal && !module.moving && module.flapIndex < info.drum.count {
            estimated[i] = module.flapIndex
        }
    }

    /// Each module's drum index, as last estimated from the plan and the reports.
    public func positions() -> [Int] { estimated }

    /// Stops the link: modules finish the flap they are on.
    public func shutDown() async {
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        tasks = []
        await link.stop()
        noticeContinuation.finish()
        revisionContinuation.finish()
    }

    /// Whether the controller answers, and the modules in a fault.
    /// The modules' stepper, and no two commands closer than the link carries the whole board.
    public nonisolated var timing: PlanTiming { PlanTiming(stepper: profile, commandInterval: Self.commandInterval(modules: info.size.count)) }

    /// How its plans are timed: its steppers and the controller's command interval.
    public nonisolated func planTiming() async -> PlanTiming { timing }

    /// Connected while the controller answers; each module's fault named.
    public func health() -> PanelHealth {
        PanelHealth(connected: connected, faults: watch.sorted)
    }

    /// What the link and the modules have to say, for the log.
    public func notices() -> AsyncStream<PanelNotice> { noticeStream }

    /// Plans re-estimated from the controller's reports.
    public func revisions() -> AsyncStream<PlanRevision> { revisionStream }

    // MARK: Reports

    private func handle(_ event: ChainlinkLinkEvent) async {
        switch event {
        case .connected(let name):
            say(.info, "\(name): connected")
        case .portFailed(let problem):
            if connected { say(.error, "\(problem); reopening") }
            connected = false
        case .notAnswering:
            connected = false
            say(.warning, "\(portName): the Chainlink controller is not answering; resending every 250 ms")
        case .answering:
            say(.info, "\(portName): the Chainlink controller answers again")
            connected = true
            // It may have rebooted: the whole board again.
            await link.submit(.config(config))
        case .acked:
            connected = true
        case .state(let state):
            connected = true
            await review(state)
            lastState = state
            lastStateAt = clock.now
            if !playing { correctFromReport() }
        case .general(let general):
            if let before = lastUptime, general.uptimeMillis < before {
                say(.warning, "\(portName): the controller restarted; sending the board again")
                await link.submit(.config(config))
            }
            lastUptime = general.uptimeMillis
        case .controllerLog(let text):
            say(.debug, "\(portName) controller: \(text)")
        case .badFrame(let bytes, let reason):
            say(.debug, "\(portName): \(bytes) bytes that are no frame (\(reason))")
        case .sent:
            break
        }
    }

    /// New faults, recoveries and lost steps in a report; re-homes the modules whose turn has come.
    private func review(_ state: SplitflapState) async {
        let reports = state.modules.prefix(info.size.count).map {
            ModuleFaultWatch<C.Instant>.Report(
                state: StepperModule.State(rawValue: $0.state.rawValue) ?? .panic,
                missedHomes: $0.countMissedHome, unexpectedHomes: $0.countUnexpectedHome)
        }
        let (notices, rehome) = watch.review(Array(reports), now: clock.now)
        for notice in notices { noticeContinuation.yield(notice) }
        guard !rehome.isEmpty else { return }
        for i in rehome { config[i].resetNonce &+= 1 }
        await link.submit(.config(config))
    }

    private func say(_ level: PanelNotice.Level, _ text: String) { noticeContinuation.yield(PanelNotice(level, text)) }
}
