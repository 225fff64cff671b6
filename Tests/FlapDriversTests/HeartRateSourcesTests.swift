import FlapHardware
import FlapDrivers
import FlapHeartRate
import Testing

@Suite struct HeartRateSourcesTests {
    @Test func sourcesAreMadeFromSettings() throws {
        #expect(try HeartRateSources.make(SensorSettings(driver: "ble", device: "hci0")).name == "ble hci0")
        #expect(try HeartRateSources.make(SensorSettings(driver: "ant")).name == "ant /dev/ant0")
        #expect(try HeartRateSources.make(SensorSettings(driver: "serial", device: "/dev/ttyACM0")).name == "serial /dev/ttyACM0")
        #expect(try HeartRateSources.make(SensorSettings(driver: "simulated")).name == "simulated (3 straps)")
        var bad = SensorSettings(driver: "serial", device: "/dev/ttyACM0")
        bad.format = "xml"
        #expect(throws: SensorSettingsError.self) { try HeartRateSources.make(bad) }
    }
}
