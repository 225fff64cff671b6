import FlapHardware

/// A bus of RS-485 split-flap modules on the far end of a serial port, each behaving as its
/// firmware (v7 or Universal Firmware) does (``SimulatedRS485Module``), on the clock: bytes reach every module when the
/// line carries them, turns take their steps' time, answers go back on the line.
public actor SimulatedRS485Bus<C: Clock> where C.Duration == Duration {
    private let port: any SerialPort
    private let clock: C
    private let origin: C.Instant
    private var modules: [SimulatedRS485Module]
    /// Every flap landed on: which module (by its place in the list), the reel index, when.
    public private(set) var landings: [(module: Int, flap: Int, at: C.Instant)] = []
    /// Every byte the bus carried from the host, and when it arrived.
    public private(set) var received: [(byte: UInt8, at: C.Instant)] = []
    /// Answers that met the host's bytes on the line, and were garbled.
    public private(set) var collisions = 0
    /// Answers waiting for the turn that measures them to end.
    private var pending: [(bytes: [UInt8], at: C.Instant)] = []

    /// Modules with `ids`, the firmware's reel on each, rotors at `rotorSteps` (somewhere on the
    /// turn by default: they home at power-up, which is now). With `serials` (one for each ID)
    /// they run Universal Firmware, but for a nil one, which runs v7 (a mixed wall); `unnumbered` adds Universal Firmware modules with no ID yet,
    /// by their serial numbers.
    public init(
        port: any SerialPort, clock: C, ids: [Int], reel: [UInt8] = RS485Reel.firmware.bytes, stepsPerRevolution: Int = 4096,
        rotorSteps: [Int]? = nil,
        serials: [String?]? = nil, unnumbered: [String] = []
    ) {
        self.port = port
        self.clock = clock
        origin = clock.now
        let numbered = ids.enumerated().map { index, id -> (Int, SimulatedRS485Module.Firmware) in
            (id, serials?[index].map { .universal(serial: $0) } ?? .v7)
        }
        let all = numbered + unnumbered.map { (SimulatedRS485Module.unnumbered, .universal(serial: $0)) }
        let rotors = rotorSteps ?? all.indices.map { ($0 * 1231 + 517) % stepsPerRevolution }
        modules = zip(all, rotors).map {
            SimulatedRS485Module(id: $0.0, firmware: $0.1, reel: reel, stepsPerRevolution: stepsPerRevolution, rotorStep: $1)
        }
        for i in modules.indices { _ = modules[i].powerUp(at: .zero) }
    }

    /// Gives the module numbered `id` `faults` for its own tests to find (Universal Firmware).
    public func inject(_ faults: SimulatedRS485Module.Faults, module id: Int) {
        for index in modules.indices where modules[index].id == id { modules[index].faults = faults }
    }

    /// Gives the module numbered `id` a reel of its own, as a module flashed with its flaps
    /// would have (Universal Firmware says them in its `A` answer).
    public func fit(reel: [UInt8], module id: Int) {
        for index in modules.indices where modules[index].id == id { modules[index].reel = reel }
    }

    /// Runs until cancelled.
    public func run() async {
        while !Task.isCancelled {
            // Bytes end the wait as they come; otherwise it lasts until the next turn ends (or an
            // answer or announcement is due), and at most 50 ms, for a module changed from outside.
            let wait = nextTurnEnd().map { min(.milliseconds(50), max(.microseconds(100), clock.now.duration(to: $0))) } ?? .milliseconds(50)
            let bytes: [(byte: UInt8, arrival: C.Instant)]
            do {
                if let simulated = port as? SimulatedSerialPort<C> {
                    bytes = try await simulated.readArrivals(maximum: 4096, timeout: wait)
                } else {
                    let read = try await port.read(maximum: 4096, timeout: wait)
                    let now = clock.now
                    bytes = read.map { ($0, now) }
                }
            } catch {
                try? await clock.sleep(for: .milliseconds(10), tolerance: nil)
                continue
            }
            // Each byte at the instant the line carried it, the turns due by then ended first.
            for (byte, arrival) in bytes {
                await settle(by: arrival)
                received.append((byte, arrival))
                for i in modules.indices { await apply(modules[i].receive(byte, at: origin.duration(to: arrival)), module: i, at: arrival) }
            }
            let now = clock.now
            await settle(by: now)
            for answer in pending where answer.at <= now { try? await port.write(answer.bytes) }
            pending.removeAll { $0.at <= now }
        }
    }

    /// Writes bytes that are no answer onto the line (a glitch, a module with other firmware).
    public func sendGarbage(_ bytes: [UInt8]) async { try? await port.write(bytes) }

    /// The modules as they are now.
    public func module(_ index: Int) -> SimulatedRS485Module { modules[index] }

    /// Whether every module is at rest now: no turn under way, nothing waiting in its buffer.
    public func resting() -> Bool {
        modules.allSatisfy { module in module.busyUntil.map { origin.advanced(by: $0) <= clock.now } ?? true }
    }

    /// Reel indices showing now (nil for a module not yet homed).
    public func flaps() -> [Int?] { modules.map(\.flap) }

    /// A module that lost power and came back: unhomed, at `rotorStep`, homing after its wait.
    public func powerCycle(module index: Int, rotorStep: Int) {
        var module = SimulatedRS485Module(
            id: modules[index].id, firmware: modules[index].firmware, reel: modules[index].reel,
            stepsPerRevolution: modules[index].stepsPerRevolution, rotorStep: rotorStep)
        module.offset = modules[index].offset
        module.stored = modules[index].stored
        module.autoHome = modules[index].autoHome
        _ = module.powerUp(at: origin.duration(to: clock.now))
        modules[index] = module
    }

    /// The module numbered `id` taken off the bus, and a new one with no ID put in its place
    /// (Universal Firmware's, `serial`): it powers up now and announces itself.
    public func swap(module id: Int, for serial: String) {
        guard let index = modules.firstIndex(where: { $0.id == id }) else { return }
        let old = modules[index]
        modules[index] = SimulatedRS485Module(
            id: SimulatedRS485Module.unnumbered, firmware: .universal(serial: serial), reel: old.reel, stepsPerRevolution: old.stepsPerRevolution,
            rotorStep: (old.currentStep + old.stepsPerRevolution / 3) % old.stepsPerRevolution)
        _ = modules[index].powerUp(at: origin.duration(to: clock.now))
    }

    private func nextTurnEnd() -> C.Instant? {
        (modules.flatMap { [$0.busyUntil, $0.nextAnnouncement].compactMap { $0 } }.map { origin.advanced(by: $0) } + pending.map(\.at)).min()
    }

    private func settle(by now: C.Instant) async {
        for i in modules.indices { await apply(modules[i].settle(by: origin.duration(to: now)), module: i, at: now) }
    }

    private func apply(_ effect: SimulatedRS485Module.Effect, module index: Int, at time: C.Instant) async {
        landings += effect.landings.map { (index, $0.flap, origin.advanced(by: $0.at)) }
        // An answer goes on the line once the turn that measured it has ended, or at its turn
        // after a range broadcast.
        if let answer = effect.answer {
            if let end = modules[index].busyUntil {
                pending.append((answer, origin.advanced(by: end)))
            } else if effect.answerAfter > .zero {
                pending.append((answer, time.advanced(by: effect.answerAfter)))
            } else {
                try? await port.write(collided(answer, at: time))
            }
        }
    }

    /// An answer begun at `time` while the host still drives the half-duplex line (the newline
    /// after a command answered at once): both transmitters meet on its first byte, which the
    /// host reads as noise.
    private func collided(_ answer: [UInt8], at time: C.Instant) -> [UInt8] {
        guard let simulated = port as? SimulatedSerialPort<C>, let ends = simulated.incomingEnds, ends > time, !answer.isEmpty else { return answer }
        collisions += 1
        return [0xFF] + answer.dropFirst()
    }
}
