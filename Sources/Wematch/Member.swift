import FoundationEssentials

/// A member's id in a room: unique in the room, stable while it stays (`kiosk-a.ble.C47C8D6A1234`).
public typealias MemberID = String

/// A member's retained join record, `wematch/rooms/<room>/members/<member>`:
/// `{"name": "cosmic_narwhal0042", "colour": "#ff5fa2", "joinedAt": "2026-11-22T10:00:00Z"}`.
public struct MemberRecord: Sendable, Equatable, Codable {
    /// The name people see.
    public var name: String
    /// `#rrggbb`.
    public var colour: String
    /// When it joined; the room admits in this order.
    public var joinedAt: Date

    /// A record of `name`, drawn in `colour`, joined at `joinedAt`.
    public init(name: String, colour: String, joinedAt: Date) {
        self.name = name
        self.colour = colour
        self.joinedAt = joinedAt
    }
}

/// One heart-rate sample, `wematch/rooms/<room>/hr/<member>`: `{"previous": 72, "current": 75,
/// "seq": 17}`. Carrying the previous BPM with the current one makes a member's point the same on
/// every kiosk, whenever each receives it.
public struct HeartSample: Sendable, Equatable, Codable {
    /// The BPM of the sample before.
    public var previous: Double
    /// The BPM now.
    public var current: Double
    /// The sample's number, rising with each.
    public var seq: Int

    /// A sample of `current` BPM after `previous`, numbered `seq`.
    public init(previous: Double, current: Double, seq: Int) {
        self.previous = previous
        self.current = current
        self.seq = seq
    }

    /// Rates a heart can have; samples outside are refused.
    public static let plausible: ClosedRange<Double> = 20...300

    /// Whether both rates are ones a heart can have.
    public var isPlausible: Bool {
        Self.plausible.contains(previous) && Self.plausible.contains(current)
    }
}

/// A member's point on the plot: (previous BPM, current BPM). On the diagonal the heart rate is
/// steady; above it, rising.
public struct HeartPoint: Sendable, Equatable {
    /// The BPM before (across).
    public var previous: Double
    /// The BPM now (up).
    public var current: Double

    /// The point (`previous`, `current`).
    public init(previous: Double, current: Double) {
        self.previous = previous
        self.current = current
    }

    /// How far apart two points are, in BPM.
    public func distance(to other: HeartPoint) -> Double {
        ((previous - other.previous) * (previous - other.previous) + (current - other.current) * (current - other.current)).squareRoot()
    }

    /// The point held inside the plot's axes (what a heart outside them is drawn at).
    public func clamped(to axis: ClosedRange<Double>) -> HeartPoint {
        HeartPoint(previous: min(max(previous, axis.lowerBound), axis.upperBound), current: min(max(current, axis.lowerBound), axis.upperBound))
    }
}
