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
    /// One `[[source]]`: its kind's keys, then what ``SourceSettings/problems`` finds.
    static func parseSource(_ reader: inout TableReader) -> SourceSettings? {
        defer { reader.finish() }
        let name = reader.string("name")
        if let name, !SourceSettings.isName(name) {
            reader.fail("name", "\(name.debugDescription) must be lowercase letters, digits and _, starting with a letter (it is how templates name it: {{\(name).value}})")
        }
        let kind = reader.choice("kind", SourceKinds.names).flatMap(SourceKinds.named)
        guard let name, let kind else {
            if reader["name"] == nil { reader.fail("name", "each [[source]] needs a name, such as name = \"weather\" (templates say {{weather.temperature}})") }
            if reader["kind"] == nil { reader.fail("kind", "each [[source]] needs kind = one of \(SourceKinds.names.joined(separator: ", "))") }
            reader.askedForAll()
            return nil
        }
        func strings(_ key: String) -> [String: String] {
            guard var table = reader.table(key) else { return [:] }
            var found: [String: String] = [:]
            for entry in table.table.keys.sorted() { if let value = table.string(entry) { found[entry] = value } }
            reader.problems += table.problems
            return found
        }
        var definition = SourceSettings(
            name: name, kind: kind, url: reader.string("url"), every: reader.interval("every"), staleAfter: reader.interval("stale_after"),
            timeout: reader.interval("timeout") ?? SourceSettings.defaultTimeout, headers: strings("headers"), headerFiles: strings("header_files"),
            pointers: strings("values"), fields: reader.strings("fields") ?? [], limit: reader.int("limit") ?? SourceSettings.defaultLimit,
            countdown: reader.string("countdown"), placeholder: reader.string("placeholder") ?? SourceSettings.defaultPlaceholder,
            keyFile: reader.string("key_file"))
        for problem in definition.problems where problem.key != "name" { reader.fail(problem.key, problem.problem) }
        definition.placeholder = String(definition.placeholder.prefix(22))
        return definition
    }

    static func addSource(_ reader: inout TableReader, to configuration: inout FlapdConfiguration) {
        guard let definition = parseSource(&reader) else { return }
        if configuration.sources.contains(where: { $0.name == definition.name }) {
            reader.fail("name", "another source is called \(definition.name) too; give each its own name")
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
