import FlapCore
import FlapHardware

/// A Chainlink controller as its firmware behaves, on the far end of a serial port: it starts in
/// the plaintext protocol (printing a JSON line) until a 0x00 switches it to framed protobuf;
/// acks every good frame at once, ignores a repeated nonce (logging it), logs and does not ack a
/// bad CRC; applies whole configs (a module left out goes to flap 0; a changed movement nonce
/// forces a full turn; a changed reset nonce re-homes); runs each module's stepper logic against
/// a simulated mechanism on the clock; and reports state on change (at most every 100 ms), every
/// 5 s, and on request, with its general state every 2 s. Faults can be injected while it runs.
public actor SimulatedChainlinkController<C: Clock> where C.Duration == Duration {
    private let port: any SerialPort
    private let clock: C
    /// Its modules' steppers.
    public nonisolated let profile: StepperProfile
    private let flapCharacterSet: [UInt8]
    private var bootedAt: C.Instant
    private var modules: [StepperModule]
    private var mechanisms: [SimulatedMechanism]
    private var nextTick: [C.Instant?]
    private var config: [ToSplitflap.ModuleConfig]
    private var framed = false
    private var splitter = ChainlinkFrameSplitter()
    private var lastNonce: UInt32?
    private var silent = false
    private var lastState: SplitflapState?
    private var lastStateSent: C.Instant?
    private var lastGeneralSent: C.Instant?
    private var stateRequested = false

    /// Frames that failed their CRC or did not decode (logged, not acked).
    public private(set) var rejectedFrames = 0
    /// Frames whose nonce was the last one handled (acked again, not applied).
    public private(set) var repeatedNonces = 0
    /// Each new config as it arrived: when, and every module's target flap.
    public private(set) var configs: [(arrived: C.Instant, targets: [Int])] = []
    /// When each new config arrived.
    public var configArrivals: [C.Instant] { configs.map(\.arrived) }
    /// Log lines sent to the host.
    public private(set) var logs: [String] = []

    /// A controller of `modules` modules with `drum` on each (its flap characters as the firmware
    /// names them), each module's rotor at `rotorSteps` (random-looking by default: it must home).
    public init(
        port: any SerialPort, clock: C, modules count: Int, drum: String = chainlink52Flaps,
        rotorSteps: [Int]? = nil
    ) {
        self.port = port
        self.clock = clock
        flapCharacterSet = Array(drum.utf8)
        profile = StepperProfile(flaps: flapCharacterSet.count)
        bootedAt = clock.now
        modules = Array(repeating: StepperModule(profile: profile), count: count)
        let rotors = rotorSteps ?? (0..<count).map { ($0 * 617 + 301) % 2048 }
        mechanisms = rotors.map { SimulatedMechanism(rotorStep: $0) }
        nextTick = Array(repeating: bootedAt, count: count)
        config = Array(repeating: ToSplitflap.ModuleConfig(targetFlapIndex: 0), count: count)
    }

    /// Runs until cancelled: reads the host, turns the modules, reports.
    public func run() async {
        await send(raw: Array("{\"type\":\"init\", \"num_modules\":\(modules.count)}\n".utf8))
        while !Task.isCancelled {
            let bytes: [UInt8]
            do {
                bytes = try await port.read(maximum: 4096, timeout: .milliseconds(2))
            } catch {
                try? await clock.sleep(for: .milliseconds(10), tolerance: nil)
                continue
            }
            let now = clock.now
            advance(to: now)
            guard !silent else { continue }
            await receive(bytes, at: now)
            // In its plaintext mode the firmware sends no frames.
            if framed { await report(at: now) }
        }
    }

    // MARK: Injected faults and inspection

    /// A hung controller: reads nothing, answers nothing, until `false`.
    public func setSilent(_ silent: Bool) { self.silent = silent }

    /// Restarts the firmware: plaintext mode, everything re-homes, the config forgotten.
    public func reboot() async {
        framed = false
        lastStateSent = nil
        lastGeneralSent = nil
        lastNonce = nil
        lastState = nil
        modules = Array(repeating: StepperModule(profile: profile), count: modules.count)
        config = Array(repeating: ToSplitflap.ModuleConfig(targetFlapIndex: 0), count: modules.count)
        nextTick = Array(repeating: clock.now, count: modules.count)
        bootedAt = clock.now
        await send(raw: Array("{\"type\":\"init\", \"num_modules\":\(modules.count)}\n".utf8))
    }

    /// Gives `module`'s hall sensor `fault`.
    public func setSensorFault(_ fault: SimulatedMechanism.SensorFault, module: Int) { mechanisms[module].sensorFault = fault }
    /// Makes `module` lose every `n`-th step (nil: none).
    public func setLostSteps(every n: Int?, module: Int) { mechanisms[module].losesEveryNthStep = n }

    /// Writes bytes that are no frame at all onto the line (a glitch, a stray debug print).
    public func sendGarbage(_ bytes: [UInt8]) async { await send(raw: bytes) }

    /// The module's logic and mechanism, as they are now.
    public func module(_ index: Int) -> (logic: StepperModule, mechanism: SimulatedMechanism) { (modules[index], mechanisms[index]) }

    /// Drum indices showing now.
    public func flaps() -> [Int] { modules.map(\.currentFlap) }

    // MARK: The firmware's loop

    private func advance(to now: C.Instant) {
        for i in modules.indices {
            // The firmware updates every module on every pass; only modules at rest sleep here.
            if nextTick[i] == nil, modules[i].isMoving { nextTick[i] = now }
            while let due = nextTick[i], due <= now {
                let (coils, next) = modules[i].tick(sensor: mechanisms[i].sensor)
                mechanisms[i].drive(coils)
                // An idle module sleeps until a command wakes it (the firmware polls; same result).
                nextTick[i] = modules[i].isMoving || modules[i].acceleration > 0 ? due.advanced(by: next) : nil
            }
        }
    }

    private func receive(_ bytes: [UInt8], at now: C.Instant) async {
        var bytes = bytes
        if !framed {
            guard let zero = bytes.firstIndex(of: 0) else { return }
            framed = true
            bytes.removeFirst(zero + 1)
        }
        for frame in splitter.frames(after: bytes) { await handle(frame, at: now) }
    }

    private func handle(_ frame: [UInt8], at now: C.Instant) async {
        let message: ToSplitflap
        do {
            message = try ChainlinkFrame.decodeHostMessage(frame)
        } catch {
            rejectedFrames += 1
            await log("\(error)")
            return
        }
        await send(.ack(nonce: message.nonce))
        guard message.nonce != lastNonce else {
            repeatedNonces += 1
            await log("Already handled nonce \(message.nonce)")
            return
        }
        lastNonce = message.nonce
        switch message.payload {
        case .requestState:
            stateRequested = true
        case .config(let given):
            configs.append((now, given.map { Int($0.targetFlapIndex) }))
            await apply(given, at: now)
        }
    }

    private func apply(_ given: [ToSplitflap.ModuleConfig], at now: C.Instant) async {
        for i in modules.indices {
            let wanted = i < given.count ? given[i] : ToSplitflap.ModuleConfig(targetFlapIndex: 0)
            if wanted.resetNonce != config[i].resetNonce {
                modules[i].rehome()
                wake(i, at: now)
            }
            if wanted.targetFlapIndex != config[i].targetFlapIndex || Int(wanted.targetFlapIndex) != modules[i].targetFlap
                || wanted.movementNonce != config[i].movementNonce
            {
                if Int(wanted.targetFlapIndex) >= profile.flaps {
                    await log("Invalid flap index (\(wanted.targetFlapIndex)) specified for module \(i)")
                } else {
                    modules[i].go(to: Int(wanted.targetFlapIndex))
                    wake(i, at: now)
                }
            }
            config[i] = wanted
        }
    }

    private func wake(_ module: Int, at now: C.Instant) {
        if nextTick[module] == nil { nextTick[module] = now }
    }

    private func report(at now: C.Instant) async {
        let state = SplitflapState(
            modules: modules.indices.map { i in
                var m = SplitflapState.Module()
                m.state = SplitflapState.Module.State(rawValue: modules[i].state.rawValue) ?? .panic
                m.flapIndex = modules[i].currentFlap
                m.moving = modules[i].isMoving
                m.homeState = mechanisms[i].sensor
                m.countUnexpectedHome = modules[i].unexpectedHomes
                m.countMissedHome = modules[i].missedHomes
                return m
            }, loopbacksOK: true)
        let since = lastStateSent.map { $0.duration(to: now) }
        let changed = state != lastState && (since ?? .seconds(1)) >= .milliseconds(100)
        if changed || stateRequested || (since ?? .seconds(10)) > .seconds(5) {
            await send(.state(state))
            lastState = state
            lastStateSent = now
        }
        if stateRequested || lastGeneralSent.map({ $0.duration(to: now) > .seconds(2) }) ?? true {
            let uptime = bootedAt.duration(to: now)
            await send(
                .general(
                    GeneralState(
                        serialProtocolVersion: 1, uptimeMillis: Int(uptime / .milliseconds(1)),
                        flapCharacterSet: flapCharacterSet)))
            lastGeneralSent = now
        }
        stateRequested = false
    }

    private func log(_ text: String) async {
        logs.append(text)
        await send(.log(text))
    }

    private func send(_ message: FromSplitflap) async { await send(raw: ChainlinkFrame.encode(message)) }

    private func send(raw bytes: [UInt8]) async {
        try? await port.write(bytes)
    }
}

/// The v2 drum as the Chainlink firmware lists it (g r y p w: colour flaps).
public let chainlink52Flaps = " ABCDEFGHIJKLMNOPQRSTUVWXYZg0123456789r.?-$'#yp,!@&w"
