import FlapJSON

/// One `[[trigger]]`: a condition on a source that shows a board for a while, then gives the
/// board back. It is a temporary message from the source `trigger`: it covers a schedule's
/// message, never a person's (docs/triggers.md).
public struct TriggerSettings: Sendable, Equatable {
    /// When it fires.
    public enum Condition: Sendable, Equatable {
        /// A calendar's next event starts within this long (once per event).
        case eventStarts(within: Duration)
        /// A value goes above or below a number, or becomes a text (on a fetched source, when
        /// it becomes true; on a webhook, at every push that makes it true).
        case above(value: String, Double)
        case below(value: String, Double)
        case equals(value: String, String)
        /// Any push to a webhook.
        case pushed
    }

    /// Its name (in receipts and `/v1/sources`).
    public var name: String
    /// The `[[source]]` it watches.
    public var source: String
    /// When it fires.
    public var condition: Condition
    /// The message's content: `text`, `vbml` or `quick_message`, as a message's fields.
    public var content: [String: JSONValue]
    /// How long it shows, in seconds (10 s to 12 h).
    public var duration: Int
    /// How long after it fires it may not fire again.
    public var cooldown: Duration
    /// Its sender, for panels that show one sender's messages.
    public var sender: String

    /// A trigger; five minutes on the board, half an hour's cooldown, sent as `trigger` unless said.
    public init(
        name: String, source: String, condition: Condition, content: [String: JSONValue], duration: Int = 300,
        cooldown: Duration = .seconds(1800), sender: String = "trigger"
    ) {
        self.name = name
        self.source = source
        self.condition = condition
        self.content = content
        self.duration = duration
        self.cooldown = cooldown
        self.sender = sender
    }

    /// What is wrong with it against the sources there are, each problem naming its key.
    public func problems(sources: [SourceSettings]) -> [(key: String, problem: String)] {
        var found: [(String, String)] = []
        if !SourceSettings.isName(name) {
            found.append(("name", "\(name.debugDescription) must be lowercase letters, digits and _, starting with a letter"))
        }
        guard let definition = sources.first(where: { $0.name == source }) else {
            let known = sources.map(\.name).joined(separator: ", ")
            return found.map { (key: $0.0, problem: $0.1) } + [
                (key: "source", problem: "there is no [[source]] called \(source)\(known.isEmpty ? "" : " (there are \(known))")")
            ]
        }
        switch condition {
        case .eventStarts:
            if !definition.kind.hasEvents {
                found.append(
                    (
                        "starts_within",
                        "only a \(SourceKinds.names(having: \.hasEvents))'s events start; \(source) is a \(definition.kind.name) source"
                    ))
            }
        case .above(let value, _), .below(let value, _), .equals(let value, _):
            let names = definition.comparable
            if !names.contains(value) {
                found.append(
                    (
                        "value",
                        names.isEmpty
                            ? "a \(definition.kind.name) source has no values to compare; use a \(SourceKinds.names(having: \.comparesValues)) source"
                            : "\(source) has no value \(value) (it has \(names.joined(separator: ", ")))"
                    ))
            }
        case .pushed:
            if definition.kind.isFetched {
                found.append(("source", "\(source) is fetched, not pushed to: give a condition (starts_within, above, below or equals)"))
            }
        }
        if !(10...(12 * 3600)).contains(duration) { found.append(("duration", "must be 10 seconds to 12 hours")) }
        if content.isEmpty { found.append(("text", "a trigger shows text, vbml or a quick_message")) }
        return found.map { (key: $0.0, problem: $0.1) }
    }
}
