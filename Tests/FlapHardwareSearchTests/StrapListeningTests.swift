import FlapClocks
import FlapHardwareSearch
import FlapHeartRate
import FlapSimulated
import Testing

/// A listening window over a scripted heart-rate source, in simulated time: what it heard, as the
/// page lists it, and nothing after the window ends.
@Suite(.timeLimit(.minutes(3))) struct StrapListeningTests {
    @Test func eachStrapHeardIsListedWithItsStateAndLastReading() async throws {
        let clock = EventClock.drivenByCaller()
        let chest = StrapIdentity(driver: "ble", address: "C4:7C:8D:6A:12:34")
        let arm = StrapIdentity(driver: "ble", address: "F0:0D:00:00:00:01")
        let late = StrapIdentity(driver: "ble", address: "AA:AA:AA:AA:AA:AA")
        let sensor = ScriptedHeartRateSensor(
            name: "ble hci0",
            script: [
                .status(HeartRateStatus(strap: nil, .searching)),
                .status(HeartRateStatus(strap: chest, .connected)),
                .sample(HeartRateSample(strap: chest, bpm: 71, instant: clock.now)),
                .status(HeartRateStatus(strap: arm, .noContact)),
                .sample(HeartRateSample(strap: chest, bpm: 72, instant: clock.now)),
                .status(HeartRateStatus(strap: late, .connected))
            ], pause: .seconds(2), clock: clock)
        let started = clock.now
        // Events at 0, 2, … 10 s: the window of 9 s hears all but the last.
        let found = await StrapListening.straps(sensor, clock: clock, window: .seconds(9)) { body in clock.joinedTask { await body() } }
        #expect(started.duration(to: clock.now) == .seconds(9))
        #expect(found.source == "ble hci0" && found.state == "searching")
        #expect(
            found.straps.map { "\($0.strap) \($0.state) \($0.bpm.map(String.init) ?? "-")" } == [
                "ble:C4:7C:8D:6A:12:34 connected 72", "ble:F0:0D:00:00:00:01 no contact -"
            ], "the strap heard after the window is not listed")
    }
}
