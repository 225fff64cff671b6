import FlapCore
import FlapJSON
import FoundationEssentials

/// Any JSON document; each value picked by a JSON Pointer (`values = { temperature = "/current/temperature_2m" }`).
public struct JSONSource: SourceKind {
    /// A JSON source kind (it holds nothing: the settings say which document and values).
    public init() {}
    /// `kind = "json"`.
    public var name: String { "json" }
    /// Every 10 minutes.
    public var defaultInterval: Duration? { .seconds(600) }
    /// `values`: name to JSON Pointer.
    public var settings: [String: String] { ["values": "picks values by JSON Pointer"] }

    /// It needs values, each named as a template names it and each a valid pointer.
    public func problems(_ definition: SourceSettings) -> [(key: String, problem: String)] {
        var found: [(key: String, problem: String)] = []
        if definition.pointers.isEmpty {
            found.append(("values", "a json source names its values, such as values = { temperature = \"/current/temperature_2m\" }"))
        }
        for (value, pointer) in definition.pointers.sorted(by: { $0.key < $1.key }) {
            if !SourceSettings.isName(value) { found.append(("values.\(value)", "the name must be lowercase letters, digits and _, starting with a letter")) }
            if case .failure(let problem) = Result(catching: { () throws(JSONPointer.Problem) in try JSONPointer(pointer) }) {
                found.append(("values.\(value)", problem.description))
            }
        }
        return found
    }

    /// Reads the body as JSON; anything else is a problem that shows how the body begins.
    public func read(_ body: [UInt8], for definition: SourceSettings) throws(SourceProblem) -> SourceContent {
        do { return SourceContent(try JSONValue(parsing: body)) } catch {
            throw SourceProblem("the answer is not JSON (\(SourceContent.preview(body)))")
        }
    }

    /// Each named value, found by its pointer, or the placeholder.
    public func values(_ content: SourceContent?, definition: SourceSettings, now: Date, zone: ZoneRules) -> [String: JSONValue] {
        let found = content.map { pointed($0, definition.pointers).values } ?? [:]
        var values: [String: JSONValue] = [:]
        for name in definition.pointers.keys { values[name] = found[name] ?? .string(definition.placeholder) }
        return values
    }

    /// The values the document does not have (or has as null), each with its pointer.
    public func warnings(_ content: SourceContent, definition: SourceSettings) -> [String] {
        pointed(content, definition.pointers).missing
    }

    /// Every named value may be compared.
    public func comparable(_ definition: SourceSettings) -> [String] { definition.pointers.keys.sorted() }

    /// What the pointers find in the document, and what they do not.
    func pointed(_ content: SourceContent, _ pointers: [String: String]) -> (values: [String: JSONValue], missing: [String]) {
        guard let document = content.document as? JSONValue else { return ([:], []) }
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
