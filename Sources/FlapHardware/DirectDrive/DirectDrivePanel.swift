import FlapCore

/// A split-flap board whose steppers and sensors the Pi drives itself (Chainlink Driver boards on
/// SPI, or ULN2003 boards on GPIO) through a ``SteppingEngine``. Each module starts exactly at its
/// planned start; the engine's stepping runs elsewhere (a real-time thread, or a task on a
/// virtual clock), on the same time origin as this panel's clock.
///
/// A module in sensor error is re-homed with backoff while the rest of the board keeps working;
/// faults carry the module's row and column.
public actor DirectDrivePanel<C: Clock>: StartsBlank, ReachedThroughLibrary where C.Duration == Duration {
    /// Its id, size, drum and motion.
    public nonisolated let info: PanelInfo
    /// The stepping engine that turns its modules (calibration reaches it here).
    public nonisolated let engine: SteppingEngine
    /// The GPIO library its lines are reached through, when they are.
    public nonisolated let systemLibrary: String?
    private let clock: C
    private let origin: C.Instant
    private var estimated: [Int]
    /// The flap each module was last sent to: a module re-homed after a fault goes there once
    /// home is found (the module itself ignored the order while it was in sensor error).
    private var commanded: [Int]
    private var watch: ModuleFaultWatch<C.Instant>
    private var monitor: Task<Void, Never>?
    private let noticeContinuation: AsyncStream<PanelNotice>.Continuation
    private let noticeStream: AsyncStream<PanelNotice>
    private var ioFailing = false

    /// `origin` is engine time zero on `clock` (the stepping runner uses the same); `library`
    /// names the system library the engine's lines are reached through.
    public init(info: PanelInfo, engine: SteppingEngine, clock: C, origin: C.Instant, library: String? = nil) {
        self.info = info
        systemLibrary = library
        self.engine = engine
        self.clock = clock
        self.origin = origin
        estimated = Array(repeating: 0, count: info.size.count)
        commanded = Array(repeating: 0, count: info.size.count)
        watch = ModuleFaultWatch(columns: info.size.columns)
        (noticeStream, noticeContinuation) = AsyncStream.makeStream(of: PanelNotice.self, bufferingPolicy: .bufferingNewest(256))
    }

    /// Starts watching the modules for faults.
    public func start() {
        guard monitor == nil else { return }
        monitor = Task { [weak self, clock] in
            while !Task.isCancelled {
                try? await clock.sleep(for: .milliseconds(100), tolerance: nil)
                await self?.review()
            }
        }
    }

    /// Gives every module its target at its planned start, and waits until each rests.
    public func play(_ plan: FlipPlan, cutoff: PlayCutoff) async throws {
        let start = clock.now
        let starts = StepperPlayback.starts(of: plan)
        do {
            for (time, modules) in starts {
                try await clock.sleep(until: start.advanced(by: time), tolerance: nil)
                // The module logic turns a full turn by itself when sent where it already is.
                for i in modules {
                    commanded[i] = plan.modules[i].target
                    engine.go(i, to: commanded[i])
                }
            }
            try await clock.sleep(until: start.advanced(by: plan.duration), tolerance: nil)
            let moved = starts.flatMap(\.modules)
            let limit = clock.now.advanced(by: StepperPlayback.waitLimit)
            while clock.now < limit, !atRest(moved) {
                try await clock.sleep(for: .milliseconds(5), tolerance: nil)
            }
            let modules = engine.modules()
            for i in moved { estimated[i] = modules[i].state == .normal ? modules[i].currentFlap : plan.modules[i].target }
        } catch {
            let motion = plan.motion(at: cutoff.elapsed ?? start.duration(to: clock.now))
            for i in estimated.indices { estimated[i] = motion[i].position }
            throw error
        }
    }

    private func atRest(_ moved: [Int]) -> Bool {
        let modules = engine.modules()
        return moved.allSatisfy { i in
            let m = modules[i]
            return (m.state != .normal && m.state != .lookForHome) || (!m.isMoving && m.acceleration == 0)
        }
    }

    /// Each module's drum index, as the engine last counted it.
    public func positions() -> [Int] { estimated }

    /// Stops stepping where the modules are and releases the coils.
    public func shutDown() async {
        monitor?.cancel()
        await monitor?.value
        monitor = nil
        engine.release()
        noticeContinuation.finish()
    }

    /// The modules in a fault (the board is wired: always connected).
    /// The stepping engine's motor.
    public nonisolated func planTiming() async -> PlanTiming { PlanTiming(stepper: engine.profile) }

    /// Connected while its coil lines can be driven; each module's fault (a home it did not find) named.
    public func health() -> PanelHealth {
        PanelHealth(connected: !ioFailing, faults: watch.sorted)
    }

    /// Modules start on plan (within a stepping pass): no revisions.
    public func revisions() -> AsyncStream<PlanRevision> { AsyncStream { $0.finish() } }

    /// Lost steps, faults and recoveries, for the log.
    public func notices() -> AsyncStream<PanelNotice> { noticeStream }

    // MARK: Faults

    private func review() {
        if let failure = engine.takeFailure() {
            if !ioFailing { say(.error, "\(failure)") }
            ioFailing = true
        } else if ioFailing {
            ioFailing = false
            say(.info, "\(engine.io.name): working again")
        }
        let reports = engine.modules().prefix(info.size.count).map {
            ModuleFaultWatch<C.Instant>.Report(state: $0.state, missedHomes: $0.missedHomes, unexpectedHomes: $0.unexpectedHomes)
        }
        let (notices, rehome) = watch.review(Array(reports), now: clock.now)
        for notice in notices { noticeContinuation.yield(notice) }
        for i in rehome {
            engine.rehome(i)
            engine.go(i, to: commanded[i])
        }
    }

    private func say(_ level: PanelNotice.Level, _ text: String) { noticeContinuation.yield(PanelNotice(level, text)) }
}

/// Runs a ``SteppingEngine`` as a task on `clock` (engine time zero at `origin`): for simulated
/// hardware and virtual clocks. Real hardware steps in FlapLinux's real-time thread instead.
public enum ClockSteppingRunner {
    /// Steps `engine` on `clock` until cancelled.
    public static func run<C: Clock>(_ engine: SteppingEngine, clock: C, origin: C.Instant) async where C.Duration == Duration {
        while !Task.isCancelled {
            let next = engine.step(at: origin.duration(to: clock.now))
            try? await clock.sleep(until: origin.advanced(by: next), tolerance: nil)
        }
    }
}

/// Its modules' offsets are the stepping engine's, set by hand.
extension DirectDrivePanel: TakesModuleOffsets {
    /// Each module's offset from its home, in steps.
    public nonisolated func moduleOffsets() async -> [Int] { engine.modules().map(\.offsetSteps) }

    /// Steps from one flap to the next.
    public nonisolated var stepsPerFlap: Double { Double(engine.profile.stepsPerTurn) / Double(engine.profile.flaps) }

    /// Sets module `index`'s offset to `steps`.
    public nonisolated func setOffset(_ steps: Int, module index: Int) async { engine.calibrate(index, offsetSteps: steps) }
}
