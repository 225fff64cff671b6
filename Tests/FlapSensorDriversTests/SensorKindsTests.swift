import FlapHeartRate
import FlapSensorDrivers
import Testing

@Suite struct SensorKindsTests {
    @Test func theFlagNamesADriverAndItsDevice() throws {
        #expect(try SensorKinds.settings(flag: "ble") == SensorSettings(driver: .ble))
        #expect(try SensorKinds.settings(flag: "ble=hci1").device == "hci1")
        #expect(try SensorKinds.settings(flag: "ant=/dev/ant0").device == "/dev/ant0")
        #expect(try SensorKinds.settings(flag: "serial=/dev/ttyACM0").device == "/dev/ttyACM0")
        #expect(try SensorKinds.settings(flag: "simulated").driver == .simulated)
    }

    @Test func aFlagThatCannotWorkSaysWhy() {
        #expect(throws: SensorSettingsError.unknownDriver("bt", known: ["ble", "ant", "serial", "simulated"])) {
            try SensorKinds.settings(flag: "bt")
        }
        #expect(throws: SensorSettingsError.portNeeded) { try SensorKinds.settings(flag: "serial") }
        #expect(throws: SensorSettingsError.emptyDevice) { try SensorKinds.settings(flag: "ant=") }
        #expect(throws: SensorSettingsError.notAnAdapter("hci 0")) { try SensorKinds.settings(flag: "ble=hci 0") }
        #expect(throws: SensorSettingsError.deviceForSimulated) { try SensorKinds.settings(flag: "simulated=/dev/null") }
    }

    @Test func settingsThatCannotWorkAreEachNamed() {
        let ant = SensorSettings(driver: .ant, options: ANTSensorKind.Options(straps: ["12", "0", "strap"], baudRate: -1))
        #expect(SensorKinds.problems(ant) == [.notAnANTDeviceNumber("0"), .notAnANTDeviceNumber("strap"), .baudNotPositive(-1)])
        let simulated = SensorSettings(driver: .simulated, options: SimulatedSensorKind.Options(people: 0))
        #expect(SensorKinds.problems(simulated) == [.peopleOutOfRange(0)])
        let serial = SensorSettings(driver: .serial, device: "/dev/ttyACM0", options: SerialSensorKind.Options(baudRate: 0))
        #expect(SensorKinds.problems(serial) == [.baudNotPositive(0)])
    }

    @Test func aSimulatedTwinHasAWearerForEachStrapFollowed() {
        let ble = SensorSettings(driver: .ble, options: BLESensorKind.Options(straps: ["A", "B"]))
        #expect(SensorKinds.simulatedTwin(of: ble) == SensorSettings(driver: .simulated, options: SimulatedSensorKind.Options(people: 2)))
        #expect(
            SensorKinds.simulatedTwin(of: SensorSettings(driver: .serial, device: "/dev/ttyACM0")).options(SimulatedSensorKind.Options.self)?.people
                == 1)
        let five = SensorSettings(driver: .simulated, options: SimulatedSensorKind.Options(people: 5))
        #expect(SensorKinds.simulatedTwin(of: five) == five)
    }

    @Test func settingsAreEqualByTheirKindsOptions() {
        #expect(SensorSettings(driver: .ant, options: ANTSensorKind.Options(straps: ["1"])) != SensorSettings(driver: .ant))
        #expect(
            SensorSettings(driver: .ant, options: ANTSensorKind.Options(straps: ["1"]))
                == SensorSettings(driver: .ant, options: ANTSensorKind.Options(straps: ["1"])))
    }

    /// Each problem in the words a person reads, with the key it is about.
    @Test func eachProblemSaysWhatIsWrong() {
        let said: [(SensorSettingsError, String)] = [
            (.unknownDriver("bt", known: SensorKinds.names), "driver: \"bt\" is not a sensor driver; use one of ble, ant, serial, simulated"),
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
