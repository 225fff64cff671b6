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

/// `[[schedule]]`: recurring messages written in the file.
extension ConfigurationParser {
    static func addSchedule(_ reader: inout TableReader, to configuration: inout FlapdConfiguration) {
        guard let definition = parseSchedule(&reader, location: configuration.location) else { return }
        if configuration.schedules.contains(where: { $0.name == definition.name }) {
            reader.fail("name", .nameTaken(definition.name, kind: "schedule", key: "name"))
        } else {
            configuration.schedules.append(definition)
        }
    }

    /// A `[[schedule]]`: the same fields as `/v1/schedules`, in the file's snake case.
    static func parseSchedule(_ reader: inout TableReader, location: GeoLocation?) -> ScheduleSettings? {
        guard let name = reader.string("name") else {
            reader.fail("name", .needs("a schedule", "a name, such as name = \"good-morning\""))
            reader.askedForAll()
            return nil
        }
        var definition = ScheduleSettings(name: name)
        definition.days = reader.oneOrMoreStrings("days")
        definition.times = reader.oneOrMoreStrings("times")
        definition.cron = reader.string("cron")
        definition.timeZone = reader.string("time_zone")
        definition.text = reader.string("text")
        definition.codes = reader.intLists("codes", example: "[[0, 0, 63, 63, …], …] (one row of character codes per panel row)")
        // A VBML document as its JSON text, as Vestaboard's tools write it: vbml = '{"components": […]}'
        if let text = reader.string("vbml") {
            if let document = try? JSONValue(parsing: Array(text.utf8)), document.object != nil {
                definition.vbml = document
            } else {
                reader.fail("vbml", #"must be a VBML document as JSON text, such as '{"components": [{"template": "GOOD MORNING {{weekday}}"}]}'"#)
            }
        }
        definition.quickMessage = reader.string("quick_message")
        definition.align = reader.string("align")
        definition.holdMinutes = reader.int("hold_minutes")
        definition.sender = reader.string("sender")
        definition.background = reader.bool("background")
        reader.finish()
        do {
            _ = try definition.recurrence(location: location)
        } catch {
            let keys = ["timeZone": "time_zone", "quickMessage": "quick_message", "holdMinutes": "hold_minutes"]
            for problem in error.problems { reader.fail(keys[problem.field] ?? problem.field, problem.problem) }
            return nil
        }
        return definition
    }
}
