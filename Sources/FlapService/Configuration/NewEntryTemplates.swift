import FlapHeartRate
import FlapSensorDrivers
import FlapSettings
import FlapSources
import FlapTOML

/// What a new `[[panel]]`, `[[source]]`, `[[schedule]]`, `[[trigger]]`, `[[sensor]]` or
/// `[[mirror]]` of each kind would hold: its settings, declared by reading an entry of that kind
/// with the table's own reader, keyed for the next place (`panel[1].device`). The page's "Add"
/// forms are made from these, as its other forms are from the settings read.
struct NewEntryTemplate: Encodable, Sendable {
    /// The array: `panel`, `source`, …
    var table: String
    /// The kind (`rs485`, `ical`), or nil where the table has none.
    var kind: String?
    /// The key that names the kind (`driver`, `kind`), and the one that names the entry (`id`, `name`).
    var kindKey: String?
    var nameKey: String?
    /// Its settings, the name and kind first.
    var settings: [SettingDeclaration]

    /// The templates for entries after those of `settings`.
    static func all(after settings: TOMLTable) -> [NewEntryTemplate] {
        func next(_ table: String) -> String { "\(table)[\(settings[table]?.array?.count ?? 0)]" }
        var templates: [NewEntryTemplate] = []
        func add(_ table: String, kind: String?, kindKey: String?, nameKey: String?, seed: [String: String], read: (inout TableReader) -> Void) {
            var entry = TOMLTable()
            for (key, value) in seed.sorted(by: { $0.key < $1.key }) { entry[key] = .string(value) }
            let declarations = SettingDeclarations()
            var reader = TableReader(table: entry, path: next(table), index: TOMLLineIndex(""), declarations: declarations)
            read(&reader)
            let first = [nameKey, kindKey].compactMap { $0.map { "\(next(table)).\($0)" } }
            let ordered = declarations.all.sorted { (first.firstIndex(of: $0.key) ?? 9) < (first.firstIndex(of: $1.key) ?? 9) }
            templates.append(NewEntryTemplate(table: table, kind: kind, kindKey: kindKey, nameKey: nameKey, settings: ordered))
        }
        for kind in PanelKinds.all {
            add("panel", kind: kind.name, kindKey: "driver", nameKey: "id", seed: ["driver": kind.name]) {
                _ = ConfigurationParser.parsePanel(&$0, kinds: PanelKinds.all)
            }
        }
        for kind in SourceKinds.all {
            add("source", kind: kind.name, kindKey: "kind", nameKey: "name", seed: ["kind": kind.name, "name": "example"]) {
                _ = ConfigurationParser.parseSource(&$0)
            }
        }
        add("schedule", kind: nil, kindKey: nil, nameKey: "name", seed: ["name": "example"]) {
            _ = ConfigurationParser.parseSchedule(&$0, location: nil)
        }
        add("trigger", kind: nil, kindKey: nil, nameKey: "name", seed: ["name": "example", "source": "example"]) {
            _ = ConfigurationParser.parseTrigger(&$0, sources: [])
        }
        for driver in SensorKinds.names {
            add("sensor", kind: driver, kindKey: "driver", nameKey: nil, seed: ["driver": driver]) { _ = ConfigurationParser.parseSensor(&$0) }
        }
        add("mirror", kind: nil, kindKey: nil, nameKey: "id", seed: [:]) { _ = ConfigurationParser.parseMirror(&$0, index: 0) }
        return templates
    }
}
