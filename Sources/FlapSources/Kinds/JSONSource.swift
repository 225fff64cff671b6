import FlapCore
import FlapJSON
import FoundationEssentials

/// Any JSON document; each value picked by a JSON Pointer (`values = { temperature = "/current/temperature_2m" }`).
public struct JSONSource: SourceKind {
    /// A JSON source's own settings.
    public struct Options: Sendable, Equatable {
        /// Its values: name to JSON Pointer (`"/current/temperature_2m"`).
        public var pointers: [String: String]

        /// Options naming each value by its JSON pointer.
        public init(pointers: [String: String]) { self.pointers = pointers }
    }

    /// A JSON source kind (it holds nothing: the options say which values).
    public init() {}
    /// `kind = "json"`.
    public var name: String { "json" }
    /// Every 10 minutes.
    public var defaultInterval: Duration? { .seconds(600) }
    /// `values`: name to JSON Pointer.
    public var settings: [String: String] { ["values": "picks values by JSON Pointer"] }
    /// Triggers may compare its values.
    public var comparesValues: Bool { true }

    /// Reads `values`, each a name and its JSON pointer.
    public func options(reading table: inout some SourceTableReading) -> Options {
        Options(pointers: table.stringTable("values") ?? [:])
    }

    /// It needs values, each named as a template names it and each a valid pointer.
    public func problems(_ options: Options) -> [(key: String, problem: String)] {
        var found: [(key: String, problem: String)] = []
        if options.pointers.isEmpty {
            found.append(("values", "a json source names its values, such as values = { temperature = \"/current/temperature_2m\" }"))
        }
        for (value, pointer) in options.pointers.sorted(by: { $0.key < $1.key }) {
            if !SourceSettings.isName(value) {
                found.append(("values.\(value)", "the name must be lowercase letters, digits and _, starting with a letter"))
            }
            if case .failure(let problem) = Result(catching: { () throws(JSONPointer.Problem) in try JSONPointer(pointer) }) {
                found.append(("values.\(value)", problem.description))
            }
        }
        return found
    }

    /// Reads the body as JSON; anything else is a problem that shows how the body begins.
    public func read(_ body: [UInt8], options: Options) throws(SourceProblem) -> JSONValue {
        do { return try JSONValue(parsing: body) } catch {
            throw SourceProblem("the answer is not JSON (\(SourceContent.preview(body)))")
        }
    }

    /// Each named value, found by its pointer, or the placeholder.
    public func values(_ document: JSONValue?, options: Options, placeholder: String, now: Date, zone: ZoneRules) -> [String: JSONValue] {
        let found = document.map { pointed($0, options.pointers).values } ?? [:]
        var values: [String: JSONValue] = [:]
        for name in options.pointers.keys { values[name] = found[name] ?? .string(placeholder) }
        return values
    }

    /// The values the document does not have (or has as null), each with its pointer.
    public func warnings(_ document: JSONValue, options: Options) -> [String] {
        pointed(document, options.pointers).missing
    }

    /// Every named value may be compared.
    public func comparable(_ options: Options) -> [String] { options.pointers.keys.sorted() }

    /// What the pointers find in the document, and what they do not.
    func pointed(_ document: JSONValue, _ pointers: [String: String]) -> (values: [String: JSONValue], missing: [String]) {
        var values: [String: JSONValue] = [:], missing: [String] = []
        for (name, text) in pointers.sorted(by: { $0.key < $1.key }) {
            guard let pointer = try? JSONPointer(text) else { continue }
            switch pointer.resolve(in: document) {
            case .success(let value) where !value.isNull: values[name] = value
            case .success: missing.append("\(name): \(text) is null")
            case .failure(let problem): missing.append("\(name): \(problem)")
            }
        }
        return (values, missing)
    }
}
