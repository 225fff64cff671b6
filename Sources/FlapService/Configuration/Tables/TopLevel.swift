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

/// The file's top level: `state_dir`, `listen`, `log_level`.
extension ConfigurationParser {
    static func readTopLevel(_ reader: inout TableReader, into configuration: inout FlapdConfiguration) {
        configuration.stateDirectory = reader.string("state_dir")
        configuration.listen = reader.string("listen") ?? configuration.listen
        if let problem = FlapdConfiguration.listenProblem(configuration.listen) { reader.fail("listen", problem) }
        configuration.logLevel = reader.choice("log_level", ["trace", "debug", "info", "notice", "warning", "error", "critical"]) ?? "info"
    }
}
