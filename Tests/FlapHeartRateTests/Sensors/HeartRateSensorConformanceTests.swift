import FlapHeartRate
import FlapHardware
import FlapLinux
import FlapSimulated
import Foundation
import Testing
import TestSupport

/// What every heart-rate source promises (HeartRateSensor's requirements), checked against each
/// real driver on its lowest interface and each simulated twin.
@Suite(.timeLimit(.minutes(5))) struct HeartRateSensorConformanceTests {
    typealias Recorder = HeartRateRecorder<ContinuousClock.Instant>

    enum Kind: String, CaseIterable, Sendable { case ble, ant, serial, synthetic, trace }

    /// A source with what keeps readings coming from it, and what tears its peer down.
    struct Rig {
        var sensor: any HeartRateSensor<ContinuousClock.Instant>
        var driver: String
        var stimulate: @Sendable () async -> Void
        var tearDown: @Sendable () async -> Void
    }

    static func rig(_ kind: Kind) async throws -> Rig {
        let clock = ContinuousClock()
        switch kind {
        case .ble:
            let peer = try await BlueZPeer.start()
            try await peer.call("AddAdapter", ["hci0", "kiosk"])
            try await peer.addStrap("C4:7C:8D:6A:12:34", name: "Polar H10")
            return Rig(sensor: try BlueZHeartRateSensor(adapter: "hci0", busAddress: peer.address, clock: clock), driver: "ble",
                       stimulate: { try? await peer.notify("C4:7C:8D:6A:12:34", [0x16, 64, 0x20, 0x03]) },
                       tearDown: { await peer.stop() })
        case .ant:
            let (device, path) = try LinuxSerialPort.pseudoTerminal(settings: SerialSettings(baudRate: 115_200))
            let stick = SimulatedANTStick(port: device, clock: clock, straps: [.init(deviceNumber: 31_337, bpm: 64)])
            let running = Task { await stick.run() }
            return Rig(sensor: ANTHeartRateSensor(device: path, deviceNumbers: [31_337], clock: clock) {
                try LinuxSerialPort(path: path, settings: SerialSettings(baudRate: 115_200))
            }, driver: "ant", stimulate: {}, tearDown: { running.cancel(); await running.value; await device.close() })
        case .serial:
            let (device, path) = try LinuxSerialPort.pseudoTerminal(settings: SerialSettings(baudRate: 9600))
            return Rig(sensor: SerialHeartRateSensor(device: path, format: .automatic, clock: clock) {
                try LinuxSerialPort(path: path, settings: SerialSettings(baudRate: 9600))
            }, driver: "serial", stimulate: { try? await device.write(Array("{\"bpm\":64,\"rr\":[937]}\n".utf8)) },
                       tearDown: { await device.close() })
        case .synthetic:
            return Rig(sensor: SyntheticHeartRateSensor(count: 2, seed: 7, dropouts: false, clock: clock), driver: "simulated",
                       stimulate: {}, tearDown: {})
        case .trace:
            let trace = "0,64,937\n0.5,65,923\n1,66,909\n"
            return Rig(sensor: try TraceHeartRateSensor(named: "trace", text: trace, loops: true, clock: clock), driver: "simulated",
                       stimulate: {}, tearDown: {})
        }
    }

    @Test(arguments: Kind.allCases) func keepsItsPromises(_ kind: Kind) async throws {
        let rig = try await Self.rig(kind)
        let recorder = Recorder()
        let sensor = rig.sensor
        let running = Task { await sensor.run(recorder.emit) }
        let stimulating = Task {
            while !Task.isCancelled {
                await rig.stimulate()
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
        // A minute: the ANT stick's set-up is several exchanges over a real pty, each of which a
        // busy machine can hold up for seconds.
        let arrived = try await recorder.until(60) { $0.samples.count >= 3 }
        stimulating.cancel()

        // It stops when cancelled rather than finishing a wait (BlueZ's Connect waits 25 s), and says
        // nothing afterwards. The bound is loose: on two busy cores a task can wait seconds for a thread.
        let cancelled = ContinuousClock.now
        running.cancel()
        await running.value
        #expect(cancelled.duration(to: .now) < .seconds(12), "\(kind) took \(cancelled.duration(to: .now)) to stop")
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
