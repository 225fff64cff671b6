import FlapCore
import FlapJSON
import FoundationEssentials

/// Values pushed in with `POST /v1/sources/{name}`: each of its `fields`, as last pushed.
public struct WebhookSource: PushedSourceKind {
    /// A webhook's own settings.
    public struct Options: Sendable, Equatable {
        /// The value names, which is all a push may set.
        public var fields: [String]
        /// A key of its own (its digest is what is kept), besides any member's.
        public var keyFile: String?

        /// Options taking pushes of `fields`, with a key of its own in `keyFile` when one is given.
        public init(fields: [String], keyFile: String? = nil) {
            self.fields = fields
            self.keyFile = keyFile
        }
    }

    /// A webhook source kind (it holds nothing: the options say its fields).
    public init() {}
    /// `kind = "webhook"`.
    public var name: String { "webhook" }
    /// `fields` and `key_file` are a webhook's alone.
    public var settings: [String: String] { ["fields": "names the values a push may set", "key_file": "has a key of its own"] }
    /// Triggers may compare what was pushed.
    public var comparesValues: Bool { true }

    /// Reads `fields` and `key_file`.
    public func options(reading table: inout some SourceTableReading) -> Options {
        Options(fields: table.strings("fields") ?? [], keyFile: table.string("key_file"))
    }

    /// It needs fields, each named as a template names it.
    public func problems(_ options: Options) -> [(key: String, problem: String)] {
        var found: [(key: String, problem: String)] = []
        if options.fields.isEmpty { found.append(("fields", "a webhook names the values a push may set, such as fields = [\"state\", \"who\"]")) }
        for field in options.fields where !SourceSettings.isName(field) {
            found.append(("fields", "\(field.debugDescription) must be lowercase letters, digits and _, starting with a letter"))
        }
        return found
    }

    /// A JSON object of its fields, each a string (up to 500 characters), a number, true,
    /// false or null.
    public func accept(_ body: JSONValue, options: Options) throws(SourcePushError) -> [String: JSONValue] {
        let fields = options.fields
        guard let object = body.object else {
            throw .invalid([("", "must be a JSON object of values, such as {\"\(fields.first ?? "state")\": \"on\"}")])
        }
        var problems: [(field: String, problem: String)] = []
        for (field, value) in object.sorted(by: { $0.key < $1.key }) {
            guard fields.contains(field) else {
                problems.append((field, "is not one of this source's fields (\(fields.joined(separator: ", ")))"))
                continue
            }
            switch value {
            case .string(let text) where text.count > 500: problems.append((field, "is longer than 500 characters"))
            case .string, .number, .bool, .null: break
            default: problems.append((field, "must be a string, a number, true, false or null"))
            }
        }
        guard !problems.isEmpty || !object.isEmpty else { throw .invalid([("", "names no field (\(fields.joined(separator: ", ")))")]) }
        guard problems.isEmpty else { throw .invalid(problems) }
        return object
    }

    /// The file holding the key a push must carry, if any.
    public func keyFile(_ options: Options) -> String? { options.keyFile }

    /// Each field as last pushed, or the placeholder.
    public func values(_ document: [String: JSONValue]?, options: Options, placeholder: String, now: Date, zone: ZoneRules) -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for name in options.fields { values[name] = document?[name] ?? .string(placeholder) }
        return values
    }

    /// Every field may be compared.
    public func comparable(_ options: Options) -> [String] { options.fields }
}
