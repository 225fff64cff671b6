import Wematch

/// `[room]`, or `flapd --room NAME`: the room this kiosk joins, and what its members are called.
public struct RoomSettings: Sendable, Equatable {
    public var name: String
    /// This kiosk's part of its members' ids (default: the MQTT device id).
    public var kiosk: String?
    /// What to call the person wearing each strap, by the strap's address; others get a
    /// generated name (adjective_animal0042).
    public var names: [String: String] = [:]

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
        return nil
    }
}
