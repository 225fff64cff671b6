/// Someone of the household as every module names them: the owner, or a member by their id.
/// Written (in files, on pages, in MQTT topics) as its text: `owner`, or the member's `m-…` id.
public struct Person: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// Its text: `owner`, or a member's id.
    public let rawValue: String

    /// The person written `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The board's owner (the API key, or the owner's session).
    public static let owner = Person(rawValue: "owner")

    /// The member with this id.
    public static func member(_ id: String) -> Person { Person(rawValue: id) }

    /// Its text.
    public var description: String { rawValue }
}
