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

/// `[local_api]`: the Vestaboard-compatible Local API.
extension ConfigurationParser {
    static func readLocalAPI(_ local: inout TableReader, into configuration: inout FlapdConfiguration) {
        defer { local.finish() }
        configuration.localAPI.port = local.port("port") ?? configuration.localAPI.port
        configuration.localAPI.enablementToken = local.secret("enablement_token", file: "enablement_token_file")
    }
}

/// `[local_api]`: the Vestaboard-compatible Local API.
public struct LocalAPISettings: Sendable, Equatable {
    /// Its port (`port`, `--local-api-port`).
    public var port = 7000
    /// The enablement token; nil: made on first start and kept in the state directory.
    public var enablementToken: Secret?

    /// The defaults: port 7000, the token made on first start.
    public init() {}
}
