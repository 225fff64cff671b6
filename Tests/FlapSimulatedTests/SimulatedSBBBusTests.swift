import FlapClocks
import FlapHardware
import FlapSimulated
import TestSupport
import Testing

/// The SBB/annax twin at the byte level, in simulated time: a module reads a frame only after a
/// BREAK, turns a blade at a time and says where it is while it turns, answers its serial
/// number, and takes each value of a frame with several in address order.
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct SimulatedSBBBusTests {
    struct Rig {
        let clock: EventClock
        let host: SimulatedSerialPort<EventClock>
        let bus: SimulatedSBBBus<EventClock>
        let running: Task<Void, any Error>

        static func make(_ modules: [SimulatedSBBModule]) -> Rig {
            let clock = EventClock.drivenByCaller()
            let (host, device) = SimulatedSerialPort.pair(clock: clock, settings: SBBLine.settings, names: ("/dev/ttyUSB-sbb", "bus"))
            let bus = SimulatedSBBBus(port: device, clock: clock, modules: modules)
            return Rig(clock: clock, host: host, bus: bus, running: clock.task { await bus.run() })
        }

        /// Sends `command` to `address` after a BREAK, and reads its answer's bytes.
        func ask(_ command: SBBCommand, _ address: Int, withBreak: Bool = true) async throws -> [UInt8] {
            if withBreak { try await host.sendBreak(for: .milliseconds(1)) }
            try await host.write(try command.frame(to: address))
            var answer: [UInt8] = []
            let deadline = clock.now.advanced(by: .milliseconds(100))
            while clock.now < deadline, answer.count < command.answerLength {
                answer += try await host.read(maximum: 16, timeout: clock.now.duration(to: deadline))
            }
            return answer
        }

        func stop() async {
            running.cancel()
            _ = await clock.standingAside { await running.result }
        }
    }

    @Test func aModuleReadsOnlyWhatFollowsABreak() async throws {
        let rig = Rig.make([SimulatedSBBModule(address: 29, serial: 43516, type: 2, blades: 62)])
        teardown { await rig.stop() }
        #expect(try await rig.ask(.serial, 29, withBreak: false) == [], "no BREAK, no frame")
        #expect(try await rig.ask(.serial, 29) == [0xFC, 0xA9, 0x00, 0x00])
        #expect(try await rig.ask(.serial, 30) == [], "another address")
        #expect(try await rig.ask(.type, 29) == [2])
        #expect(try await rig.ask(.version, 29) == [0x01, 0x02])
        #expect(await rig.bus.breaks == 4)
    }

    @Test func itTurnsABladeAtATimeAndSaysWhereItIs() async throws {
        let rig = Rig.make([SimulatedSBBModule(address: 1, serial: 1, blades: 40)])
        teardown { await rig.stop() }
        _ = try await rig.ask(.show(10), 1)
        let started = rig.clock.now
        try await rig.clock.sleep(for: .milliseconds(450), tolerance: nil)
        #expect(try await rig.ask(.position, 1) == [4], "four blades fallen in 450 ms")
        try await rig.clock.sleep(for: .seconds(1), tolerance: nil)
        #expect(try await rig.ask(.position, 1) == [10])
        let landings = await rig.bus.module(0).landings
        #expect(landings.map(\.blade) == Array(1...10) && landings.last.map { $0.at - landings[0].at } == .milliseconds(900))
        _ = started
        // Zero, and a module that overshoots lands past what it was sent, and says so.
        await rig.bus.wear(module: 0, overshoot: 2)
        _ = try await rig.ask(.show(12), 1)
        try await rig.clock.sleep(for: .seconds(1), tolerance: nil)
        #expect(try await rig.ask(.position, 1) == [14])
    }

    @Test func aFrameOfSeveralValuesGoesToTheModulesInAddressOrder() async throws {
        let rig = Rig.make((5...7).map { SimulatedSBBModule(address: $0, serial: UInt32($0), blades: 40) })
        teardown { await rig.stop() }
        try await rig.host.sendBreak(for: .milliseconds(1))
        try await rig.host.write([0xFF, 0xC0, 5, 3, 1, 2])
        try await rig.clock.sleep(for: .seconds(1), tolerance: nil)
        #expect(await rig.bus.positions() == [3, 1, 2])
        // A new address is taken, and answered to.
        try await rig.host.sendBreak(for: .milliseconds(1))
        try await rig.host.write(try SBBCommand.setAddress(40).frame(to: 7))
        #expect(try await rig.ask(.position, 40) == [2])
    }
}
