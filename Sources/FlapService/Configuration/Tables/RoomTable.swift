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

/// `[room]`: the Wematch room a kiosk stands in.
extension ConfigurationParser {
    /// `[room]`.
    static func parseRoom(_ reader: inout TableReader) -> RoomSettings? {
        defer { reader.finish() }
        guard let name = reader.string("name") else {
            reader.fail("name", .needs("[room]", "name = \"lobby\" (the room to join)"))
            reader.askedForAll()
            return nil
        }
        var room = RoomSettings(name: name)
        room.kiosk = reader.string("kiosk")
        room.chime = reader.bool("chime") ?? true
        if let code = reader.string("code") {
            if let problem = RoomCode.problem(code) { reader.fail("code", problem) } else { room.code = RoomCode(code) }
        }
        room.buzzer = reader.string("buzzer")
        if var names = reader.table("names") {
            for key in names.table.keys.sorted() { if let name = names.string(key) { room.names[key] = name } }
            reader.problems += names.problems
        }
        if let problem = room.problem() { reader.fail(problem.hasPrefix("buzzer") ? "buzzer" : "name", problem) }
        return room
    }
}
