import FlapCore
import FlapJSON
import FoundationEssentials

/// Values pushed in with `POST /v1/sources/{name}`: each of its `fields`, as last pushed.
public struct WebhookSource: SourceKind {
    /// A webhook source kind (it holds nothing: the settings say its fields).
    public init() {}
    /// `kind = "webhook"`.
    public var name: String { "webhook" }
    /// Never fetched: pushed to.
    public var defaultInterval: Duration? { nil }
    /// `fields` and `key_file` are a webhook's alone.
    public var settings: [String: String] { ["fields": "names the values a push may set", "key_file": "has a key of its own"] }

    /// It needs fields, each named as a template names it.
    public func problems(_ definition: SourceSettings) -> [(key: String, problem: String)] {
        var found: [(key: String, problem: String)] = []
        if definition.fields.isEmpty { found.append(("fields", "a webhook names the values a push may set, such as fields = [\"state\", \"who\"]")) }
        for field in definition.fields where !SourceSettings.isName(field) {
            found.append(("fields", "\(field.debugDescription) must be lowercase letters, digits and _, starting with a letter"))
        }
        return found
    }

    /// Never called: a webhook is not fetched.
    public func read(_ body: [UInt8], for definition: SourceSettings) throws(SourceProblem) -> SourceContent {
        throw SourceProblem("a webhook is not fetched")
    }

    /// Each field as last pushed, or the placeholder.
    public func values(_ content: SourceContent?, definition: SourceSettings, now: Date, zone: ZoneRules) -> [String: JSONValue] {
        let pushed = content?.document as? [String: JSONValue] ?? [:]
        var values: [String: JSONValue] = [:]
        for name in definition.fields { values[name] = pushed[name] ?? .string(definition.placeholder) }
        return values
    }

    /// Every field may be compared.
    public func comparable(_ definition: SourceSettings) -> [String] { definition.fields }
}
