import FlapClocks
import FlapHardware
import FlapSimulated
import TestSupport
import Testing

/// The buzzer on a simulated GPIO line, on a manual clock.
@Suite(.timeLimit(.minutes(3))) struct BuzzerTests {
    @Test func aNewSyncIsTwoShortPulses() async throws {
        let clock = ManualClock()
        let line = SimulatedOutputLine()
        let buzzer = Buzzer(lines: line, clock: clock, pulseLength: .milliseconds(150))
        let pulsing = Task { try await buzzer.pulse() }
        while !clock.hasSleepers { await Task.yield() }
        #expect(line.levels == [false, true])
        // Asked again while it buzzes: merged, not queued.
        try await buzzer.pulse()
        for _ in 0..<3 {
            await clock.advance(by: .milliseconds(150))
            while !clock.hasSleepers, line.levels.count < 5 { await Task.yield() }
        }
        try await pulsing.value
        #expect(line.levels == [false, true, false, true, false])
        #expect(line.pulses == 2)
        await buzzer.release()
        #expect(throws: HardwareError.self) { try line.set([0: true]) }
    }
}
