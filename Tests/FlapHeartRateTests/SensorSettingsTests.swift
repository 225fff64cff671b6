import FlapHeartRate
import Testing

@Suite struct SensorSettingsTests {
    @Test func theFlagNamesADriverAndItsDevice() throws {
        #expect(try SensorSettings(flag: "ble") == SensorSettings(driver: .ble))
        #expect(try SensorSettings(flag: "ble=hci1").device == "hci1")
        #expect(try SensorSettings(flag: "ant=/dev/ant0").device == "/dev/ant0")
        #expect(try SensorSettings(flag: "serial=/dev/ttyACM0").device == "/dev/ttyACM0")
        #expect(try SensorSettings(flag: "simulated").driver == .simulated)
    }

    @Test func aFlagThatCannotWorkSaysWhy() {
        #expect(throws: SensorSettingsError(key: "driver", problem: "\"bt\" is not a sensor driver; use one of ble, ant, serial, simulated")) {
            try SensorSettings(flag: "bt")
        }
        #expect(throws: SensorSettingsError(key: "device", problem: "a serial sensor needs its port, such as /dev/ttyACM0")) {
            try SensorSettings(flag: "serial")
        }
        #expect(throws: SensorSettingsError(key: "device", problem: "is empty; leave it out or name the device")) {
            try SensorSettings(flag: "ant=")
        }
        #expect(throws: SensorSettingsError(key: "device", problem: "\"hci 0\" is not an adapter name such as hci0")) {
            try SensorSettings(flag: "ble=hci 0")
        }
        #expect(throws: SensorSettingsError(key: "device", problem: "a simulated sensor has no device")) {
            try SensorSettings(flag: "simulated=/dev/null")
        }
    }
}
