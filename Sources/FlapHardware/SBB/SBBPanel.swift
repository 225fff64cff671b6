import FlapCore

/// A wall of SBB/annax split-flap modules, one module a cell, all on one bus, each by its address.
///
/// The modules say which blade they show (`D0`), so flapd starts from what they say, and after
/// each board asks every module it moved: one that shows another blade is sent its blade again,
/// and one that still does is a fault of the wall's, and flapd reports the blade it says. A plan
/// is played by sending each moving module its blade (`C0`) so that its first blade falls at the
/// module's start; the planner spaces the frames by a BREAK and a frame's time on the bus.
public actor SBBPanel<C: Clock>: Panel where C.Duration == Duration {
    /// The wall's size and drum (the board characters among its blades).
    public nonisolated let info: PanelInfo
    /// The modules' motion, which plans are timed by.
    public nonisolated let profile: StepperProfile
    let bus: SBBBus<C>
    let clock: C
    /// The wall's blades, which modules with none of their own carry.
    let wallBlades: SBBBlades
    /// Each module's blades, row-major: the wall's, or its type's own (an hour or minute module
    /// beside destinations).
    let moduleBlades: [SBBBlades]
    /// Each module's motion, row-major.
    let profiles: [StepperProfile]
    let bladeTime: Duration
    /// Each cell's module address, row-major (changed by an `address` command).
    public internal(set) var addresses: [Int]
    var estimated: [Int]
    /// What the checks after each board last found wrong, by module.
    var findings: [Int: String] = [:]
    /// The search of the bus's addresses under way, or the last one.
    var search: ModuleSearch?
    /// Modules found still turning after a plan's end, told once each.
    var slow: Set<Int> = []
    var lastError: HardwareError?
    /// Whether a board or a module command has the bus, and who waits for it: a command that
    /// turns a module must not cross a board's frames, nor the reading back of its landings.
    private var exchanging = false
    private var waitingToExchange: [CheckedContinuation<Void, Never>] = []
    private let noticeContinuation: AsyncStream<PanelNotice>.Continuation
    private let noticeStream: AsyncStream<PanelNotice>
    private let revisionContinuation: AsyncStream<PlanRevision>.Continuation
    private let revisionStream: AsyncStream<PlanRevision>

    /// A panel of the modules at `addresses` (row-major), each with `blades` unless `ownBlades`
    /// gives its address blades of its own, on `bus`.
    public init(
        info: PanelInfo, bus: SBBBus<C>, clock: C, addresses: [Int], blades: SBBBlades, bladeTime: Duration = SBBBlades.defaultBladeTime,
        ownBlades: [Int: SBBBlades] = [:]
    ) {
        precondition(addresses.count == info.size.count, "one address a cell")
        self.info = info
        self.bus = bus
        self.clock = clock
        self.addresses = addresses
        wallBlades = blades
        moduleBlades = addresses.map { ownBlades[$0] ?? blades }
        self.bladeTime = bladeTime
        let profile = blades.profile(bladeTime: bladeTime)
        self.profile = profile
        profiles = moduleBlades.map { $0 == blades ? profile : $0.profile(bladeTime: bladeTime) }
        estimated = Array(repeating: 0, count: addresses.count)
        (noticeStream, noticeContinuation) = AsyncStream.makeStream(of: PanelNotice.self, bufferingPolicy: .bufferingNewest(256))
        (revisionStream, revisionContinuation) = AsyncStream.makeStream(of: PlanRevision.self, bufferingPolicy: .bufferingNewest(8))
    }

    /// A frame's time on the bus: its BREAK and four bytes.
    public static var frameTime: Duration { SBBLine.breakTime + SBBLine.airtime(of: 4) }

    /// Asks each module which blade it shows: flapd starts from what they say. A silent module is
    /// sent home (`C5`) and counted at blank; three silent in a row (no adapter, no power) end
    /// the asking, with one warning, and the rest are sent home too.
    public func start() async {
        var silent: [Int] = []
        for index in addresses.indices {
            if silent.count == 3, silent.count < addresses.count {
                silent.append(addresses[index])
                continue
            }
            do {
                if case .position(let blade)? = try await bus.ask(.position, of: addresses[index]), blade < blades(index).count {
                    estimated[index] = blades(index).drumFlap(atBlade: blade)
                    silent.removeAll()
                    continue
                }
                silent.append(addresses[index])
            } catch let error as HardwareError {
                lastError = error
                say(.error, "\(error); the modules are counted at blank until a board lands")
                return
            } catch {
                silent.append(addresses[index])
            }
        }
        guard !silent.isEmpty else { return }
        say(
            .warning,
            "\(bus.device): module\(silent.count == 1 ? "" : "s") at \(silent.map(String.init).joined(separator: ", ")) did not say where \(silent.count == 1 ? "it is" : "they are"); sent home"
        )
        for address in silent { try? await bus.send(.zero, to: address) }
    }

    /// A blade at a time, and one frame at a time on the bus; each module's own blades where
    /// they differ from the wall's.
    public func planTiming() async -> PlanTiming {
        let own = moduleBlades.contains { $0 != wallBlades }
        return PlanTiming(
            stepper: profile, moduleSteppers: own ? profiles : nil, frameInterval: Self.frameTime,
            moduleDrums: own ? moduleBlades.map(\.drum) : nil)
    }

    /// Module `index`'s blades (row-major).
    func blades(_ index: Int) -> SBBBlades { moduleBlades[index] }

    // MARK: Panel

    /// Sends each moving module its blade as the plan says, waits for the plan's end, and asks
    /// each module sent one where it landed.
    public func play(_ plan: FlipPlan, cutoff: PlayCutoff) async throws {
        await takeTurn()
        defer { endTurn() }
        let start = clock.now
        var revised = plan
        let order = plan.modules.indices.filter { plan.modules[$0].path.count > 1 }
            .sorted { (plan.modules[$0].start, $0) < (plan.modules[$1].start, $1) }
        var sent: Set<Int> = []
        do {
            for i in order {
                let module = plan.modules[i]
                // Sent so that it has crossed the bus at the module's start (its first blade falls
                // a blade's time later, as its profile has it).
                let sendAt = start.advanced(by: max(.zero, module.start - Self.frameTime))
                try await clock.sleep(until: sendAt, tolerance: nil)
                try await bus.send(.show(blades(i).bladeIndex[module.target]), to: addresses[i])
                lastError = nil
                sent.insert(i)
                // Sent late (the bus busy, a machine busy): the module turns later than planned.
                let turned = start.duration(to: clock.now) + SBBLine.airtime(of: 4)
                if turned > revised.modules[i].start + .milliseconds(2) {
                    revised = revised.replacing(module: i, to: module.target, from: module.origin, at: turned, profile: profiles[i])
                    revisionContinuation.yield(PlanRevision(original: plan, revised: revised))
                }
            }
            try await clock.sleep(until: start.advanced(by: revised.duration + bladeTime), tolerance: nil)
            for i in order { estimated[i] = plan.modules[i].target }
            try await checkLandings(sent.sorted())
        } catch {
            if let failure = error as? HardwareError { lastError = failure }
            // Modules sent their blade turn on to it; the rest stay where they are.
            estimated = revised.resting(at: cutoff.elapsed ?? start.duration(to: clock.now), sent: sent, moving: order, estimated: estimated)
            throw error
        }
    }

    /// Where each module is, as it last said or was sent.
    public func positions() -> [Int] { estimated }

    /// Closes the bus. The modules keep their blades.
    public func shutDown() async { await bus.stop() }

    /// What happened on the bus worth telling.
    public func notices() -> AsyncStream<PanelNotice> { noticeStream }

    /// Each plan as revised for frames sent late.
    public func revisions() -> AsyncStream<PlanRevision> { revisionStream }

    /// Waits until the bus is free, and takes it.
    func takeTurn() async {
        guard exchanging else {
            exchanging = true
            return
        }
        await withCheckedContinuation { waitingToExchange.append($0) }
    }

    /// Hands the bus to the next in line.
    func endTurn() {
        if waitingToExchange.isEmpty { exchanging = false } else { waitingToExchange.removeFirst().resume() }
    }

    func say(_ level: PanelNotice.Level, _ text: String) { noticeContinuation.yield(PanelNotice(level, text)) }
}
