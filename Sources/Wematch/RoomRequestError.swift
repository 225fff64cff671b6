/// A request about rooms that cannot be met: how (for the HTTP status) and why.
public struct RoomRequestError: Error, Sendable, CustomStringConvertible {
    /// How the request fails, for its HTTP status.
    public enum Kind: Sendable { case badRequest, notFound, conflict, unavailable }
    /// How it fails.
    public let kind: Kind
    /// Why, in words.
    public let description: String
    /// A failure of `kind`, saying `description`.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
