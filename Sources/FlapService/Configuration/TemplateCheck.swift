import FlapCore
import FlapJSON
import FlapMessaging
import FlapSources
import FlapTime
import FoundationEssentials

extension ConfigurationParser {
    /// What the file's schedules and triggers show, checked as their messages will be: each
    /// `{{name}}` must be the board's date and time or a source's value (a misspelt
    /// `{{weather.temprature}}` is found by `flapd --check-config`, not at 07:00), and the layout
    /// must fit the first panel with the sources' placeholders in it. A quick message is checked
    /// when it is saved, not here.
    static func checkTemplates(_ reader: inout TableReader, _ configuration: FlapdConfiguration) {
        let now = Date()
        var props = LocalProps(zone: .utc).values(at: now)
        for source in configuration.sources {
            props[source.name] = SourceValues.values(of: source, content: nil, fresh: false, updated: nil, now: now, zone: .utc)
        }
        let size = configuration.panels.first?.size ?? .flagship
        let flap62 = configuration.panels.first?.drum.flap62
        for (index, schedule) in configuration.schedules.enumerated() {
            for problem in schedule.contentProblems(boardSize: size, flap62: flap62, now: now, props: props) {
                reader.fail("schedule[\(index)].\(tomlKey(problem.field))", problem.problem)
            }
        }
        for (index, trigger) in configuration.triggers.enumerated() where trigger.content["quickMessage"] == nil {
            var parser = MessageParser(boardSize: size, flap62: flap62, source: .trigger, defaultSender: trigger.sender)
            parser.localProps = props
            parser.textPlaceholders = [:]
            var fields = trigger.content
            fields["duration"] = .number(Double(trigger.duration))
            do {
                _ = try parser.parse(fields, now: now)
            } catch {
                for problem in error.problems { reader.fail("trigger[\(index)].\(tomlKey(problem.field))", problem.problem) }
            }
        }
    }

    /// A message's field as the file's key: `vbml.components[0].template` is `vbml`.
    private static func tomlKey(_ field: String) -> String {
        let key = String(field.prefix { $0 != "." && $0 != "[" })
        return ["quickMessage": "quick_message", "holdMinutes": "hold_minutes"][key] ?? key
    }
}
