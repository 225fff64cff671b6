import Wematch

/// Rings on every new synced pair: watches how many stars the room has lit and calls `ring`
/// once for each new one (a sound, a buzzer pulse). The count it starts from is the room's
/// when it first looks, so a kiosk that starts in a synced room does not ring for old pairs.
public struct SyncBell: Sendable {
    private var lit: Int?
    private var room: String?

    /// A bell that has looked at no room yet.
    public init() {}

    /// New synced pairs since the last look (none on the first look at a room).
    public mutating func newPairs(in plot: RoomPlot) -> Int {
        defer {
            lit = plot.starsLit
            room = plot.state.room
        }
        guard let lit, room == plot.state.room else { return 0 }
        return max(0, plot.starsLit - lit)
    }
}
