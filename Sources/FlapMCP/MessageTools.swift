import FlapEndpoints
import FlapJSON
import FoundationEssentials

/// Sending: a message, a preview of its layout, and messages sent for later.
enum MessageTools {
    static let content: [BoardTool.Parameter] = [
        .init(
            name: "text", kind: .string,
            description:
                "The text, in capitals, digits and common punctuation; a line break starts a new row. {N} is character code N: {63}–{70} are colour chips (red, orange, yellow, green, blue, violet, white, black); 🟥 and the other coloured squares work too."
        ),
        .init(
            name: "codes", kind: .codeRows, description: "The board's rows as character codes (0 blank, 1–26 A–Z, 63–70 colours), one list per row."),
        .init(
            name: "pattern", kind: .stringRows,
            description: "The board as rows of colour names (red, orange, yellow, green, blue, violet, white, black or blank), one list per row."),
        .init(
            name: "vbml",
            kind: .object(["props": ["type": "object"], "style": ["type": "object"], "components": ["type": "array", "items": ["type": "object"]]]),
            description:
                "A VBML document (Vestaboard's markup): {\"props\": {…}, \"components\": [{\"template\": \"HELLO {{name}}\", \"style\": {\"justify\": \"center\"}}]}, drawn at the board's size as Vestaboard draws it."
        ),
        .init(
            name: "align", kind: .oneOf(["left", "center", "right", "justified"]), description: "How text lines sit in their row (default center)."),
        .init(name: "valign", kind: .oneOf(["top", "middle", "bottom"]), description: "Where the text sits on the board (default middle)."),
        .init(
            name: "transition",
            kind: .object(["strategy": ["type": "string"], "stepSize": ["type": "integer"], "stepIntervalMs": ["type": "integer"]]),
            description:
                "How the flaps start: strategy cascade, column, reverse-column, edges-to-center, row, diagonal or random; stepSize; stepIntervalMs.")
    ]

    static let send = BoardTool(
        name: "send_message", title: "Send a message to the board",
        description:
            "Puts a message on the board: text, codes, a pattern or a VBML document, as a sender (one slot per sender; the board shows the latest). "
            + "Answers with the message's receipt: accepted, displayed, or scheduled when notBefore is later. Refusals name the field.",
        parameters: content + [
            .init(name: "sender", kind: .string, description: "Who sends it; each sender has one slot (default assistant)."),
            .init(name: "senderName", kind: .string, description: "A name to show for the sender."),
            .init(
                name: "id", kind: .string,
                description: "The message's id (default: a new one for each call); sending the same id again changes nothing."),
            .init(
                name: "idempotencyKey", kind: .string,
                description:
                    "Makes a retry safe: a call again with the same key within 24 hours answers the first answer and sends nothing new (1 to 255 visible ASCII characters, such as a UUID)."
            ),
            .init(name: "notBefore", kind: .string, description: "ISO 8601 date and time before which it is not shown (sent for later)."),
            .init(
                name: "expiresAt", kind: .string,
                description: "ISO 8601 date and time after which it is no longer shown (default 48 hours after it is first due)."),
            .init(name: "bypassQuietHours", kind: .boolean, description: "Show it even during the board's quiet hours."),
            .init(
                name: "duration", kind: .integer(10...43200),
                description:
                    "Seconds (10 to 43200) to show it over whatever the board shows, which then comes back: an alert such as DOOR OPEN. Not with expiresAt."
            )
        ],
        run: { arguments, api in
            var body =
                arguments.body([
                    "text", "codes", "pattern", "vbml", "align", "valign", "transition", "id", "notBefore", "expiresAt", "bypassQuietHours",
                    "duration"
                ]).object ?? [:]
            var sender: [String: JSONValue] = ["id": arguments["sender"] ?? "assistant"]
            if let name = arguments["senderName"] { sender["name"] = name }
            body["sender"] = .object(sender)
            let key = arguments.string("idempotencyKey").map { [("Idempotency-Key", $0)] } ?? []
            return try await api.call(.sendMessage, body: .object(body), headers: key) { receipt in
                guard let id = receipt?["id"]?.string, let status = receipt?["status"]?.string else { return nil }
                return "message \(id): \(status)"
            }
        })

    static let preview = BoardTool(
        name: "preview_layout", title: "Preview a text's layout",
        description:
            "Lays a text out as the board would, without showing it: the rows as text, or the character that cannot be shown with its line and position.",
        parameters: [
            .init(name: "text", kind: .string, description: "The text to lay out.", required: true),
            .init(name: "align", kind: .oneOf(["left", "center", "right", "justified"]), description: "Default center."),
            .init(name: "valign", kind: .oneOf(["top", "middle", "bottom"]), description: "Default middle.")
        ],
        readOnly: true,
        run: { arguments, api in
            let answer = try await api.send(.layout, body: arguments.body(["text", "align", "valign"]))
            guard answer.status < 400, let preview = answer.json else { return .refused(answer.refusal, structured: answer.json) }
            // The layout's own refusal comes as a 200 with `error` for the page; to an assistant it is an error.
            if let problem = preview["error"] {
                let place = [problem["line"]?.int.map { "line \($0)" }, problem["position"]?.int.map { "position \($0)" }].compactMap { $0 }
                let reason = problem["reason"]?.string ?? "cannot be laid out"
                return .refused((place.isEmpty ? "" : place.joined(separator: ", ") + ": ") + reason, structured: preview)
            }
            return .answer(JSONValue.boardLines(preview["text"]), preview)
        })

    static let listScheduled = BoardTool(
        name: "list_scheduled", title: "List messages sent for later",
        description: "The messages waiting for their notBefore time, soonest first, with their ids (to cancel one).",
        readOnly: true,
        run: { _, api in
            try await api.call(.scheduled) { answer in "\(answer?["scheduled"]?.array?.count ?? 0) message(s) waiting" }
        })

    static let cancelScheduled = BoardTool(
        name: "cancel_scheduled", title: "Cancel a message sent for later",
        description: "Cancels a message still waiting for its time; one already shown cannot be cancelled.",
        parameters: [.init(name: "id", kind: .string, description: "The message's id (from list_scheduled or its receipt).", required: true)],
        destructive: true,
        run: { arguments, api in
            try await api.call(.cancelMessage, arguments.string("id") ?? "") { _ in "cancelled" }
        })

    static let receipts = BoardTool(
        name: "read_receipts", title: "Read receipts",
        description:
            "What became of a message (accepted, scheduled, displayed, replaced, expired, rejected, cancelled), by id, or of the latest ones.",
        parameters: [
            .init(name: "id", kind: .string, description: "One message's id; without it, the latest receipts."),
            .init(name: "limit", kind: .integer(1...500), description: "How many of the latest (default 20).")
        ],
        readOnly: true,
        run: { arguments, api in
            if let id = arguments.string("id") {
                return try await api.call(.receipt, id) { receipt in
                    receipt?["status"]?.string.map { "message \(id): \($0)" }
                }
            }
            return try await api.call(.receipts, query: [("limit", "\(arguments["limit"]?.int ?? 20)")])
        })
}
