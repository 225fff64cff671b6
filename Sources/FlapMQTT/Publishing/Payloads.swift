import FlapMessaging
import FoundationEssentials

/// A receipt as published on `<base>/<device>/receipt`; absent fields are left out.
struct ReceiptBody: Encodable {
    var id: String?
    var sender: String?
    var status: String
    var reason: String?
    var warnings: [String]?
    var duplicate: Bool?
    var source: MessageSource?
    var device: String
    var at: String
}

/// `ha/room`: the kiosk's room for Home Assistant's sensors.
struct RoomSummaryBody: Encodable {
    var room: String?
    var members: Int
    var syncedPairs: Int
}

/// Home Assistant's event for a message shown (`event_type` is what its event entity reads).
struct DisplayedEvent: Encodable {
    var eventType: String
    var message: String
    var sender: String?
    var panel: String
    var text: String
}

/// The retained state topic's payload: the board a panel rests on, and the message it shows.
struct StateBody: Encodable {
    var panel: String
    var codes: [[Int]]
    var text: [String]
    var message: String?
}

extension JSONEncoder {
    /// Keys in order, as receipts have always been written. JSONEncoder is thread-safe.
    static let sorted: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Home Assistant's snake_case keys, in order.
    static let snakeCaseSorted: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
