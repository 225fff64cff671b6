import FlapClocks
import FlapHardware
import FlapSimulated
import Testing

/// The simulated controller behaves as the firmware does, seen through raw frames on a simulated
/// serial cable (10 bits a byte at 230400 baud), in simulated time that waits for both ends.
@Suite(.timeLimit(.minutes(3))) struct SimulatedChainlinkControllerTests {
    struct Bench {
        let clock = EventClock.drivenByCaller()
        let host: SimulatedSerialPort<EventClock>
        let controller: SimulatedChainlinkController<EventClock>
        let running: Task<Void, any Error>
        var splitter = ChainlinkFrameSplitter()

        init(modules: Int) {
            let (host, device) = SimulatedSerialPort.pair(clock: clock)
            self.host = host
            controller = SimulatedChainlinkController(
                port: device, clock: clock, modules: modules, rotorSteps: Array(repeating: 2040, count: modules))
            let controller = controller
            running = clock.task { await controller.run() }
        }

        func send(_ message: ToSplitflap) async throws { try await host.write(ChainlinkFrame.encode(message)) }

        /// What the controller says, decoded (plaintext and bad frames dropped), until `done`
        /// holds for it (or for `duration` when `done` is nil); at most `limit`.
        mutating func listen(
            for duration: Duration? = nil, limit: Duration = .seconds(120),
            until done: (([FromSplitflap]) async -> Bool)? = nil
        ) async throws -> [FromSplitflap] {
            let start = clock.now
            var messages: [FromSplitflap] = []
            while start.duration(to: clock.now) < (duration ?? limit) {
                for frame in splitter.frames(after: try await host.read(maximum: 4096, timeout: .milliseconds(10))) {
                    if let message = try? ChainlinkFrame.decode(frame) { messages.append(message) }
                }
                if let done, await done(messages) { return messages }
            }
            if done != nil { Issue.record("the controller never said what was awaited; it said \(messages.count) things") }
            return messages
        }
    }

    @Test func itStartsInPlaintextAndAFramedMessageGetsAnAckOnlyAfterTheZero() async throws {
        var bench = Bench(modules: 2)
        defer { bench.running.cancel() }
        try await bench.send(ToSplitflap(nonce: 7, payload: .requestState))
        let before = try await bench.listen(for: .milliseconds(300))
        #expect(!before.contains(.ack(nonce: 7)), "still in plaintext mode: no frames")
        try await bench.host.write([0])
        try await bench.send(ToSplitflap(nonce: 8, payload: .requestState))
        let after = try await bench.listen { messages in
            messages.contains(.ack(nonce: 8))
                && messages.contains { if case .state(let s) = $0 { s.modules.count == 2 } else { false } }
                && messages.contains { if case .general(let g) = $0 { g.flapCharacterSet.count == 52 } else { false } }
        }
        #expect(!after.isEmpty)
    }

    @Test func aRepeatedNonceIsAckedNotAppliedAndABadCRCIsLoggedNotAcked() async throws {
        var bench = Bench(modules: 3)
        defer { bench.running.cancel() }
        try await bench.host.write([0])
        try await waitForHoming(bench)
        let config = ToSplitflap(nonce: 21, payload: .config([.init(targetFlapIndex: 5), .init(targetFlapIndex: 9)]))
        try await bench.send(config)
        try await bench.send(config)
        var corrupt = ChainlinkFrame.encode(ToSplitflap(nonce: 22, payload: .config([.init(targetFlapIndex: 30)])))
        corrupt[4] ^= 0x20
        try await bench.host.write(corrupt)
        let controller = bench.controller
        let heard = try await bench.listen { messages in
            let flaps = await controller.flaps()
            return messages.filter { $0 == .ack(nonce: 21) }.count == 2 && messages.contains(.log("Already handled nonce 21"))
                && messages.contains { if case .log(let text) = $0 { text.contains("bad CRC") } else { false } }
                && flaps == [5, 9, 0]
        }
        #expect(!heard.contains(.ack(nonce: 22)))
        #expect(await bench.controller.configs.count == 1)
        // The module left out of the config went to flap 0.
        #expect(await bench.controller.flaps() == [5, 9, 0])
    }

    @Test func aNewResetNonceReHomesAndANewMovementNonceTurnsOnce() async throws {
        var bench = Bench(modules: 1)
        defer { bench.running.cancel() }
        try await bench.host.write([0])
        try await waitForHoming(bench)
        let controller = bench.controller
        try await bench.send(ToSplitflap(nonce: 1, payload: .config([.init(targetFlapIndex: 4)])))
        _ = try await bench.listen { _ in
            let (flaps, logic) = (await controller.flaps(), await controller.module(0).logic)
            return flaps == [4] && !logic.isMoving
        }
        let turned = await bench.controller.module(0).mechanism.stepsTurned
        try await bench.send(ToSplitflap(nonce: 2, payload: .config([.init(targetFlapIndex: 4, movementNonce: 1)])))
        _ = try await bench.listen { _ in
            let (logic, mechanism) = await controller.module(0)
            return mechanism.stepsTurned > turned && !logic.isMoving
        }
        #expect(await bench.controller.module(0).mechanism.stepsTurned - turned == 2048)
        try await bench.send(ToSplitflap(nonce: 3, payload: .config([.init(targetFlapIndex: 4, movementNonce: 1, resetNonce: 1)])))
        _ = try await bench.listen { _ in
            let logic = await controller.module(0).logic
            return logic.state == .lookForHome
        }
        try await waitForHoming(bench)
        #expect(await bench.controller.flaps() == [4])
    }

    func waitForHoming(_ bench: Bench) async throws {
        let deadline = bench.clock.now.advanced(by: .seconds(120))
        while bench.clock.now < deadline {
            var done = true
            for i in 0..<(await bench.controller.flaps().count) {
                let logic = await bench.controller.module(i).logic
                done = done && logic.state == .normal && !logic.isMoving
            }
            if done { return }
            try await bench.clock.sleep(for: .milliseconds(20), tolerance: nil)
        }
        Issue.record("the modules never finished homing")
    }
}
