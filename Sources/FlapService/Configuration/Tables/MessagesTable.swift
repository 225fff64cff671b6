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

/// `[messages]`: who may send, and how often.
extension ConfigurationParser {
    static func readMessages(_ messages: inout TableReader, into configuration: inout FlapdConfiguration) {
        defer { messages.finish() }
        if let rate = messages.int("rate_limit") {
            if rate < 0 { messages.fail("rate_limit", .outOfRange(given: "\(rate)", allowed: "0 (no limit) or more")) }
            configuration.messages.ratePerHour = rate
        }
        configuration.messages.allow = Set(messages.strings("allow") ?? [])
        configuration.messages.block = Set(messages.strings("block") ?? [])
    }
}
