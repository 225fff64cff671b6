import FlapPrimitives

/// The six characters people type to join a room: Crockford's base-32 letters and digits (no
/// I, L, O or U to misread), upper case. A standing room's code comes from its name, so every
/// kiosk of the room announces the same one; a room for two gets a random one.
public struct RoomCode: Sendable, Hashable, CustomStringConvertible {
    /// The characters a code is written with.
    public static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    /// How many characters a code has.
    public static let length = 6
    /// The code as it is written.
    public let text: String

    /// The code in `typed`, forgiving case, spaces and dashes and the letters people mistake
    /// for digits (O for 0, I and L for 1); nil with the reason in ``problem(_:)``.
    public init?(_ typed: String) {
        guard Self.problem(typed) == nil else { return nil }
        text = Self.normalized(typed)
    }

    private init(exactly text: String) { self.text = text }

    /// A standing room's code: from its name, the same everywhere.
    public static func standing(_ room: String) -> RoomCode {
        var random = SeededRandom(seed: FNV1a.hash("wematch room " + room))
        return generate(&random)
    }

    /// A fresh code from `seed` (a room for two).
    public static func random(seed: UInt64) -> RoomCode {
        var random = SeededRandom(seed: seed)
        return generate(&random)
    }

    private static func generate(_ random: inout SeededRandom) -> RoomCode {
        RoomCode(exactly: String((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }))
    }

    /// What is wrong with `typed` as a code, or nil.
    public static func problem(_ typed: String) -> String? {
        let text = normalized(typed)
        guard text.count == length else { return "a room code has \(length) characters; \(typed.debugDescription) has \(text.count)" }
        if let (index, bad) = text.enumerated().first(where: { !alphabet.contains($0.element) }) {
            return
                "character \(index + 1) of \(typed.debugDescription), \(String(bad).debugDescription), is not in a room code (letters and digits, no U)"
        }
        return nil
    }

    private static func normalized(_ typed: String) -> String {
        String(
            typed.uppercased().filter { $0 != " " && $0 != "-" }.map { character -> Character in
                switch character {
                case "O": "0"
                case "I", "L": "1"
                default: character
                }
            })
    }

    /// The code.
    public var description: String { text }
}

/// What a code stands for, announced retained at `wematch/codes/<CODE>` by the kiosks of the room.
public struct RoomListing: Sendable, Equatable {
    /// `standing` (named, configured) or `pair` (a room for two, while one of them remains).
    public enum Kind: String, Sendable, Equatable { case standing, pair }
    /// The room's name.
    public var room: String
    /// Its kind.
    public var kind: Kind
    /// The most members it admits.
    public var capacity: Int

    /// The listing of `room`, of `kind`, for `capacity` members.
    public init(room: String, kind: Kind, capacity: Int) {
        self.room = room
        self.kind = kind
        self.capacity = capacity
    }

    /// The listing of a standing room.
    public static func standing(_ room: String) -> RoomListing {
        RoomListing(room: room, kind: .standing, capacity: Room<ContinuousClock.Instant>.defaultCapacity)
    }

    /// A room for two under `code`.
    public static func pair(_ code: RoomCode) -> RoomListing { RoomListing(room: "pair-\(code.text.lowercased())", kind: .pair, capacity: 2) }
}
