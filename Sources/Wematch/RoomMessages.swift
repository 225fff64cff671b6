import FlapJSON
import FoundationEssentials

/// The rooms' MQTT topics and payloads, as every kiosk and tool that takes part exchanges them:
/// - `wematch/rooms/<room>/members/<member>`: the retained join record (QoS 1), cleared on leave;
/// - `wematch/rooms/<room>/hr/<member>`: samples (QoS 0, about 1 Hz), never retained;
/// - `wematch/codes/<CODE>`: the retained listing of the room a code stands for (QoS 1),
///   cleared when a room for two has ended.
public enum RoomMessages {
    /// Where every room's topics are.
    public static let prefix = "wematch/rooms"
    /// Where the codes' listings are.
    public static let codesPrefix = "wematch/codes"

    /// The topic of `code`'s listing.
    public static func codeTopic(_ code: RoomCode) -> String { "\(codesPrefix)/\(code.text)" }
    /// Every code's listing.
    public static let codesFilter = "wematch/codes/+"

    /// The code of a listing's topic, or nil for another topic.
    public static func code(of topic: String) -> RoomCode? {
        guard topic.hasPrefix(codesPrefix + "/") else { return nil }
        let text = topic.dropFirst(codesPrefix.count + 1)
        return text.count == RoomCode.length ? RoomCode(String(text)).flatMap { $0.text == text ? $0 : nil } : nil
    }

    /// The topic of `member`'s join record in `room`.
    public static func memberTopic(room: String, member: MemberID) -> String { "\(prefix)/\(room)/members/\(member)" }
    /// The topic of `member`'s samples in `room`.
    public static func sampleTopic(room: String, member: MemberID) -> String { "\(prefix)/\(room)/hr/\(member)" }
    /// Everything about one room.
    public static func roomFilter(_ room: String) -> String { "\(prefix)/\(room)/#" }

    /// What a topic of a room is about.
    public enum Subject: Equatable, Sendable {
        case member(MemberID)
        case sample(MemberID)
    }

    /// The room and subject of `topic`, or nil for a topic that is not a room's.
    public static func parse(_ topic: String) -> (room: String, subject: Subject)? {
        let parts = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == "wematch", parts[1] == "rooms", !parts[2].isEmpty, !parts[4].isEmpty else { return nil }
        switch parts[3] {
        case "members": return (String(parts[2]), .member(String(parts[4])))
        case "hr": return (String(parts[2]), .sample(String(parts[4])))
        default: return nil
        }
    }

    /// What is wrong with `name` as a room name or member id in a topic, or nil.
    public static func nameProblem(_ name: String) -> String? {
        if name.isEmpty || name.utf8.count > 64 { return "must be 1 to 64 characters" }
        if let bad = name.first(where: { "/+#".contains($0) || $0.isWhitespace || $0.isNewline }) {
            return "\(String(bad).debugDescription) cannot be part of a topic level"
        }
        return nil
    }

    // MARK: Payloads

    /// A join record as its payload.
    public static func encode(_ record: MemberRecord) -> [UInt8] {
        let time = record.joinedAt.formatted(.iso8601)
        return Array("{\"name\":\(quoted(record.name)),\"colour\":\(quoted(record.colour)),\"joinedAt\":\(quoted(time))}".utf8)
    }

    /// A listing as its payload.
    public static func encode(_ listing: RoomListing) -> [UInt8] {
        Array("{\"room\":\(quoted(listing.room)),\"kind\":\"\(listing.kind.rawValue)\",\"capacity\":\(listing.capacity)}".utf8)
    }

    /// The listing in `payload`, or what is wrong with it.
    public static func listing(_ payload: [UInt8]) throws(RoomMessageError) -> RoomListing {
        let object = try object(payload, "a room listing")
        guard let room = object["room"]?.string, nameProblem(room) == nil else { throw RoomMessageError("room: a room name is missing") }
        guard let kind = object["kind"]?.string.flatMap(RoomListing.Kind.init(rawValue:)) else { throw RoomMessageError("kind: standing or pair") }
        guard let capacity = object["capacity"]?.int, capacity >= 2 else { throw RoomMessageError("capacity: a whole number of members, 2 or more") }
        return RoomListing(room: room, kind: kind, capacity: capacity)
    }

    /// A sample as its payload.
    public static func encode(_ sample: HeartSample) -> [UInt8] {
        Array(#"{"previous":\#(number(sample.previous)),"current":\#(number(sample.current)),"seq":\#(sample.seq)}"#.utf8)
    }

    /// The join record in `payload`, or what is wrong with it.
    public static func record(_ payload: [UInt8]) throws(RoomMessageError) -> MemberRecord {
        let object = try object(payload, "a join record")
        guard let name = object["name"]?.string, !name.isEmpty else { throw RoomMessageError("name: a member's name is missing") }
        guard let colour = object["colour"]?.string, Palette.rgb(colour) != nil else { throw RoomMessageError("colour: not a colour as #rrggbb") }
        guard let text = object["joinedAt"]?.string, let joined = try? Date(text, strategy: .iso8601) else {
            throw RoomMessageError("joinedAt: not a time as 2026-11-22T10:00:00Z")
        }
        return MemberRecord(name: name, colour: colour, joinedAt: joined)
    }

    /// The sample in `payload`, or what is wrong with it.
    public static func sample(_ payload: [UInt8]) throws(RoomMessageError) -> HeartSample {
        let object = try object(payload, "a sample")
        func rate(_ key: String) throws(RoomMessageError) -> Double {
            guard let value = object[key]?.number, value.isFinite else {
                throw RoomMessageError("\(key): a number of beats per minute is missing")
            }
            return value
        }
        guard let seq = object["seq"]?.int else { throw RoomMessageError("seq: a whole sequence number is missing") }
        return HeartSample(previous: try rate("previous"), current: try rate("current"), seq: seq)
    }

    private static func object(_ payload: [UInt8], _ what: String) throws(RoomMessageError) -> [String: JSONValue] {
        guard let object = (try? JSONValue(parsing: payload))?.object else {
            throw RoomMessageError("\(what) must be a JSON object")
        }
        return object
    }

    private static func quoted(_ text: String) -> String {
        JSONValue.string(text).text
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}

/// A room message that cannot be read: which field, and what is wrong with it.
public struct RoomMessageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with the payload, naming the field.
    public var description: String
    /// A problem said in `description`.
    public init(_ description: String) { self.description = description }
}
