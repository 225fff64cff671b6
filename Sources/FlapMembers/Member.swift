import FoundationEssentials

/// A person the owner invited: their own sender (slot, rate limit, block list), their own
/// sessions and keys, revoked together.
public struct Member: Sendable, Equatable, Codable {
    /// Their id (`m-…`), which never changes.
    public var id: String
    /// Their name, unique in the household.
    public var name: String
    /// The sender id every message of theirs carries.
    public var sender: String
    /// When they were invited.
    public var createdAt: Date
}

/// Who a request comes from.
public enum Principal: Sendable, Equatable {
    /// The API key, or a session made from it or from a pairing link.
    case owner
    case member(Member)
}

/// A link that signs a phone in once.
public struct Invitation: Sendable, Equatable {
    /// The secret, for the link's fragment (`/join#TOKEN`); shown once, stored as its digest.
    public var token: String
    /// When the link stops working.
    public var expiresAt: Date
    /// nil: the owner's (flapctl pair).
    public var memberID: String?
}

/// Why the owner's change to the members was refused, naming the field.
public struct MemberProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The field refused.
    public var field: String
    /// What is wrong with it.
    public var problem: String
    /// The request was well formed but clashes with the members there are (a sender already
    /// someone's, a board with as many members as it takes): 409, not 400.
    public var isConflict: Bool
    /// The field and the problem.
    public var description: String { "\(field): \(problem)" }

    /// A refusal of `field` for `problem`; `isConflict` when it clashes with what is there (a name taken).
    public init(field: String, problem: String, isConflict: Bool = false) {
        self.field = field
        self.problem = problem
        self.isConflict = isConflict
    }
}
