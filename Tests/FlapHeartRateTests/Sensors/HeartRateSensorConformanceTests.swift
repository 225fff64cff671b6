import FlapClocks
import FlapHardware
import FlapHeartRate
import FlapLinux
import FlapSimulated
import Foundation
import TestSupport
import Testing

/// What every heart-rate source promises (HeartRateSensor's requirements), checked against each
/// real driver on its lowest interface and each simulated twin. The ANT stick answers over a
/// simulated cable on an ``EventClock`` (its set-up has a 2-s limit per answer, which a real pty
/// on a busy machine can miss; `ANTStickTests` keeps the real-pty test).
@Suite(.timeLimit(.minutes(5))) struct HeartRateSensorConformanceTests {
    enum Kind: String, CaseIterable, Sendable { case ble, ant, serial, synthetic, trace }

    /// A source with what keeps readings coming from it, what tears its peer down, and how the
    /// test waits on its clock.
    struct Rig<Instant: InstantProtocol & Sendable> {
        var sensor: any HeartRateSensor<Instant>
        var driver: String
        var stimulate: @Sendable () async -> Void
        var tearDown: @Sendable () async -> Void
        /// Waits up to a minute of the source's time until the condition holds of the recorder; whether it did.
        var until: @Sendable (HeartRateRecorder<Instant>, @Sendable (HeartRateRecorder<Instant>) -> Bool) async throws -> Bool
        /// Runs the body, which waits off the source's clock.
        var standingAside: @Sendable (@Sendable () async -> Void) async -> Void
    }

    static func rig(_ kind: Kind) async throws -> Rig<ContinuousClock.Instant> {
        let clock = ContinuousClock()
        func rig(
            _ sensor: any HeartRateSensor<ContinuousClock.Instant>, _ driver: String,
            stimulate: @escaping @Sendable () async -> Void = {}, tearDown: @escaping @Sendable () async -> Void = {}
        ) -> Rig<ContinuousClock.Instant> {
            Rig(
                sensor: sensor, driver: driver, stimulate: stimulate, tearDown: tearDown,
                until: { recorder, condition in try await recorder.until(60, condition) }, standingAside: { await $0() })
        }
        switch kind {
        case .ble:
            let peer = try await BlueZPeer.start()
            try await peer.call("AddAdapter", ["hci0", "kiosk"])
            try await peer.addStrap("C4:7C:8D:6A:12:34", name: "Polar H10")
            return rig(
                try BlueZHeartRateSensor(adapter: "hci0", busAddress: peer.address, clock: clock), "ble",
                stimulate: { try? await peer.notify("C4:7C:8D:6A:12:34", [0x16, 64, 0x20, 0x03]) },
                tearDown: { await peer.stop() })
        case .ant:
            throw PeerError("the ANT stick runs on a clock of its own: antRig()")
        case .serial:
            let (device, path) = try LinuxSerialPort.pseudoTerminal(settings: SerialSettings(baudRate: 9600))
            return rig(
                SerialHeartRateSensor(device: path, format: .automatic, clock: clock) {
                    try LinuxSerialPort(path: path, settings: SerialSettings(baudRate: 9600))
                }, "serial", stimulate: { try? await device.write(Array("{\"bpm\":64,\"rr\":[937]}\n".utf8)) },
                tearDown: { await device.close() })
        case .synthetic:
            return rig(SyntheticHeartRateSensor(count: 2, seed: 7, dropouts: false, clock: clock), "simulated")
        case .trace:
            let trace = "0,64,937\n0.5,65,923\n1,66,909\n"
            return rig(try TraceHeartRateSensor(named: "trace", text: trace, loops: true, clock: clock), "simulated")
        }
    }

    static func antRig() -> Rig<EventClock.Instant> {
        let clock = EventClock.drivenByCaller()
        let (host, device) = SimulatedSerialPort.pair(
            clock: clock, settings: SerialSettings(baudRate: 115_200), names: ("/dev/simulated-ant", "stick"))
        let stick = SimulatedANTStick(port: device, clock: clock, straps: [.init(deviceNumber: 31_337, bpm: 64)])
        let running = clock.task { await stick.run() }
        return Rig(
            sensor: ANTHeartRateSensor(device: host.name, deviceNumbers: [31_337], clock: clock) { host }, driver: "ant",
            stimulate: {},
            tearDown: {
                await clock.standingAside {
                    running.cancel(); _ = await running.result
                }
            },
            until: { recorder, condition in try await recorder.until(on: clock, upTo: .seconds(60), condition) },
            standingAside: { body in await clock.standingAside { await body() } })
    }

    @Test(arguments: Kind.allCases) func keepsItsPromises(_ kind: Kind) async throws {
        if kind == .ant {
            try await check(Self.antRig(), kind)
        } else {
            try await check(Self.rig(kind), kind)
        }
    }

    func check<Instant: InstantProtocol & Sendable>(_ rig: Rig<Instant>, _ kind: Kind) async throws {
        let recorder = HeartRateRecorder<Instant>()
        let sensor = rig.sensor
        let running = Task { await sensor.run(recorder.emit) }
        let stimulating = Task {
            while !Task.isCancelled {
                await rig.stimulate()
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
        let arrived = try await rig.until(recorder) { $0.samples.count >= 3 }
        stimulating.cancel()

        // It stops when cancelled rather than finishing a wait (BlueZ's Connect waits 25 s), and says
        // nothing afterwards. The bound is loose (under the 25 s it guards against): on two busy
        // cores a task can wait seconds for a thread.
        let cancelled = ContinuousClock.now
        running.cancel()
        await rig.standingAside { await running.value }
        #expect(cancelled.duration(to: .now) < .seconds(20), "\(kind) took \(cancelled.duration(to: .now)) to stop")
        // Nothing after it returned, even when the strap speaks again: the stimulus and the rig's
        // teardown (which awaits its peer) mark a point by which a source still running would
        // have said something.
        let count = recorder.all.count
        await rig.stimulate()
        await rig.tearDown()
        #expect(recorder.all.count == count, "\(kind) spoke after it stopped")

        #expect(arrived, "\(kind): no samples; statuses \(recorder.statuses), notices \(recorder.notices)")
        // Its first word is the source searching.
        #expect(recorder.statuses.first == HeartRateStatus(strap: nil, .searching))
        // Readings name their strap and driver, are heart rates, and come in order.
        let samples = recorder.samples
        #expect(samples.allSatisfy { $0.strap.driver == rig.driver })
        #expect(samples.allSatisfy { (20...300).contains($0.bpm) && $0.rrIntervals.allSatisfy { $0 > 0 && $0 < 3 * 1024 } })
        for strap in Set(samples.map(\.strap)) {
            let instants = samples.filter { $0.strap == strap }.map(\.instant)
            #expect(instants == instants.sorted())
        }
        // A strap is said to be connected before its first reading is handed over.
        var connected: Set<StrapIdentity> = []
        for event in recorder.all {
            switch event {
            case .status(let status) where status.state == .connected || status.state == .noContact:
                if let strap = status.strap { connected.insert(strap) }
            case .sample(let sample):
                #expect(connected.contains(sample.strap), "\(kind): \(sample.strap) gave a reading before it was said to be connected")
            default: break
            }
        }
    }
}
