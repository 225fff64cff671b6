import FlapEndpoints
import FlapJSON

/// Quick messages: named messages kept to send again.
enum QuickMessageTools {
    static let name = BoardTool.Parameter(name: "name", kind: .string, description: "The quick message's name.", required: true)

    static let list = BoardTool(
        name: "list_quick_messages", title: "List quick messages",
        description: "The quick messages kept (at most 20), with what each shows.",
        readOnly: true,
        run: { _, api in
            try await api.call(.templates) { answer in
                let names = (answer?["templates"]?.array ?? []).compactMap { $0["name"]?.string }
                return names.isEmpty ? "no quick messages" : "quick messages: " + names.joined(separator: ", ")
            }
        })

    static let save = BoardTool(
        name: "save_quick_message", title: "Save a quick message",
        description: "Keeps a message under a name to send later (checked as a message would be); a name already kept is replaced.",
        parameters: [name] + MessageTools.content,
        run: { arguments, api in
            let given = arguments.string("name") ?? ""
            return try await api.call(
                .saveTemplate, given,
                body: arguments.body(["text", "codes", "pattern", "align", "valign", "transition"])
            ) { _ in "saved \(given)" }
        })

    static let send = BoardTool(
        name: "send_quick_message", title: "Send a quick message",
        description: "Sends a kept quick message to the board, as a new message; answers with its receipt.",
        parameters: [
            name,
            .init(name: "sender", kind: .string, description: "Who sends it (default quick-messages)."),
            .init(name: "expiresAt", kind: .string, description: "ISO 8601 date and time after which it is no longer shown.")
        ],
        run: { arguments, api in
            var body = arguments.body(["expiresAt"]).object ?? [:]
            if let sender = arguments["sender"] { body["sender"] = ["id": sender] }
            return try await api.call(.sendTemplate, arguments.string("name") ?? "", body: .object(body)) { receipt in
                guard let id = receipt?["id"]?.string, let status = receipt?["status"]?.string else { return nil }
                return "message \(id): \(status)"
            }
        })

    static let delete = BoardTool(
        name: "delete_quick_message", title: "Delete a quick message",
        description: "Deletes a kept quick message.",
        parameters: [name],
        destructive: true,
        run: { arguments, api in
            let given = arguments.string("name") ?? ""
            return try await api.call(.deleteTemplate, given) { _ in "deleted \(given)" }
        })
}
