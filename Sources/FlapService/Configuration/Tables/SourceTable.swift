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

/// `[[source]]`: content sources (calendars, feeds, JSON documents, webhooks).
extension ConfigurationParser {
    /// One `[[source]]`: the keys every kind has, its kind's own (read by the kind), then what
    /// ``SourceSettings/problems`` finds; a key of another kind's is refused naming its kind.
    static func parseSource(_ reader: inout TableReader, kinds: [any SourceKind] = SourceKinds.all) -> SourceSettings? {
        let name = reader.string("name")
        if let name, !SourceSettings.isName(name) {
            reader.fail(
                "name",
                "\(name.debugDescription) must be lowercase letters, digits and _, starting with a letter (it is how templates name it: {{\(name).value}})"
            )
        }
        let names = kinds.map(\.name)
        let kind = reader.choice("kind", names).flatMap { SourceKinds.named($0, in: kinds) }
        guard let name, let kind else {
            if reader["name"] == nil {
                reader.fail("name", .needs("each [[source]]", "a name, such as name = \"weather\" (templates say {{weather.temperature}})"))
            }
            if reader["kind"] == nil { reader.fail("kind", .needs("each [[source]]", "kind = one of \(names.joined(separator: ", "))")) }
            reader.askedForAll()
            reader.finish()
            return nil
        }
        var definition = read(kind, name: name, from: &reader)
        for problem in definition.problems where problem.key != "name" { reader.fail(problem.key, problem.problem) }
        reader.finish { SourceKinds.owner(of: $0, in: kinds) }
        definition.placeholder = String(definition.placeholder.prefix(22))
        return definition
    }

    /// The settings every kind has, and `kind`'s own, which it reads itself.
    private static func read<Kind: SourceKind>(_ kind: Kind, name: String, from reader: inout TableReader) -> SourceSettings {
        SourceSettings(
            name: name, kind: kind, options: kind.options(reading: &reader), url: reader.string("url"), every: reader.interval("every"),
            staleAfter: reader.interval("stale_after"), timeout: reader.interval("timeout") ?? SourceSettings.defaultTimeout,
            headers: reader.stringTable("headers") ?? [:], headerFiles: reader.stringTable("header_files") ?? [:],
            placeholder: reader.string("placeholder") ?? SourceSettings.defaultPlaceholder)
    }

    static func addSource(_ reader: inout TableReader, kinds: [any SourceKind], to configuration: inout FlapdConfiguration) {
        guard let definition = parseSource(&reader, kinds: kinds) else { return }
        if configuration.sources.contains(where: { $0.name == definition.name }) {
            reader.fail("name", .nameTaken(definition.name, kind: "source", key: "name"))
        } else if LocalPropsNames.reserved.contains(definition.name) {
            reader.fail("name", "\(definition.name) is the board's own {{\(definition.name)}}; call the source something else")
        } else {
            configuration.sources.append(definition)
        }
    }
}

/// The names templates already have (the board's date and time), which no source may take.
enum LocalPropsNames {
    static let reserved: Set<String> = ["weekday", "date", "time", "day", "month", "year", "hour", "minute"]
}
