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
        guard let url = reader.string("url") else {
            reader.fail("url", .needs("[mqtt]", "url = \"mqtt://broker:1883\""))
            reader.askedForAll()
            return nil
        }
        var settings: MQTTSettings
        do {
            settings = try MQTTSettings(url: url, deviceID: reader.string("device_id") ?? MQTTSettings.defaultDeviceID)
        } catch {
            reader.fail("url", error.description)
            reader.askedForAll()
            return nil
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
        for problem in settings.validate() { reader.fail("device_id", problem) }
        return settings
    }
}
