/// A request about rooms that cannot be met: how (for the HTTP status) and why.
public struct RoomRequestError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable { case badRequest, notFound, conflict, unavailable }
    public let kind: Kind
    public let description: String
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
