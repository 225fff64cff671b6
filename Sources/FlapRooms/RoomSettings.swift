import Wematch

/// `[room]`, or `flapd --room NAME`: the room this kiosk joins, and what its members are called.
public struct RoomSettings: Sendable, Equatable {
    /// The room's name.
    public var name: String
    /// This kiosk's part of its members' ids (default: the MQTT device id).
    public var kiosk: String?
    /// The code people join by (default: one made from the name, the same on every kiosk).
    public var code: RoomCode?
    /// What to call the person wearing each strap, by the strap's address; others get a
    /// generated name (adjective_animal0042).
    public var names: [String: String] = [:]
    /// Chime through the sound device on each new synced pair (when a panel shows the room).
    public var chime = true
    /// A buzzer or vibration motor pulsed on each new synced pair: `CHIP:LINE` (`gpiochip0:17`),
    /// or `simulated`.
    public var buzzer: String?

    /// Settings joining `name`, with the defaults for the rest.
    public init(name: String) {
        self.name = name
    }

    /// Room `name`, with the kiosk and names of `other`.
    public init(name: String, keeping other: RoomSettings) {
        self = other
        self.name = name
    }

    /// What is wrong with the settings, or nil.
    public func problem() -> String? {
        if let problem = RoomMessages.nameProblem(name) { return "room name \(name.debugDescription): \(problem)" }
        if let kiosk, let problem = RoomMessages.nameProblem(kiosk) { return "kiosk \(kiosk.debugDescription): \(problem)" }
        if let buzzer, buzzer != "simulated", buzzerLine == nil {
            return "buzzer \(buzzer.debugDescription): give CHIP:LINE, such as \"gpiochip0:17\", or \"simulated\""
        }
        return nil
    }
}

extension RoomSettings {
    /// The buzzer's chip and line offset, when it is on real GPIO.
    public var buzzerLine: (chip: String, line: Int)? {
        guard let buzzer else { return nil }
        let parts = buzzer.split(separator: ":")
        guard parts.count == 2, !parts[0].isEmpty, let line = Int(parts[1]), line >= 0 else { return nil }
        return (String(parts[0]), line)
    }
}
