import FlapHardware

/// A bus of simulated SBB/annax modules on the device end of a simulated serial line: each
/// byte reaches every module at the instant the line carried it, a BREAK starts each frame, and
/// an addressed module's answer goes back on the line a moment after its question.
public actor SimulatedSBBBus<C: Clock> where C.Duration == Duration {
    private let port: SimulatedSerialPort<C>
    private let clock: C
    private let origin: C.Instant
    private var modules: [SimulatedSBBModule]
    private var pending: [(bytes: [UInt8], at: C.Instant)] = []
    /// Every byte the modules received, and when.
    public private(set) var received: [(byte: UInt8, arrival: C.Instant)] = []
    /// How many BREAKs the line carried.
    public private(set) var breaks = 0

    /// `modules` on `port`, their time counted from now.
    public init(port: SimulatedSerialPort<C>, clock: C, modules: [SimulatedSBBModule]) {
        self.port = port
        self.clock = clock
        self.modules = modules
        origin = clock.now
    }

    /// The modules as they are now.
    public func module(_ index: Int) -> SimulatedSBBModule { modules[index] }

    /// The blade each module shows now.
    public func positions() -> [Int] {
        settle(by: clock.now)
        return modules.map(\.position)
    }

    /// Makes module `index` turn `blades` past every target from now on.
    public func wear(module index: Int, overshoot blades: Int) { modules[index].overshoot = blades }

    /// Runs until cancelled.
    public func run() async {
        while !Task.isCancelled {
            let due = ([modules.compactMap(\.busyUntil).min().map { origin.advanced(by: $0) }] + pending.map(\.at)).compactMap { $0 }.min()
            let wait = due.map { min(.milliseconds(50), max(.microseconds(100), clock.now.duration(to: $0))) } ?? .milliseconds(50)
            guard let bytes = try? await port.readArrivals(maximum: 256, timeout: wait) else {
                try? await clock.sleep(for: .milliseconds(10), tolerance: nil)
                continue
            }
            for (byte, arrival) in bytes {
                for _ in port.breaksEnded(by: arrival) {
                    breaks += 1
                    for i in modules.indices { modules[i].breakEnded() }
                }
                received.append((byte, arrival))
                for i in modules.indices {
                    if let answer = modules[i].receive(byte, at: origin.duration(to: arrival)).answer {
                        pending.append((answer, arrival.advanced(by: SimulatedSBBModule.answerDelay)))
                    }
                }
            }
            let now = clock.now
            settle(by: now)
            for answer in pending where answer.at <= now { try? await port.write(answer.bytes) }
            pending.removeAll { $0.at <= now }
        }
    }

    private func settle(by now: C.Instant) {
        for i in modules.indices { modules[i].settle(by: origin.duration(to: now)) }
    }
}
