import FlapClocks
import FlapHardware
import FlapHeartRate
import FlapLinux
import FlapSimulated
import Testing

/// The ANT driver on one side of a line, the simulated stick on the other: a real pseudo-terminal
/// on the real clock for the set-up byte for byte, a simulated cable on an ``EventClock`` (time
/// waits for both ends, so a loaded machine changes nothing but how long it takes) for the rest.
@Suite(.timeLimit(.minutes(2))) struct ANTStickTests {
    typealias Events = HeartRateRecorder<ContinuousClock.Instant>

    func rig(
        numbers: [UInt16], straps: [SimulatedANTStick<ContinuousClock>.Strap]
    )
        async throws -> (SimulatedANTStick<ContinuousClock>, Events, Task<Void, Never>, Task<Void, Never>)
    {
        let clock = ContinuousClock()
        let (device, path) = try LinuxSerialPort.pseudoTerminal(settings: SerialSettings(baudRate: 115_200))
        let stick = SimulatedANTStick(port: device, clock: clock, straps: straps)
        let stickTask = Task { await stick.run() }
        let sensor = ANTHeartRateSensor(device: path, deviceNumbers: numbers, clock: clock) {
            try LinuxSerialPort(path: path, settings: SerialSettings(baudRate: 115_200))
        }
        let events = Events()
        let sensorTask = Task { await sensor.run(events.emit) }
        return (stick, events, stickTask, sensorTask)
    }

    @Test func twoStrapsOnTwoChannelsWithTheSetUpCheckedByteForByte() async throws {
        let (stick, events, stickTask, sensorTask) = try await rig(
            numbers: [12345, 7], straps: [.init(deviceNumber: 12345, bpm: 60), .init(deviceNumber: 7, bpm: 120)])
        defer { sensorTask.cancel(); stickTask.cancel() }
        // The driver resets a stick that does not start within 2 s, which a busy machine can cause
        // over a real pty: a minute for the set-up to go through whole.
        let both = try await events.until(60) { e in
            Set(e.samples.filter { !$0.rrIntervals.isEmpty }.map(\.strap.address)) == ["12345", "7"]
        }
        #expect(both)
        let sent = await stick.received.map { $0.encoded() }
        func frame(_ bytes: [UInt8]) -> [UInt8] { bytes + [bytes.reduce(0, ^)] }
        var expected: [[UInt8]] = [
            frame([0xA4, 0x01, 0x4A, 0x00]),  // reset
            frame([0xA4, 0x02, 0x4D, 0x00, 0x54]),  // capabilities?
            frame([0xA4, 0x09, 0x46, 0x00, 0xB9, 0xA5, 0x21, 0xFB, 0xBD, 0x72, 0xC3, 0x45])  // ANT+ network key
        ]
        for (channel, number) in [(UInt8(0), UInt16(12345)), (1, 7)] {
            expected += [
                frame([0xA4, 0x03, 0x42, channel, 0x00, 0x00]),  // receive channel on network 0
                frame([0xA4, 0x05, 0x51, channel, UInt8(number & 0xFF), UInt8(number >> 8), 0x78, 0x00]),  // device, type 120
                frame([0xA4, 0x03, 0x43, channel, 0x86, 0x1F]),  // period 8070
                frame([0xA4, 0x02, 0x45, channel, 0x39]),  // 2457 MHz
                frame([0xA4, 0x02, 0x44, channel, 0x0C]),  // search 30 s
                frame([0xA4, 0x01, 0x4B, channel])  // open
            ]
        }
        // A stick that answers late (a loaded machine) is reset and set up again: the set-up that
        // succeeded is there whole, byte for byte, after any attempts cut short.
        let whole = sent.indices.contains { start in Array(sent[start...].prefix(expected.count)) == expected }
        #expect(whole, "\(sent.prefix(expected.count + 8))")
        // 60 BPM: beats 1024/1024 s apart; 120 BPM: 512.
        let rr = Dictionary(grouping: events.samples.flatMap { s in s.rrIntervals.map { (s.strap.address, $0) } }, by: \.0).mapValues { $0.map(\.1) }
        #expect(rr["12345"]?.allSatisfy { abs(Int($0) - 1024) <= 2 } == true)
        #expect(rr["7"]?.allSatisfy { abs(Int($0) - 512) <= 2 } == true)
        #expect(events.samples.contains { $0.strap.address == "7" && $0.bpm == 120 })
        #expect(events.statuses.contains(HeartRateStatus(strap: nil, .connected)))
        #expect(events.statuses.contains(HeartRateStatus(strap: StrapIdentity(driver: "ant", address: "7"), .connected)))
    }

    @Test func aStrapThatLeavesIsLostAndFoundAgainAndGarbleIsSurvived() async throws {
        let clock = EventClock.drivenByCaller()
        let (host, device) = SimulatedSerialPort.pair(
            clock: clock, settings: SerialSettings(baudRate: 115_200), names: ("/dev/simulated-ant", "stick"))
        let stick = SimulatedANTStick(
            port: device, clock: clock, straps: [.init(deviceNumber: 300, bpm: 80), .init(deviceNumber: 301, bpm: 90, numbered: false)])
        let stickTask = clock.task { await stick.run() }
        let sensor = ANTHeartRateSensor(device: host.name, deviceNumbers: [], clock: clock) { host }
        let events = HeartRateRecorder<EventClock.Instant>()
        let sensorTask = clock.task { await sensor.run(events.emit) }
        defer { sensorTask.cancel(); stickTask.cancel() }
        func until(_ condition: (HeartRateRecorder<EventClock.Instant>) -> Bool) async throws -> Bool {
            try await events.until(on: clock, upTo: .seconds(60), condition)
        }
        let strap = StrapIdentity(driver: "ant", address: "300")
        #expect(try await until { Set($0.samples.map(\.strap.address)) == ["300", "301"] })
        #expect(events.samples.first { $0.strap.address == "300" }?.rssi == -60)  // scan mode's extended data
        try await stick.sendGarbage([0x00, 0xA4, 0x07, 0x4E, 0x01, 0x02, 0xFF, 0xA4, 0xA4])
        await stick.setInRange(300, false)
        #expect(try await until { $0.statuses.contains { $0.strap == strap && $0.state.name == "lost" } })
        let heardBefore = events.samples.count
        await stick.setInRange(300, true)
        #expect(try await until { e in e.samples.dropFirst(heardBefore).contains { $0.strap == strap } })
        #expect(events.statuses.last { $0.strap == strap }?.state == .connected)
        #expect(events.samples.suffix(8).contains { $0.strap.address == "301" })  // the other strap never stopped
        #expect(!events.notices.isEmpty)
    }
}
