import FlapClocks
import FlapHardware
import FlapSimulated
import Synchronization
import TestSupport
import Testing

/// The host's side of an SBB/annax bus against the twin, in simulated time: modules found by
/// asking each address its serial number, with progress; a blade set and read back; silence
/// where no module is.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct SBBBusTests {
    struct Rig {
        let clock: EventClock
        let twin: SimulatedSBBBus<EventClock>
        let bus: SBBBus<EventClock>
        let running: Task<Void, any Error>

        static func make(_ modules: [SimulatedSBBModule]) -> Rig {
            let clock = EventClock.drivenByCaller()
            let (host, device) = SimulatedSerialPort.pair(clock: clock, settings: SBBLine.settings, names: ("/dev/ttyUSB-sbb", "bus"))
            let twin = SimulatedSBBBus(port: device, clock: clock, modules: modules)
            let bus = SBBBus(device: host.name, clock: clock) { host }
            return Rig(clock: clock, twin: twin, bus: bus, running: clock.task { await twin.run() })
        }

        func stop() async {
            running.cancel()
            _ = await clock.standingAside { await running.result }
        }
    }

    @Test func modulesAreFoundByAskingEachAddress() async throws {
        let rig = Rig.make([
            SimulatedSBBModule(address: 3, serial: 1001, type: 1, blades: 25), SimulatedSBBModule(address: 7, serial: 1002, type: 2, blades: 62)
        ])
        teardown { await rig.stop() }
        let asked = Mutex<[Int]>([])
        let found = try await rig.bus.find(0...9) { address, _ in asked.withLock { $0.append(address) } }
        #expect(found.map(\.address) == [3, 7] && found.map(\.serial) == [1001, 1002])
        #expect(asked.withLock { $0 } == Array(0...9), "each address said as it was asked")
        await #expect(throws: SBBFrameError.self) { try await rig.bus.find(250...300) }
    }

    @Test func aBladeIsSetAndReadBackOnceItHasLanded() async throws {
        let rig = Rig.make([SimulatedSBBModule(address: 29, serial: 43516, type: 2, blades: 62)])
        teardown { await rig.stop() }
        try await rig.bus.send(.show(12), to: 29)
        try await rig.clock.sleep(for: SimulatedSBBModule.defaultBladeTime * 13)
        #expect(try await rig.bus.ask(.position, of: 29) == .position(12))
        #expect(try await rig.bus.ask(.type, of: 29) == .type(2))
        #expect(try await rig.bus.ask(.position, of: 30) == nil, "no module at 30")
        await #expect(throws: SBBFrameError.outOfRange("a blade", 300)) { try await rig.bus.send(.show(300), to: 29) }
    }
}
