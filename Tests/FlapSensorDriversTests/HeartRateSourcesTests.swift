import FlapHardware
import FlapHeartRate
import FlapSensorDrivers
import Testing

@Suite struct HeartRateSourcesTests {
    @Test func sourcesAreMadeFromSettings() throws {
        #expect(try HeartRateSources.make(SensorSettings(driver: .ble, device: "hci0")).name == "ble hci0")
        #expect(try HeartRateSources.make(SensorSettings(driver: .ant)).name == "ant /dev/ant0")
        #expect(try HeartRateSources.make(SensorSettings(driver: .serial, device: "/dev/ttyACM0")).name == "serial /dev/ttyACM0")
        #expect(try HeartRateSources.make(SensorSettings(driver: .simulated)).name == "simulated (3 straps)")
        #expect(throws: SensorSettingsError.unknownFormat("xml")) { try HeartRateLineFormat.named("xml") }
        #expect(throws: SensorSettingsError.portNeeded) { try HeartRateSources.make(SensorSettings(driver: .serial)) }
    }
}
