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
        #expect(throws: SensorSettingsError.unknownDriver("bt")) { try SensorSettings(flag: "bt") }
        #expect(throws: SensorSettingsError.portNeeded) { try SensorSettings(flag: "serial") }
        #expect(throws: SensorSettingsError.emptyDevice) { try SensorSettings(flag: "ant=") }
        #expect(throws: SensorSettingsError.notAnAdapter("hci 0")) { try SensorSettings(flag: "ble=hci 0") }
        #expect(throws: SensorSettingsError.deviceForSimulated) { try SensorSettings(flag: "simulated=/dev/null") }
    }

    @Test func settingsThatCannotWorkAreEachNamed() {
        var ant = SensorSettings(driver: .ant)
        ant.straps = ["12", "0", "strap"]
        ant.baudRate = -1
        #expect(ant.problems() == [.notAnANTDeviceNumber("0"), .notAnANTDeviceNumber("strap"), .baudNotPositive(-1)])
        var simulated = SensorSettings(driver: .simulated)
        simulated.people = 0
        #expect(simulated.problems() == [.peopleOutOfRange(0)])
    }

    /// Each problem in the words a person reads, with the key it is about.
    @Test func eachProblemSaysWhatIsWrong() {
        let said: [(SensorSettingsError, String)] = [
            (.unknownDriver("bt"), "driver: \"bt\" is not a sensor driver; use one of ble, ant, serial, simulated"),
            (.unknownFormat("xml"), "format: \"xml\" is not a line format; use auto, number, json or prefix:TEXT"),
            (.emptyDevice, "device: is empty; leave it out or name the device"),
            (.portNeeded, "device: a serial sensor needs its port, such as /dev/ttyACM0"),
            (
                .notAnANTDeviceNumber("x"),
                "straps: \"x\" is not an ANT device number (1 to 65535; the number printed on the strap or shown by `flapctl hr --ant`)"
            ),
            (.notAnAdapter("hci 0"), "device: \"hci 0\" is not an adapter name such as hci0"),
            (.deviceForSimulated, "device: a simulated sensor has no device"),
            (.peopleOutOfRange(0), "people: must be 1 to 100, not 0"),
            (.baudNotPositive(-1), "baud: must be a positive number, not -1")
        ]
        for (error, words) in said { #expect(error.description == words) }
    }
}
