import FoundationEssentials

/// A member the owner removed. Their sessions' digests are kept so that their phone is told why
/// it was signed out (not just "sign in"); for ``AccessStore/undoWindow`` the owner can take the
/// removal back, and their sessions and keys work again.
public struct Removal: Sendable, Equatable, Codable {
    /// Who was removed.
    public var member: Member
    /// When.
    public var at: Date
    /// Whether the owner cleared their message from the board as they removed them.
    public var messageCleared: Bool
    var sessions: [AccessFile.Stored]
    var keys: [AccessFile.Stored]

    /// Until when the removal can be taken back.
    public var undoUntil: Date { at.addingTimeInterval(AccessStore.undoWindow) }
}

/// Why a removal could not be taken back.
public enum UndoRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    case unknown(String)
    case tooLate(Member)
    case senderTaken(Member, by: String)
    case boardFull(Member)

    /// Why the removal cannot be undone, in words.
    public var description: String {
        switch self {
        case .unknown(let id): "no member \(id) was removed lately"
        case .tooLate(let member): "\(member.name) was removed more than \(Int(AccessStore.undoWindow / 60)) minutes ago: invite them again"
        case .senderTaken(let member, let other): "\(member.sender) is \(other)'s now: invite \(member.name) again with another sender"
        case .boardFull(let member): "the board has as many members as it takes: remove one, then invite \(member.name) again"
        }
    }
}
