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

/// `[[trigger]]`: messages shown when a source's values say so.
extension ConfigurationParser {
    /// One `[[trigger]]`: its source, one condition (`starts_within`, `above`, `below`,
    /// `equals`; none for any push to a webhook), what it shows (`text`, `vbml` as JSON text, or
    /// `quick_message`), for how long (`duration`) and how often at most (`cooldown`).
    static func parseTrigger(_ reader: inout TableReader, sources: [SourceSettings]) -> TriggerSettings? {
        defer { reader.finish() }
        let name = reader.string("name"), source = reader.string("source")
        guard let name, let source else {
            if reader["name"] == nil { reader.fail("name", .needs("each [[trigger]]", "a name, such as name = \"frost\"")) }
            if reader["source"] == nil { reader.fail("source", .needs("each [[trigger]]", "its [[source]], such as source = \"weather\"")) }
            reader.askedForAll()
            return nil
        }
        var conditions: [TriggerSettings.Condition] = []
        if let within = reader.interval("starts_within") { conditions.append(.eventStarts(within: within)) }
        let value = reader.string("value")
        if let above = reader.number("above") { conditions.append(.above(value: value ?? "", above)) }
        if let below = reader.number("below") { conditions.append(.below(value: value ?? "", below)) }
        if let equals = reader["equals"] {
            if let text = equals.string {
                conditions.append(.equals(value: value ?? "", text))
            } else if let number = equals.int {
                conditions.append(.equals(value: value ?? "", String(number)))
            } else {
                reader.fail("equals", .notATextOrWholeNumber)
            }
        }
        if conditions.count > 1 { reader.fail("starts_within", .onlyOne(of: ["starts_within", "above", "below", "equals"])) }
        let condition = conditions.first ?? .pushed
        switch condition {
        case .above, .below, .equals:
            if value == nil {
                reader.fail("value", "above, below and equals compare a value of the source: value = \"temperature\"")
                reader.askedForAll()
                return nil
            }
        case .eventStarts, .pushed:
            if value != nil { reader.fail("value", .onlyFor("value", "above, below and equals: it names what they compare")) }
        }
        var content: [String: JSONValue] = [:]
        if let text = reader.string("text") { content["text"] = .string(text) }
        if let text = reader.string("vbml") {
            if let document = try? JSONValue(parsing: Array(text.utf8)), document.object != nil {
                content["vbml"] = document
            } else {
                reader.fail(
                    "vbml", #"must be a VBML document as JSON text, such as '{"components": [{"template": "FROST {{weather.temperature}}"}]}'"#)
            }
        }
        if let quick = reader.string("quick_message") { content["quickMessage"] = .string(quick) }
        if content.count > 1 { reader.fail("text", .onlyOne(of: ["text", "vbml", "quick_message"])) }
        let duration = reader.interval("duration") ?? .seconds(300)
        let definition = TriggerSettings(
            name: name, source: source, condition: condition, content: content,
            duration: Int(duration.components.seconds), cooldown: reader.interval("cooldown", zero: true) ?? .seconds(1800),
            sender: reader.string("sender") ?? "trigger")
        for problem in definition.problems(sources: sources) { reader.fail(problem.key, problem.problem) }
        return definition
    }

    static func addTrigger(_ reader: inout TableReader, to configuration: inout FlapdConfiguration) {
        guard let definition = parseTrigger(&reader, sources: configuration.sources) else { return }
        if configuration.triggers.contains(where: { $0.name == definition.name }) {
            reader.fail("name", .nameTaken(definition.name, kind: "trigger", key: "name"))
        } else {
            configuration.triggers.append(definition)
        }
    }
}
