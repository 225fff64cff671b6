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

/// `[mqtt]`: the broker, the device's id and groups.
extension ConfigurationParser {
    static func parseMQTT(_ reader: inout TableReader) -> MQTTSettings? {
        defer { reader.finish() }
        // Read whole even without a usable url: every key's problem is told at once, and every key declared.
        let url = reader.string("url"), deviceID = reader.string("device_id") ?? MQTTSettings.defaultDeviceID
        var settings = MQTTSettings(host: "", port: 0, deviceID: deviceID)
        var usable = false
        if let url {
            do {
                settings = try MQTTSettings(url: url, deviceID: deviceID)
                usable = true
            } catch {
                reader.fail("url", error.description)
            }
        } else {
            reader.fail("url", .needs("[mqtt]", "url = \"mqtt://broker:1883\""))
        }
        settings.groups = reader.strings("groups") ?? []
        settings.username = reader.string("username") ?? settings.username
        settings.passwordFile = reader.string("password_file")
        settings.caFile = reader.string("ca_file")
        settings.certificateFile = reader.string("cert_file")
        settings.keyFile = reader.string("key_file")
        if settings.certificateFile != nil || settings.caFile != nil { settings.tls = true }
        settings.protocolVersion = reader.choice("protocol") ?? settings.protocolVersion
        settings.homeAssistant = reader.bool("home_assistant") ?? true
        settings.baseTopic = reader.string("base_topic") ?? settings.baseTopic
        if let keepAlive = reader.int("keepalive") {
            if keepAlive >= 5 {
                settings.keepAlive = keepAlive
            } else {
                reader.fail("keepalive", .outOfRange(given: nil, allowed: "at least 5 seconds"))
            }
        }
        guard usable else { return nil }
        for problem in settings.validate() { reader.fail("device_id", problem) }
        return settings
    }
}
