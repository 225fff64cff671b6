import FlapClocks
import FlapHardware
import FlapHeartRate
import FlapSimulated
import Synchronization
import TestSupport
import Testing

/// The synthetic wearers and the trace replay, on a manual clock: an hour takes no time.
@Suite struct SimulatedHeartRateTests {
    final class Collected: Sendable {
        let events = Mutex<[HeartRateEvent<ManualClock.Instant>]>([])
        var samples: [HeartRateSample<ManualClock.Instant>] { events.withLock { $0.compactMap { if case .sample(let s) = $0 { s } else { nil } } } }
        var statuses: [HeartRateStatus] { events.withLock { $0.compactMap { if case .status(let s) = $0 { s } else { nil } } } }
    }

    func run(_ sensor: some HeartRateSensor<ManualClock.Instant>, clock: ManualClock, for seconds: Int) async -> Collected {
        let collected = Collected()
        let task = Task { await sensor.run { event in collected.events.withLock { $0.append(event) } } }
        await clock.sleepers()  // the sensor starts at time zero, and waits for its first beat
        // Half a second at a time: each step lets the sensor's task take its turn.
        for _ in 0..<seconds * 2 { await clock.advance(by: .milliseconds(500)) }
        task.cancel()
        await task.value
        return collected
    }

    @Test func syntheticWearersAreBelievableAndSeeded() async {
        let clock = ManualClock()
        let first = await run(SyntheticHeartRateSensor(count: 3, seed: 42, clock: clock), clock: clock, for: 1800)
        let samples = first.samples.filter { $0.contact == .detected }
        #expect(samples.count > 3 * 1500)
        #expect(samples.allSatisfy { (40...200).contains($0.bpm) })
        for strap in Set(samples.map(\.strap)) {
            let rates = samples.filter { $0.strap == strap }.map(\.bpm)
            #expect(rates.min()! >= 50 && rates.min()! <= 90, "resting rate of \(strap)")
            #expect(rates.max()! >= rates.min()! + 20, "an effort for \(strap)")
            // Beat to beat: the intervals agree with the rate.
            let last = samples.last { $0.strap == strap }!
            let mean = Double(last.rrIntervals.reduce(0) { $0 + Int($1) }) / Double(last.rrIntervals.count)
            #expect(abs(60 * 1024 / mean - Double(last.bpm)) < 3)
        }
        #expect(first.samples.contains { $0.contact == .notDetected })
        #expect(first.statuses.contains { $0.state == .noContact })
        let clock2 = ManualClock()
        let again = await run(SyntheticHeartRateSensor(count: 3, seed: 42, clock: clock2), clock: clock2, for: 60)
        #expect(again.samples.map(\.bpm) == Array(first.samples.prefix(again.samples.count)).map(\.bpm))
    }

    @Test func aTraceIsReplayedAtItsTimesAndThenGoesQuiet() async throws {
        let clock = ManualClock()
        let trace = try TraceHeartRateSensor(named: "alice", text: "# seconds,bpm,rr\n0,70,877\n1,72,853,840\n2.5,0\n3,75\n", clock: clock)
        let collected = await run(trace, clock: clock, for: 20)
        #expect(collected.samples.map(\.bpm) == [70, 72, 75])
        #expect(collected.samples.map { $0.instant.offset } == [.zero, .seconds(1), .seconds(3)])
        #expect(collected.samples[1].rrIntervals == [853, 840])
        #expect(collected.statuses.last?.state.name == "lost")
        #expect(throws: TraceHeartRateSensor<ManualClock>.TraceError(line: 2, column: 3, problem: "\"x\" is not a number")) {
            try TraceHeartRateSensor(named: "bad", text: "0,70\n1,x\n", clock: clock)
        }
        #expect(throws: TraceHeartRateSensor<ManualClock>.TraceError.self) {
            try TraceHeartRateSensor(named: "bad", text: "5,70\n1,70\n", clock: clock)
        }
        #expect(throws: TraceHeartRateSensor<ManualClock>.TraceError.self) { try TraceHeartRateSensor(named: "bad", text: "", clock: clock) }
        // Found by fuzzing: a time past Int64's milliseconds trapped; past a day it is refused, saying where.
        #expect(
            throws: TraceHeartRateSensor<ManualClock>.TraceError(
                line: 2, column: 1, problem: "the time 1.5555555555555557e+21 s is past a day (86400 s)")
        ) {
            try TraceHeartRateSensor(named: "bad", text: "0,70\r\n1555555555555555555555,42\r\n", clock: clock)
        }
        // CRLF and CR lines are lines.
        #expect(throws: Never.self) { try TraceHeartRateSensor(named: "windows", text: "0,70\r\n1,71\r2,72\r\n", clock: clock) }
    }
}
