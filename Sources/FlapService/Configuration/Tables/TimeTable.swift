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

/// `[time]`: whether the clock can be trusted.
extension ConfigurationParser {
    static func readTime(_ time: inout TableReader, into configuration: inout FlapdConfiguration) {
        defer { time.finish() }
        guard let clock = time.string("clock") else { return }
        if let setting = ClockTrust.Setting(rawValue: clock) {
            configuration.time.clock = setting
        } else {
            time.fail("clock", .notOneOf(clock, choices: ClockTrust.Setting.allCases.map(\.rawValue)))
        }
    }
}

/// `[time]`.
public struct TimeSettings: Sendable, Equatable {
    /// `clock`: whether timed events decide by the clock's synchronisation (auto) or trust it as
    /// it is (a board with a real-time clock).
    public var clock = ClockTrust.Setting.auto

    /// The defaults: the clock's trust decided automatically.
    public init() {}
}
