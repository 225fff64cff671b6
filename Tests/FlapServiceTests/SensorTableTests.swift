import FlapHeartRate
import FlapSensorDrivers
import Testing

@testable import FlapService

/// Each sensor driver reads only its own keys: another driver's key is refused naming whose it
/// is, as a panel's is, rather than accepted and ignored.
@Suite struct SensorTableTests {
    @Test func anotherDriversKeyIsRefusedNamingItsOwner() {
        let found = ConfigurationTests().problems(
            """
            [[sensor]]
            driver = "ble"
            baud = 9600
            [[sensor]]
            driver = "simulated"
            device = "/dev/ttyACM0"
            format = "number"
            """)
        #expect(
            found == [
                "line 3, sensor[0].baud: baud is a setting of an ant or serial sensor; this sensor is ble",
                "line 6, sensor[1].device: device is a setting of a ble, ant or serial sensor; this sensor is simulated",
                "line 7, sensor[1].format: format is a setting of a serial sensor; this sensor is simulated"
            ], "\(found)")
    }

    @Test func eachDriversOwnKeysAreTaken() throws {
        let parsed = try ConfigurationParser.parse(
            """
            [[sensor]]
            driver = "ant"
            device = "/dev/ttyUSB0"
            baud = 57600
            straps = [4242]
            """, file: "flapd.toml")
        #expect(parsed.sensors.first?.options(ANTSensorKind.Options.self) == ANTSensorKind.Options(straps: ["4242"], baudRate: 57_600))
    }
}
