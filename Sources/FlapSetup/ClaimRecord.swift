import FoundationEssentials

/// `setup.json` in the state directory: whether the board has an owner, and since when. Written
/// whole, so a power cut leaves the old record or the new one.
struct ClaimRecord: Codable, Equatable {
    /// Whether someone has claimed the board (or it had an owner before this version).
    var claimed: Bool
    /// When it was claimed.
    var claimedAt: Date?

    /// The most the file may hold: a few dozen bytes are written.
    static let largest = 4096
}
