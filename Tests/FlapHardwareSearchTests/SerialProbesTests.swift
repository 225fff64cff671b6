import FlapClocks
import FlapHardware
import FlapHardwareSearch
import FlapSimulated
import Testing

/// Each driver's greeting against the simulated device at the far end of a simulated cable, in
/// simulated time: a probe's waits are its own (how long it listens), never the machine's speed.
@Suite(.timeLimit(.minutes(3))) struct SerialProbesTests {
    @Test func rs485ModulesAnswerTheirDumpsOneIDAtATime() async throws {
        let clock = EventClock.drivenByCaller()
        let (host, device) = SimulatedSerialPort.pair(clock: clock, settings: .rs485)
        let bus = SimulatedRS485Bus(port: device, clock: clock, ids: [1, 2, 5])
        let running = clock.task { await bus.run() }
        defer { running.cancel() }
        let started = clock.now
        let answer = try await SerialProbes.rs485(host, clock: clock, ids: 1...6)
        guard case .rs485(let modules, _) = answer else { Issue.record("\(String(describing: answer))"); return }
        #expect(modules.map(\.id) == [1, 2, 5])
        #expect(modules.allSatisfy { $0.stepsPerRevolution == 4096 })
        // Modules homing at power-up answer when their turn ends, well within the quarter-minute
        // the bus is listened to for new modules, and v7 ones answer no range broadcast.
        let took = started.duration(to: clock.now)
        #expect(took >= SerialProbes.announcementListening && took < SerialProbes.announcementListening + .seconds(1), "\(took)")
    }

    /// A wall of both firmwares and two new modules: every module answers `d`; the Universal
    /// Firmware ones then say their serial numbers in their turns of one range broadcast; the
    /// new ones are heard announcing themselves before anything is broadcast.
    @Test func universalFirmwareModulesSayTheirSerialsAndNewOnesAnnounceThemselves() async throws {
        let clock = EventClock.drivenByCaller()
        let (host, device) = SimulatedSerialPort.pair(clock: clock, settings: .rs485)
        let universal = SimulatedRS485Bus(
            port: device, clock: clock, ids: [3, 4], serials: ["00000000000000000A03", "00000000000000000A04"],
            unnumbered: ["1F2E3D4C5B6A79881234", "ABCDEF0123456789ABCD"])
        let running = clock.task { await universal.run() }
        defer { running.cancel() }
        let started = clock.now
        let answer = try await SerialProbes.rs485(host, clock: clock, ids: 1...6)
        guard case .rs485(let modules, let unnumbered) = answer else { Issue.record("\(String(describing: answer))"); return }
        #expect(modules.map(\.id) == [3, 4])
        #expect(modules.map(\.firmware) == ["universal", "universal"] && modules.map(\.version) == [31, 31])
        #expect(modules.map(\.serial) == ["00000000000000000A03", "00000000000000000A04"])
        #expect(modules.allSatisfy { $0.flaps == String(decoding: RS485Reel.firmware.bytes, as: UTF8.self) }, "each says its flaps (A)")
        #expect(modules.allSatisfy { $0.stepsPerRevolution == 4096 })
        #expect(Set(unnumbered) == ["1F2E3D4C5B6A79881234", "ABCDEF0123456789ABCD"])
        let took = started.duration(to: clock.now)
        #expect(took >= SerialProbes.announcementListening && took < SerialProbes.announcementListening + .seconds(2), "\(took)")
    }

    @Test func aV7ModuleSaysNothingToTheRangeBroadcastAndIsToldApart() async throws {
        let clock = EventClock.drivenByCaller()
        let (host, device) = SimulatedSerialPort.pair(clock: clock, settings: .rs485)
        let bus = SimulatedRS485Bus(port: device, clock: clock, ids: [2, 7])
        let running = clock.task { await bus.run() }
        defer { running.cancel() }
        let answer = try await SerialProbes.rs485(host, clock: clock, ids: 1...8)
        guard case .rs485(let modules, let unnumbered) = answer else { Issue.record("\(String(describing: answer))"); return }
        #expect(
            modules.map(\.id) == [2, 7] && modules.allSatisfy { $0.firmware == "v7" && $0.serial == nil && $0.flaps == nil } && unnumbered.isEmpty)
    }

    @Test func aChainlinkControllerSaysItsModulesAndItsDrum() async throws {
        let clock = EventClock.drivenByCaller()
        let (host, device) = SimulatedSerialPort.pair(clock: clock, settings: .chainlink)
        let controller = SimulatedChainlinkController(port: device, clock: clock, modules: 6)
        let running = clock.task { await controller.run() }
        defer { running.cancel() }
        let answer = try await SerialProbes.chainlink(host, clock: clock)
        #expect(answer == .chainlink(modules: 6, drum: chainlink52Flaps))
    }

    @Test func aSilentPortIsNeitherAndCostsOnlyItsListening() async throws {
        let clock = EventClock.drivenByCaller()
        let (host, _) = SimulatedSerialPort.pair(clock: clock, settings: .rs485)
        let started = clock.now
        #expect(try await SerialProbes.rs485(host, clock: clock, ids: 1...4) == nil)
        #expect(try await SerialProbes.chainlink(host, clock: clock) == nil)
        #expect(
            started.duration(to: clock.now) <= SerialProbes.announcementListening + SerialProbes.chainlinkListening + .milliseconds(10))
    }

    /// A device that talks but is neither (a GPS, a modem, a console): nothing is made of it.
    @Test func chatterIsNotAController() async throws {
        let clock = EventClock.drivenByCaller()
        let (host, device) = SimulatedSerialPort.pair(clock: clock, settings: .chainlink)
        let chatter = clock.task {
            for _ in 0..<20 {
                try await device.write(Array("$GPGGA,123519,4807.038,N\n{\"type\":\"other\"}\nm05x:12\n".utf8) + [0, 7, 1, 2, 0])
                try await clock.sleep(for: .milliseconds(100), tolerance: nil)
            }
        }
        defer { chatter.cancel() }
        #expect(try await SerialProbes.rs485(host, clock: clock, ids: 1...3) == nil)
        #expect(try await SerialProbes.chainlink(host, clock: clock) == nil)
    }

    /// What a hostile device can send is bounded: a flood ends the reading at its budget.
    @Test func aFloodStopsAtTheBudget() {
        var greeting = ChainlinkGreeting()
        greeting.take([UInt8](repeating: UInt8(ascii: "{"), count: ChainlinkGreeting.budget * 2))
        #expect(greeting.read == ChainlinkGreeting.budget && greeting.isDone && !greeting.recognised)
        var told = ChainlinkGreeting()
        told.take(Array("\n\n\n{\"type\":\"init\", \"num_modules\":12}\n".utf8))
        #expect(told.recognised && told.modules == 12 && told.drum == nil)
        var huge = ChainlinkGreeting()
        huge.take(Array("{\"type\":\"init\", \"num_modules\":99999999}\n".utf8))
        #expect(huge.recognised && huge.modules == nil, "a count no controller has is not taken")
    }
}
