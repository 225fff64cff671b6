/// The kiosk's rooms as the API reaches them. The answers are the rooms' own JSON (members,
/// edges, clusters, stars; never anyone's BPM), which this layer passes on as they are.
public protocol RoomAccess: Sendable {
    /// The room this kiosk is in, with its listing and code; nil when in none.
    func current() async -> (any Encodable & Sendable)?
    /// The room as a kiosk draws it, for the page; nil when in none.
    func plot() async -> (any Encodable & Sendable)?
    /// The room's plot as text of half blocks, `width`×`height` pixels; nil when in none.
    func picture(width: Int, height: Int) async -> String?
    func join(code: String) async throws(RoomRefusal) -> any Encodable & Sendable
    func createPair() async throws(RoomRefusal) -> any Encodable & Sendable
    /// Leaves; returns the room left and the room the kiosk is in now.
    func leave() async -> (left: String?, now: String?)
}

/// Why a room request was refused, and what kind of answer that is.
public struct RoomRefusal: Error, Sendable, CustomStringConvertible {
    /// How it fails, for the HTTP status.
    public enum Kind: Sendable { case badRequest, notFound, conflict, unavailable }
    /// How it fails.
    public let kind: Kind
    /// Why, in words.
    public let description: String

    /// A refusal of `kind`, saying `description`.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
