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

/// `[[sensor]]`: the heart-rate sources. Each driver reads only its own keys, so another
/// driver's key is refused naming whose it is ("baud is a setting of an ant or serial sensor").
extension ConfigurationParser {
    /// One `[[sensor]]`.
    static func parseSensor(_ reader: inout TableReader) -> SensorSettings {
        guard let driver: SensorDriver = reader.choice("driver") else {
            if reader["driver"] == nil {
                reader.fail("driver", "each [[sensor]] needs driver = one of \(SensorDriver.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            reader.finish()
            return SensorSettings()
        }
        let sensor = readSensor(&reader, driver: driver)
        let table = reader.table
        reader.finish { key in sensorOwner(of: key, in: table, driver: driver) }
        for problem in sensor.problems() { reader.fail(problem.key, problem.problem) }
        return sensor
    }

    /// The keys `driver` reads, and only those.
    static func readSensor(_ reader: inout TableReader, driver: SensorDriver) -> SensorSettings {
        var sensor = SensorSettings(driver: driver)
        if driver != .simulated { sensor.device = reader.string("device") }
        if driver == .ble || driver == .ant, let value = reader["straps"] {
            // ANT device numbers may be written as numbers.
            let items = value.array?.map { $0.string ?? $0.int.map(String.init) }
            if let items, items.allSatisfy({ $0 != nil }) {
                sensor.straps = items.compactMap { $0 }
            } else {
                reader.fail("straps", "must be a list, such as [\"C4:7C:8D:6A:12:34\", \"Polar H10 6A1234\"] or [12345, 23456] for ANT")
            }
        }
        if driver == .serial, let format = reader.string("format") {
            do { sensor.format = try HeartRateLineFormat.named(format) } catch { reader.fail(error.key, error.problem) }
        }
        if driver == .serial || driver == .ant { sensor.baudRate = reader.int("baud") }
        if driver == .simulated { sensor.people = reader.int("people") ?? sensor.people }
        if var names = reader.table("names") {
            for key in names.table.keys.sorted() {
                if let name = names.string(key) { sensor.names[key] = name }
            }
            reader.problems += names.problems
        }
        return sensor
    }

    /// Whose setting `key` is when a `driver` sensor does not read it: the drivers whose reading
    /// of the same table asks for it.
    static func sensorOwner(of key: String, in table: TOMLTable, driver: SensorDriver) -> String? {
        let owners = SensorDriver.allCases.filter { other in
            var probe = TableReader(table: table, path: "", index: TOMLLineIndex(""))
            _ = readSensor(&probe, driver: other)
            return probe.asked.contains(key)
        }.map(\.rawValue)
        guard let list = TableReader.alternatives(owners) else { return nil }
        return
            "\(key) is a setting of a\(list.first.map { "aeiou".contains($0) } == true ? "n" : "") \(list) sensor; this sensor is \(driver.rawValue)"
    }
}
