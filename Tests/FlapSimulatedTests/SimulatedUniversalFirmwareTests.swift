import FlapClocks
import FlapHardware
import FlapSimulated
import Testing

/// The Universal Firmware twin as its source behaves, in simulated time: a module with no ID
/// announces itself every 10 to 15 s, falls quiet for 30 s after any broadcast, takes an ID by
/// its serial number, and answers a range broadcast in its turn.
@Suite(.timeLimit(.minutes(3))) struct SimulatedUniversalFirmwareTests {
    /// Lines the host hears until `deadline`, with when each ended.
    func heard(_ host: SimulatedSerialPort<EventClock>, clock: EventClock, until deadline: EventClock.Instant) async throws -> [(String, Duration)] {
        var lines: [(String, Duration)] = [], line: [UInt8] = []
        while clock.now < deadline {
            for byte in try await host.read(maximum: 256, timeout: min(.milliseconds(50), clock.now.duration(to: deadline))) {
                if byte == UInt8(ascii: "\n") {
                    lines.append((String(decoding: line, as: UTF8.self), clock.now.offset))
                    line.removeAll()
                } else {
                    line.append(byte)
                }
            }
        }
        return lines
    }

    @Test func aNewModuleAnnouncesUntilNumberedAndBroadcastsQuietIt() async throws {
        let clock = EventClock.drivenByCaller()
        let (host, device) = SimulatedSerialPort.pair(clock: clock, settings: .rs485)
        let bus = SimulatedRS485Bus(port: device, clock: clock, ids: [], unnumbered: ["ABCDEF0123456789ABCD"])
        let running = clock.task { await bus.run() }
        defer { running.cancel() }
        // Two or three announcements in the first 31 s, each 10 to 15 s after the one before.
        let first = try await heard(host, clock: clock, until: clock.now.advanced(by: .seconds(31)))
        #expect((2...3).contains(first.count) && first.allSatisfy { $0.0 == "mXadv:ABCDEF0123456789ABCD" })
        let gaps = zip(first.dropFirst(), first).map { $0.1 - $1.1 }
        #expect(gaps.allSatisfy { (.seconds(10)...(.seconds(15))).contains($0) } && Set(gaps).count == gaps.count, "\(first.map(\.1))")
        // A broadcast (a show to every module) holds the next one back for 30 s.
        try await host.write(RS485Frame.encode(.show(UInt8(ascii: "A")), to: .all))
        let broadcastAt = clock.now.offset
        let quiet = try await heard(host, clock: clock, until: clock.now.advanced(by: .seconds(29)))
        #expect(quiet.isEmpty, "\(quiet)")
        let after = try await heard(host, clock: clock, until: clock.now.advanced(by: .seconds(17)))
        #expect(after.map(\.0) == ["mXadv:ABCDEF0123456789ABCD"] && (after.first?.1 ?? .zero) - broadcastAt >= .seconds(30))
        // Numbered by its serial, it says so, answers `v` at its ID, and announces no more.
        try await host.write(Array("\nmXIABCDEF0123456789ABCD:12\n".utf8))
        let acknowledged = try await heard(host, clock: clock, until: clock.now.advanced(by: .seconds(1)))
        try await host.write(Array("m12v".utf8))  // answered at its command byte: no newline needed
        let numbered = try await heard(host, clock: clock, until: clock.now.advanced(by: .seconds(20)))
        #expect((acknowledged + numbered).map(\.0) == ["mXack:ABCDEF0123456789ABCD:12", "m12v:31:12:ABCDEF0123456789ABCD"])
        // A newline after an answered command meets the answer on the line: its start is garbled.
        try await host.write(Array("\nm12v\n".utf8))
        let garbled = try await heard(host, clock: clock, until: clock.now.advanced(by: .seconds(1)))
        let collisions = await bus.collisions
        #expect(garbled.map(\.0) == ["\u{FFFD}12v:31:12:ABCDEF0123456789ABCD"] && collisions == 1, "\(garbled)")
    }

    @Test func aRangeBroadcastIsAnsweredInTurnAndV7ModulesSayNothing() async throws {
        let clock = EventClock.drivenByCaller()
        let (host, device) = SimulatedSerialPort.pair(clock: clock, settings: .rs485)
        let universal = SimulatedRS485Bus(port: device, clock: clock, ids: [3, 5], serials: ["0A03", "0A05"])
        let running = clock.task { await universal.run() }
        defer { running.cancel() }
        _ = try await heard(host, clock: clock, until: clock.now.advanced(by: .seconds(5)))  // they home at power-up
        let sent = clock.now.offset
        try await host.write(RS485Frame.encode(.version(ids: 1...9), to: .all))
        let answers = try await heard(host, clock: clock, until: clock.now.advanced(by: .seconds(2)))
        #expect(answers.map(\.0) == ["m03v:31:3:0A03", "m05v:31:5:0A05"])
        // 30 ms + (ID − 1) × 100 ms after the frame ended (its 10 bytes take about 10 ms).
        let delays = answers.map { $0.1 - sent }
        #expect(
            delays.count == 2 && delays[0] > .milliseconds(230) && delays[0] < .milliseconds(290) && delays[1] - delays[0] > .milliseconds(190),
            "\(delays)")

        let (v7Host, v7Device) = SimulatedSerialPort.pair(clock: clock, settings: .rs485)
        let v7 = SimulatedRS485Bus(port: v7Device, clock: clock, ids: [3])
        let v7Running = clock.task { await v7.run() }
        defer { v7Running.cancel() }
        _ = try await heard(v7Host, clock: clock, until: clock.now.advanced(by: .seconds(5)))
        try await v7Host.write(RS485Frame.encode(.version(ids: 1...9), to: .all))
        #expect(try await heard(v7Host, clock: clock, until: clock.now.advanced(by: .seconds(2))).isEmpty)
    }
}
