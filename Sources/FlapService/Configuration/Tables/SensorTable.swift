import FlapCore
import FlapDisplay
import FlapHardware
import FlapHeartRate
import FlapJSON
import FlapMQTT
import FlapMQTTClient
import FlapMessaging
import FlapRooms
import FlapSources
import FlapTOML
import FlapTime
import FlapVestaboard
import FoundationEssentials
import Wematch

/// `[[sensor]]`: the heart-rate sources.
extension ConfigurationParser {
    /// One `[[sensor]]`.
    static func parseSensor(_ reader: inout TableReader) -> SensorSettings {
        defer { reader.finish() }
        var sensor = SensorSettings()
        guard let driver: SensorDriver = reader.choice("driver") else {
            if reader["driver"] == nil {
                reader.fail("driver", "each [[sensor]] needs driver = one of \(SensorDriver.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return sensor
        }
        sensor.driver = driver
        sensor.device = reader.string("device")
        if let value = reader["straps"] {
            // ANT device numbers may be written as numbers.
            let items = value.array?.map { $0.string ?? $0.int.map(String.init) }
            if let items, items.allSatisfy({ $0 != nil }) {
                sensor.straps = items.compactMap { $0 }
            } else {
                reader.fail("straps", "must be a list, such as [\"C4:7C:8D:6A:12:34\", \"Polar H10 6A1234\"] or [12345, 23456] for ANT")
            }
        }
        if let format = reader.string("format") {
            do { sensor.format = try HeartRateLineFormat.named(format) } catch { reader.fail(error.key, error.problem) }
        }
        sensor.baudRate = reader.int("baud")
        sensor.people = reader.int("people") ?? sensor.people
        if var names = reader.table("names") {
            for key in names.table.keys.sorted() {
                if let name = names.string(key) { sensor.names[key] = name }
            }
            reader.problems += names.problems
        }
        for problem in sensor.problems() { reader.fail(problem.key, problem.problem) }
        return sensor
    }
}
