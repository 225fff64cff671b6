import FlapHeartRate
import FlapSensorDrivers
import FlapSettings
import FlapTOML

/// `[[sensor]]`: the heart-rate sources. Each kind (FlapSensorDrivers' `Kinds/`) reads only its
/// own keys, so another kind's key is refused naming whose it is ("baud is a setting of an ant
/// or serial sensor").
extension ConfigurationParser {
    /// One `[[sensor]]`.
    static func parseSensor(_ reader: inout TableReader) -> SensorSettings {
        guard let name = reader.choice("driver", SensorKinds.names), let kind = SensorKinds.kind(SensorDriver(rawValue: name)) else {
            if reader["driver"] == nil {
                reader.fail("driver", .needs("each [[sensor]]", "driver = one of \(SensorKinds.names.joined(separator: ", "))"))
            }
            reader.finish()
            return SensorSettings(driver: .simulated)
        }
        let sensor = readSensor(&reader, kind: kind)
        let table = reader.table
        reader.finish { key in sensorOwner(of: key, in: table, kind: kind) }
        for problem in SensorKinds.problems(sensor) { reader.fail(problem.key, problem.problem) }
        return sensor
    }

    /// The keys every sensor of `kind` reads, and its kind's own.
    static func readSensor(_ reader: inout TableReader, kind: any SensorKind) -> SensorSettings {
        var sensor = SensorSettings(driver: kind.driver)
        if kind.takesDevice { sensor.device = reader.string("device") }
        sensor.options = kind.options(reading: &reader)
        if var names = reader.table("names") {
            for key in names.table.keys.sorted() {
                if let name = names.string(key) { sensor.names[key] = name }
            }
            reader.problems += names.problems
        }
        return sensor
    }

    /// Whose setting `key` is when a `kind` sensor does not read it: the kinds whose reading
    /// of the same table asks for it.
    static func sensorOwner(of key: String, in table: TOMLTable, kind: any SensorKind) -> String? {
        let owners = SensorKinds.all.filter { other in
            var probe = TableReader(table: table, path: "", index: TOMLLineIndex(""))
            _ = readSensor(&probe, kind: other)
            return probe.asked.contains(key)
        }.map(\.driver.rawValue)
        guard let list = TableReader.alternatives(owners) else { return nil }
        return
            "\(key) is a setting of a\(list.first.map { "aeiou".contains($0) } == true ? "n" : "") \(list) sensor; this sensor is \(kind.driver)"
    }
}

extension TableReader: SensorTableReading {
    mutating func words(_ name: String, example: String) -> [String]? {
        declare(name, .list)
        guard let value = self[name] else { return nil }
        // ANT device numbers may be written as numbers.
        let items = value.array?.map { $0.string ?? $0.int.map(String.init) }
        guard let items, items.allSatisfy({ $0 != nil }) else {
            fail(name, .notAList(example: example))
            return nil
        }
        return items.compactMap { $0 }
    }
}
