import FlapHardware
import FlapHeartRate
import FlapLinux
import FlapSimulated
import Testing

/// The serial-line driver reading a real pseudo-terminal, with good lines and rubbish.
@Suite(.timeLimit(.minutes(3))) struct SerialHeartRateSensorTests {
    @Test func linesBecomeSamplesAndRubbishIsSkipped() async throws {
        let (device, path) = try LinuxSerialPort.pseudoTerminal(settings: SerialSettings(baudRate: 115_200))
        let sensor = SerialHeartRateSensor(device: path, format: .automatic, clock: ContinuousClock()) {
            try LinuxSerialPort(path: path, settings: SerialSettings(baudRate: 115_200))
        }
        let events = HeartRateRecorder<ContinuousClock.Instant>()
        let task = Task { await sensor.run(events.emit) }
        defer { task.cancel() }
        #expect(try await events.until { $0.statuses.contains(HeartRateStatus(strap: nil, .connected)) })
        let text = "72\r\nHR:73\ngarbage\n\u{FF}\u{FE}\n" + String(repeating: "9", count: 300) + "\n{\"bpm\":74,\"rr\":[812]}\n999\n75"
        try await device.write(Array(text.utf8) + [0xFF, 0x0A] + Array("76\n".utf8))
        #expect(try await events.until { $0.samples.count >= 4 })
        #expect(events.samples.map(\.bpm) == [72, 73, 74, 76])
        #expect(events.samples[2].rrIntervals == [831])
        #expect(events.samples.allSatisfy { $0.strap == StrapIdentity(driver: "serial", address: path) })
        let notices = events.notices.joined(separator: "\n")
        #expect(notices.contains("column 1: not a number"))
        #expect(notices.contains("over 256 bytes"))
        #expect(notices.contains("999 BPM is not a heart rate"))
        #expect(notices.contains("not UTF-8"))
        // Quiet for 5 s: the strap is lost, and found again with the next line.
        #expect(try await events.until(8) { $0.statuses.contains { $0.state.name == "lost" && $0.strap != nil } })
        try await device.write(Array("77\n".utf8))
        #expect(try await events.until { $0.samples.last?.bpm == 77 })
        #expect(events.statuses.last?.state == .connected)
        await device.close()
    }
}
