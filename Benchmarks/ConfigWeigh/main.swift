import Configuration
import FlapSettings
import FlapTOML
import Foundation

// What swift-configuration would cost over flapd's settings, counted under callgrind
// (docs/benchmarks.md): `config-weigh MODE FLAPD.TOML SETTINGS.TOML`
//   readers               parse both layers and merge them (what flapd does before its readers)
//   swift-configuration   the same, then both layers as providers (in memory, the page's mutable)
//                         and every merged value read through one ConfigReader
// Arrays of tables are flattened to `panel.0.driver`, as a provider needs; a list of lists (a
// wall's `ids`) has no swift-configuration type and is left out.

func flatten(_ table: TOMLTable, _ prefix: [String], _ values: inout [AbsoluteConfigKey: ConfigValue]) {
    for key in table.keys {
        guard let value = table[key] else { continue }
        let path = prefix + [key]
        let content: ConfigContent?
        switch value {
        case .string(let text), .dateTime(let text): content = .string(text)
        case .integer(let number): content = .int(number)
        case .float(let number): content = .double(number)
        case .bool(let flag): content = .bool(flag)
        case .table(let inner):
            flatten(inner, path, &values)
            content = nil
        case .array(let items):
            let tables = items.compactMap(\.table)
            if tables.count == items.count {
                for (index, inner) in tables.enumerated() { flatten(inner, path + ["\(index)"], &values) }
                content = nil
            } else if items.allSatisfy({ $0.string != nil }) {
                content = .stringArray(items.compactMap(\.string))
            } else if items.allSatisfy({ $0.int != nil }) {
                content = .intArray(items.compactMap(\.int))
            } else {
                content = nil
            }
        }
        if let content { values[AbsoluteConfigKey(path)] = ConfigValue(content, isSecret: false) }
    }
}

let arguments = CommandLine.arguments
let file = try TOMLParser.parse(String(contentsOfFile: arguments[2], encoding: .utf8))
let page = try TOMLParser.parse(String(contentsOfFile: arguments[3], encoding: .utf8))
let layers = SettingsLayers(
    file: file, page: page,
    identities: ["panel": .init(key: "id", implicit: { _ in "main" }), "source": .init(key: "name"), "schedule": .init(key: "name")])
let (merged, _) = layers.merged()
var mergedValues: [AbsoluteConfigKey: ConfigValue] = [:]
flatten(merged, [], &mergedValues)
var read = 0
if arguments[1] == "swift-configuration" {
    var fileValues: [AbsoluteConfigKey: ConfigValue] = [:], pageValues: [AbsoluteConfigKey: ConfigValue] = [:]
    flatten(file, [], &fileValues)
    flatten(page, [], &pageValues)
    let reader = ConfigReader(providers: [
        MutableInMemoryProvider(name: "page", initialValues: pageValues), InMemoryProvider(name: "flapd.toml", values: fileValues)
    ])
    for (key, value) in mergedValues {
        let asked = ConfigKey(key.components)
        switch value.content {
        case .string: read += reader.string(forKey: asked) == nil ? 0 : 1
        case .int: read += reader.int(forKey: asked) == nil ? 0 : 1
        case .double: read += reader.double(forKey: asked) == nil ? 0 : 1
        case .bool: read += reader.bool(forKey: asked) == nil ? 0 : 1
        case .stringArray: read += reader.stringArray(forKey: asked) == nil ? 0 : 1
        case .intArray: read += reader.intArray(forKey: asked) == nil ? 0 : 1
        default: break
        }
    }
}
print("\(mergedValues.count) values, \(read) read through ConfigReader")
