import FlapEndpoints
import FlapJSON

/// Content sources: what each gives templates now, a fetch now, and pushes to webhooks.
enum SourceTools {
    static let list = BoardTool(
        name: "list_sources", title: "List content sources",
        description:
            "The content sources (calendars, feeds, JSON documents, webhooks): each one's health (ok, failing, stale, missing) and the values "
            + "a quick message, schedule or VBML template names as {{source.value}}; and the triggers that show a board when a source's condition holds.",
        readOnly: true,
        run: { _, api in
            try await api.call(.sources) { answer in
                let sources = answer?["sources"]?.array ?? []
                guard !sources.isEmpty else { return "no sources ([[source]] tables in flapd.toml)" }
                return sources.map { source in
                    let name = source["name"]?.string ?? "", state = source["state"]?.string ?? ""
                    let values = (source["values"]?.object ?? [:]).filter { !["stale", "updated"].contains($0.key) }
                    let shown = values.keys.sorted().compactMap { key in values[key].flatMap(Self.short).map { "\(name).\(key) = \($0)" } }
                    return "\(name) (\(source["kind"]?.string ?? ""), \(state)): " + shown.joined(separator: ", ")
                }.joined(separator: "\n")
            }
        })

    static let refresh = BoardTool(
        name: "refresh_source", title: "Fetch a content source now",
        description: "Fetches a calendar, feed or JSON source now rather than at its next time; list_sources shows the outcome.",
        parameters: [.init(name: "name", kind: .string, description: "The source's name.", required: true)],
        run: { arguments, api in
            let name = arguments.string("name") ?? ""
            return try await api.call(.refreshSource, name) { _ in "fetching \(name)" }
        })

    static let push = BoardTool(
        name: "push_to_source", title: "Set a webhook source's values",
        description: "Sets values of a webhook source (its fields, as list_sources shows them); null clears one. Triggers on the source may fire.",
        parameters: [
            .init(name: "name", kind: .string, description: "The webhook source's name.", required: true),
            .init(
                name: "values", kind: .object([:]),
                description: "The values by field, such as {\"state\": \"open\"}: strings, numbers, true, false or null.", required: true)
        ],
        run: { arguments, api in
            let name = arguments.string("name") ?? ""
            return try await api.call(.pushToSource, name, body: arguments.values["values"] ?? .object([:])) { view in
                "\(name) is now "
                    + (view?["values"]?.object ?? [:]).filter { !["stale", "updated"].contains($0.key) }
                    .sorted { $0.key < $1.key }.compactMap { key, value in Self.short(value).map { "\(key) = \($0)" } }.joined(separator: ", ")
            }
        })

    /// A value as a line can show it: lists by their length.
    static func short(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .number, .bool: value.text
        case .array(let items): "\(items.count) items"
        case .object(let members): members["title"]?.string ?? "{…}"
        case .null: nil
        }
    }
}
