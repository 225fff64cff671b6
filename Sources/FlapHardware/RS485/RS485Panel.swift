import FlapCore

/// A wall of RS-485 split-flap modules (Adam G Makes' open design, firmware v6 or v7), one module
/// a cell, all on one bus.
///
/// The modules never say where they are, so flapd homes them all when it starts (allowing for
/// their staggered power-up) and from then on knows each one's flap from what it sent. A plan is
/// played by sending each moving module its target's character so that the frame has crossed
/// the bus at the module's start; the planner has spaced the frames by a frame's time on the bus
/// (``RS485Frame/showInterval``) in the transition's order, and times each landing by the reel
/// (``RS485Reel/profile(stepsPerRevolution:stored:)``): each module's own, once it has told its
/// stored flap positions and steps a revolution (its `d` dump, read once the wall is home, and
/// kept up to date by the calibration commands sent through ``command(_:module:)``).
/// A module still turning from a plan that was cut short is sent nothing until it has landed
/// (its firmware would only read the frame then), and then turns on from the flap it was sent:
/// its part of the plan is revised to match (``revisions()``).
public actor RS485Panel<C: Clock>: StartsBlank where C.Duration == Duration {
    /// The wall's size and reel.
    public nonisolated let info: PanelInfo
    /// The modules' motion, which plans are timed by.
    public nonisolated let profile: StepperProfile
    let bus: RS485Bus<C>
    let clock: C
    /// The wall's reel, which modules with none of their own carry.
    let reel: RS485Reel
    /// Each module's reel, row-major: the wall's, or one of its own, configured (told it with
    /// `N` once home) or as a Universal Firmware module said it (`A`).
    var reels: [RS485Reel]
    /// The modules whose reel the configuration gives, by index: what they say does not change it.
    let configuredReels: Set<Int>
    /// Each cell's module ID, row-major (changed by a `setID` command).
    public internal(set) var ids: [Int]
    var estimated: [Int]
    /// When each module's last turn ends, while it may still be turning.
    var busyUntil: [C.Instant?]
    /// The flap each module was last sent, where it rests once its turn ends.
    var committed: [Int]
    /// When every module is surely home, once `m*h` was sent.
    private var homedAt: C.Instant?
    /// Each module's stored flap positions (by reel index) and steps a revolution, as it told them.
    var stored: [[Int: Int]]
    var revolutions: [Int]
    /// Each module's firmware: as configured, or as it answered `v` when first asked for what
    /// only Universal Firmware knows (nil until then).
    var firmwares: [RS485Firmware?]
    /// What each module's own tests last found wrong (by module, then by test), for its health.
    var testFindings: [Int: [String: [String]]] = [:]
    /// Who answers at each place, while modules are numbered from where they hang.
    var numberingState: RS485Numbering
    /// Whether the modules were asked for their calibration since they homed.
    private var asked = false
    /// The modules that answered that asking: the only ones then asked for their flaps.
    var answeredAtStart: Set<Int> = []
    /// Whether a command (or the first asking of calibrations) has the bus, and who waits for
    /// it: one exchange at a time, or one command's wait for its answer would discard another's.
    var exchanging = false
    var waitingToExchange: [CheckedContinuation<Void, Never>] = []
    private var forwarding: Task<Void, Never>?
    var lastError: HardwareError?
    private let noticeContinuation: AsyncStream<PanelNotice>.Continuation
    private let noticeStream: AsyncStream<PanelNotice>
    private let revisionContinuation: AsyncStream<PlanRevision>.Continuation
    private let revisionStream: AsyncStream<PlanRevision>

    /// How long a module waits after power-up before it homes, per unit of its ID.
    public static var powerUpStagger: Duration { .milliseconds(150) }

    /// A panel of the modules `ids` (row-major) with `reel`, on `bus`.
    public init(
        info: PanelInfo, bus: RS485Bus<C>, clock: C, ids: [Int], reel: RS485Reel = .firmware,
        stepsPerRevolution: Int = RS485Reel.defaultStepsPerRevolution, firmware: RS485Firmware? = nil,
        ownReels: [Int: RS485Reel] = [:]
    ) {
        precondition(ids.count == info.size.count, "one ID a cell")
        self.info = info
        self.bus = bus
        self.clock = clock
        self.ids = ids
        self.reel = reel
        reels = ids.map { ownReels[$0] ?? reel }
        configuredReels = Set(ids.indices.filter { ownReels[ids[$0]] != nil })
        profile = reel.profile(stepsPerRevolution: stepsPerRevolution)
        stored = Array(repeating: [:], count: ids.count)
        revolutions = Array(repeating: stepsPerRevolution, count: ids.count)
        firmwares = Array(repeating: firmware, count: ids.count)
        numberingState = RS485Numbering(count: ids.count)
        estimated = Array(repeating: 0, count: ids.count)
        busyUntil = Array(repeating: nil, count: ids.count)
        committed = estimated
        (noticeStream, noticeContinuation) = AsyncStream.makeStream(of: PanelNotice.self, bufferingPolicy: .bufferingNewest(256))
        (revisionStream, revisionContinuation) = AsyncStream.makeStream(of: PlanRevision.self, bufferingPolicy: .bufferingNewest(8))
    }

    /// The time from `m*h` until every module is surely home: the last one's power-up wait (it
    /// may have powered up with flapd) and three turns. A module reads the frame only once it
    /// rests, so it may first end a turn already under way (one that homes on its own at
    /// power-up, or one flapd sent before it was stopped), then it finds the magnet (up to a
    /// turn) and goes on by its home offset to flap 0 (up to another).
    public var homingTime: Duration {
        Self.powerUpStagger * (ids.max() ?? 0) + profile.duration(steps: 3 * profile.stepsPerTurn)
    }

    /// From a module's last step (its landing, as plans time it) until it rests and reads the
    /// bus again: one half-step.
    static var settling: Duration { RS485Reel.halfStep }

    /// How much later than planned a frame may cross the bus before the module's part of the
    /// plan is revised to match (a tick of the machine's timers).
    static var lateness: Duration { .milliseconds(2) }

    /// Starts the bus and homes every module: flapd trusts no module's position it has not set.
    /// The first board waits until they are surely home (``homingTime``).
    public func start() async {
        await bus.start()
        // What the bus says that is no answer goes to the log as a warning.
        let problems = bus.problems
        let continuation = noticeContinuation
        forwarding = Task {
            for await problem in problems { continuation.yield(PanelNotice(.warning, problem)) }
        }
        do {
            try await bus.send(RS485Frame.encode(.home, to: .all))
        } catch {
            lastError = error as? HardwareError
            say(.error, "\(error); the modules home on their own at power-up")
        }
        homedAt = clock.now.advanced(by: homingTime)
        estimated = Array(repeating: 0, count: ids.count)
        busyUntil = Array(repeating: nil, count: ids.count)
        committed = estimated
        say(.info, "\(bus.device): homing \(ids.count) modules")
    }

    /// Waits (on the clock) until the modules are surely home, then, once, asks each for its
    /// stored calibration, which its plans are timed by.
    public func homed() async throws {
        if let homedAt, homedAt > clock.now { try await clock.sleep(until: homedAt, tolerance: nil) }
        guard !asked else { return }
        asked = true
        await takeTheBus()
        defer { releaseTheBus() }
        try await tellOwnReels()
        try await askCalibrations()
        try await askOwnFlaps()
    }

    /// Each module's `d` dump, one module at a time (the modules rest: nothing else is on the
    /// bus). A module that does not answer keeps the firmware's own flap places; three in a row
    /// that do not (no dongle, no power) end the asking, with one warning. A module whose
    /// firmware is not known is sent the whole frame, which v7 reads; an answer garbled by its
    /// newline is Universal Firmware's, asked again as it reads it.
    private func askCalibrations() async throws {
        var silent: [Int] = []
        for index in ids.indices {
            let answer: RS485Answer?
            do {
                answer = try await askDump(module: index)
            } catch let error as HardwareError {
                say(.warning, "\(bus.device): could not ask the modules for their stored flap positions (\(error)); planning with the reel's own")
                return
            }
            if let answer {
                learn(answer, module: index)
                answeredAtStart.insert(index)
                silent.removeAll()
            } else {
                silent.append(ids[index])
                if silent.count == 3, silent.count < ids.count { break }
            }
        }
        if !silent.isEmpty {
            say(
                .warning,
                "\(bus.device): module\(silent.count == 1 ? "" : "s") \(silent.map(String.init).joined(separator: ", ")) did not say \(silent.count == 1 ? "its" : "their") stored flap positions; planning with the reel's own"
            )
        }
    }

    /// How long a module's dump may take: 64 stored positions are about 600 bytes at 9600 baud.
    static var dumpWait: Duration { .milliseconds(1500) }

    /// What an answer says of module `index`'s motion. A revolution no module of this reel can
    /// have, or positions past it, are told and ignored: plans are timed by them.
    func learn(_ answer: RS485Answer, module index: Int) {
        let steps: Int
        switch answer {
        case .dump(_, _, let told, _), .revolution(_, let told): steps = told
        case .version, .about, .announcement, .numbered, .hall, .diagnostics, .mechanical: return
        }
        let reel = reels[index]
        guard reel.revolutions.contains(steps) else {
            say(.warning, "\(bus.device): module \(ids[index]) says a revolution is \(steps) steps, outside \(reel.revolutions); ignored")
            return
        }
        revolutions[index] = steps
        guard case .dump(_, _, _, let positions) = answer else { return }
        stored[index] = positions.filter { place, step in place < reel.bytes.count && (0..<steps).contains(step) }
    }

    /// Module `index`'s motion, its stored positions included.
    func profile(of index: Int) -> StepperProfile {
        stored[index].isEmpty && revolutions[index] == profile.stepsPerTurn && reels[index] == reel
            ? profile : reels[index].profile(stepsPerRevolution: revolutions[index], stored: stored[index])
    }

    /// Each module's motion, where a module told its own (stored flap positions, its steps a
    /// revolution); nil while every module turns as the reel does.
    public func moduleSteppers() -> [StepperProfile]? {
        guard
            stored.contains(where: { !$0.isEmpty }) || revolutions.contains(where: { $0 != profile.stepsPerTurn })
                || reels.contains(where: { $0 != reel })
        else { return nil }
        return ids.indices.map(profile(of:))
    }

    /// The reel's turn, each module's own where it told it, and one frame at a time on the bus.
    public func planTiming() async -> PlanTiming {
        PlanTiming(
            stepper: profile, moduleSteppers: moduleSteppers(), frameInterval: RS485Frame.showInterval,
            moduleDrums: reels.contains { $0 != reel } ? reels.map(\.drum) : nil)
    }

    // MARK: Panel

    /// Sends each moving module its target as the plan says, and returns at the plan's end; a
    /// module still turning from a plan cut short is sent its target once it has landed.
    public func play(_ plan: FlipPlan, cutoff: PlayCutoff) async throws {
        try await homed()
        let start = clock.now
        var revised = plan
        // Every module the plan moves, and every one still bound elsewhere by a board cut short.
        let order = plan.modules.indices.filter { plan.modules[$0].path.count > 1 || committed[$0] != plan.modules[$0].target }
            .sorted { (plan.modules[$0].start, $0) < (plan.modules[$1].start, $1) }
        var sent: Set<Int> = []
        do {
            for i in order {
                let module = plan.modules[i]
                let target = module.target
                let frame = RS485Frame.encode(.show(reels[i].byte(forDrumFlap: target)), to: .module(ids[i]))
                // Sent so that it has crossed the bus when the module is to start.
                let airtime = RS485Frame.airtime(of: frame.count)
                var sendAt = start.advanced(by: max(.zero, module.start - airtime))
                // Still turning from a board cut short: its firmware reads the frame only once
                // it has landed, and it turns on from the flap it was sent, not from where the plan has it.
                if let busy = busyUntil[i], busy > sendAt { sendAt = busy }
                // Behind a frame still on the bus (a command sent just before): after it.
                if let idle = await bus.idleAt, idle > sendAt { sendAt = idle }
                let turnsAt = start.duration(to: sendAt) + airtime
                if committed[i] != module.origin || turnsAt > module.start + .milliseconds(1) {
                    revised = revised.replacing(module: i, to: target, from: committed[i], at: turnsAt, profile: profile(of: i))
                    revisionContinuation.yield(PlanRevision(original: plan, revised: revised))
                }
                guard revised.modules[i].path.count > 1 else { continue }
                try await clock.sleep(until: sendAt, tolerance: nil)
                try await bus.send(frame)
                lastError = nil
                sent.insert(i)
                // A busy machine may have woken or written late: the module turns from when the
                // frame has crossed the bus, which is never before it was written. What flapd
                // reports follows the module, not the plan.
                let arrived = await bus.idleAt ?? clock.now
                let turned = start.duration(to: arrived)
                if turned > revised.modules[i].start + Self.lateness {
                    revised = revised.replacing(module: i, to: target, from: committed[i], at: turned, profile: profile(of: i))
                    revisionContinuation.yield(PlanRevision(original: plan, revised: revised))
                }
                committed[i] = target
                busyUntil[i] = start.advanced(by: revised.modules[i].end + Self.settling)
            }
            try await clock.sleep(until: start.advanced(by: revised.duration + Self.settling), tolerance: nil)
            for i in order { estimated[i] = plan.modules[i].target }
            try await checkLandings(sent.sorted())
        } catch {
            if let failure = error as? HardwareError { lastError = failure }
            // Modules sent their frame turn on to their targets; the rest stay where they are.
            estimated = revised.resting(at: cutoff.elapsed ?? start.duration(to: clock.now), sent: sent, moving: order, estimated: estimated)
            throw error
        }
    }

    /// Where flapd believes each module is.
    public func positions() -> [Int] { estimated }

    /// Stops the bus. The modules keep their flaps; their firmware leaves the coils off at rest.
    public func shutDown() async {
        forwarding?.cancel()
        await bus.stop()
    }

    /// What happened on the bus worth telling (a module silent, an answer not understood).
    public func notices() -> AsyncStream<PanelNotice> { noticeStream }

    /// Each plan as revised for modules that were still turning when it started.
    public func revisions() -> AsyncStream<PlanRevision> { revisionStream }

    func say(_ level: PanelNotice.Level, _ text: String) { noticeContinuation.yield(PanelNotice(level, text)) }
}
