import FlapEndpoints
import FlapJSON

/// What the board shows and what it chooses from, and how the appliance is.
enum BoardReadingTools {
    static let readBoard = BoardTool(
        name: "read_board", title: "Read the board",
        description: "What each panel shows now, as text (colour chips as letters) and as character codes, and whether its flaps are still moving.",
        readOnly: true,
        run: { _, api in
            try await api.call(.board) { answer in
                (answer?["panels"]?.array ?? []).map(JSONValue.panelText).joined(separator: "\n")
            }
        })

    static let listSlots = BoardTool(
        name: "list_slots", title: "List senders' slots",
        description: "Each sender's latest message (the board chooses among these), with its text and when it expires.",
        readOnly: true,
        run: { _, api in
            try await api.call(.slots) { answer in
                let senders = (answer?["slots"]?.array ?? []).compactMap { $0["sender"]?.string }
                return senders.isEmpty ? "no sender has a message" : "senders: " + senders.joined(separator: ", ")
            }
        })

    static let clearSlot = BoardTool(
        name: "clear_slot", title: "Clear a sender's slot",
        description: "Removes a sender's message from the board's choice (its receipt says replaced).",
        parameters: [.init(name: "sender", kind: .string, description: "The sender's id, as list_slots gives it.", required: true)],
        destructive: true,
        run: { arguments, api in
            let sender = arguments.string("sender") ?? ""
            return try await api.call(.clearSlot, sender) { _ in "cleared the slot of \(sender)" }
        })

    static let status = BoardTool(
        name: "status", title: "The appliance's status",
        description:
            "The panels and their faulty modules, the queue of writes to real Vestaboards, whether the clock is trusted, sound, MQTT, storage and the receipts' counts.",
        readOnly: true,
        run: { _, api in
            try await api.call(.status) { answer in
                let panels = answer?["panels"]?.array ?? []
                let faulty = panels.reduce(0) { $0 + ($1["faults"]?.array?.count ?? 0) }
                return "flapd \(answer?["version"]?.string ?? "?"): \(panels.count) panel(s), \(faulty) faulty module(s)"
            }
        })

    static let room = BoardTool(
        name: "room", title: "The Wematch room",
        description: "The heart-rate room this kiosk is in: its code, who is in it and who is synced with whom. No one's heart rate is ever given.",
        readOnly: true,
        run: { _, api in
            try await api.call(.room) { answer in
                let members = (answer?["members"]?.array ?? []).compactMap { $0["name"]?.string }
                return "room \(answer?["code"]?.string ?? "?"): \(members.isEmpty ? "nobody" : members.joined(separator: ", "))"
            }
        })
}
