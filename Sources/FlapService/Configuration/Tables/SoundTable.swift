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

/// `[sound]`: the clacks.
extension ConfigurationParser {
    static func readSound(_ sound: inout TableReader, into configuration: inout FlapdConfiguration) {
        defer { sound.finish() }
        configuration.sound.enabled = sound.bool("enabled") ?? true
        configuration.sound.device = sound.string("device") ?? configuration.sound.device
        if let volume = sound.int("volume") {
            if (0...100).contains(volume) {
                configuration.sound.volume = volume
            } else {
                sound.fail("volume", .outOfRange(given: "\(volume)", allowed: "0 to 100 (%)"))
            }
        }
        configuration.sound.mute = sound.bool("mute") ?? false
        if let hours = sound.string("quiet_hours") {
            if let parsed = QuietHours(hours) {
                configuration.sound.quietHours = parsed
            } else {
                sound.fail("quiet_hours", .notASpanOfTime(hours))
            }
        }
        configuration.sound.samplePath = sound.string("sample")
    }
}
