import FlapCore
import FoundationEssentials

// flapd's answers as flapctl reads them: every field optional, so an answer from a newer or
// older flapd still prints what both know.

extension FlapdConnection.Reply {
    /// The body as `T`, or nil when it is not one.
    func decoded<T: Decodable>(_ type: T.Type = T.self) -> T? {
        try? JSONDecoder().decode(T.self, from: body)
    }
}

/// A value whose presence alone matters (`codes` or a pattern instead of a text).
struct Present: Decodable {
    init(from decoder: any Decoder) {}
}

/// `{"error": …}` (native API) or `{"message": …}` (Local API).
struct ErrorAnswer: Decodable {
    var error: String?
}

/// `POST /v1/messages`, `GET /v1/receipts/{id}`, a quick message sent.
struct MessageAnswer: Decodable {
    var id: String?
    var status: String?
    var reason: String?
    var warnings: [String]?
}

/// `GET /v1/board`.
struct BoardAnswer: Decodable {
    struct Panel: Decodable {
        var id: String?
        var moving: Bool?
        var message: String?
        var codes: [[Int]]?
        /// `heart` or `degree`: how the panel draws code 62.
        var flap62: Flap62?
    }
    var panels: [Panel]?
}

/// `GET /v1/status`: what `status` and `queue` print of it.
struct StatusAnswer: Decodable {
    struct Panel: Decodable {
        var id: String?
        var driver: String?
        var rows: Int?
        var columns: Int?
        var drum: String?
        var moving: Bool?
        var message: String?
    }
    struct Queue: Decodable {
        var slots: Int?
        var waiting: Int?
    }
    struct Vestaboard: Decodable {
        var panel: String?
        var api: String?
        var reachable: Bool?
        var queueDepth: Int?
        var lastError: String?
        /// Which Note of an array (1 first).
        var note: Int?
    }
    var version: String?
    var uptimeSeconds: Int?
    var panels: [Panel]?
    var queue: Queue?
    var boards: [Vestaboard]?
}

/// `GET /v1/slots`.
struct SlotsAnswer: Decodable {
    struct Slot: Decodable {
        var sender: String?
        var senderName: String?
        var id: String?
        var expiresAt: String?
        var text: [String]?
        /// A temporary message's seconds.
        var duration: Int?
    }
    var slots: [Slot]?
}

/// `GET /v1/receipts`.
struct ReceiptsAnswer: Decodable {
    struct Receipt: Decodable {
        var id: String?
        var sender: String?
        var status: String?
        var reason: String?
        var receivedAt: String?
        var text: String?
    }
    var receipts: [Receipt]?
}

/// `GET /v1/queue`.
struct QueueAnswer: Decodable {
    struct Delivery: Decodable {
        var id: Int?
        var panel: String?
        var state: String?
        var strategy: String?
        var attempts: Int?
        var lastError: String?
    }
    var deliveries: [Delivery]?
}

/// `GET /v1/panels/{panel}/calibration`.
struct CalibrationAnswer: Decodable {
    var columns: Int?
    var offsets: [Int]?
    var stepsPerFlap: Double?
}

/// `GET /v1/room` and what joining answers.
struct RoomStateAnswer: Decodable {
    struct Member: Decodable {
        var name: String?
        var colour: String?
        var stale: Bool?
        var cluster: String?
        var chain: Int?
    }
    var room: String?
    var kind: String?
    var code: String?
    var capacity: Int?
    var members: [Member]?
    var clusters: [Present]?
    var waiting: [String]?
    var stars: Int?
}

/// `DELETE /v1/room`.
struct RoomLeftAnswer: Decodable {
    var left: String?
    var room: String?
}

/// A schedule, as flapctl sends it (what is not given is left out) and as flapd answers with it
/// (`next` and `fromFile` added).
struct ScheduleFields: Codable {
    var name: String?
    var days: [String]?
    var times: [String]?
    var cron: String?
    var timeZone: String?
    var holdMinutes: Int?
    var sender: String?
    var quickMessage: String?
    var text: String?
    var background: Bool?
    var next: String?
    var fromFile: Bool?
}

/// `GET /v1/schedules`.
struct SchedulesAnswer: Decodable {
    var schedules: [ScheduleFields]?
}

/// `GET /v1/scheduled`.
struct ScheduledAnswer: Decodable {
    struct Entry: Decodable {
        var id: String?
        var sender: String?
        var notBefore: String?
        var text: String?
        var codes: Present?
    }
    var scheduled: [Entry]?
}

/// `GET /v1/templates`.
struct TemplatesAnswer: Decodable {
    struct Template: Decodable {
        struct Fields: Decodable {
            var text: String?
            var codes: Present?
        }
        var name: String?
        var fields: Fields?
    }
    var templates: [Template]?
}
