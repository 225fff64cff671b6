import FlapCore
import FlapJSON
import FoundationEssentials

/// A source's last good content, read from what was fetched or pushed.
public enum SourceContent: Sendable {
    case json(JSONValue)
    case feed(Feed)
    case calendar(Calendar)
    /// A webhook's values as they were last pushed.
    case pushed([String: JSONValue])

    /// Reads a fetched body as `definition`'s kind says; a body that cannot be read is a
    /// problem, and the content before it is kept.
    public init(body: [UInt8], for definition: SourceDefinition) throws(SourceProblem) {
        switch definition.kind {
        case .json:
            do { self = .json(try JSONValue(parsing: body)) } catch {
                throw SourceProblem("the answer is not JSON (\(Self.preview(body)))")
            }
        case .feed: self = .feed(try Feed(bytes: body))
        case .calendar: self = .calendar(try Calendar(bytes: body))
        case .webhook: throw SourceProblem("a webhook is not fetched")
        }
    }

    /// The start of a body that is not what it should be, for the error (an HTML error page, say).
    static func preview(_ body: [UInt8]) -> String {
        guard !body.isEmpty else { return "it is empty" }
        let text = Feed.plain(String(decoding: body.prefix(60), as: UTF8.self))
        return "it starts \(text.debugDescription)"
    }

    /// What a JSON source's pointers find in it, and what they do not.
    func pointed(_ pointers: [String: String]) -> (values: [String: JSONValue], missing: [String]) {
        guard case .json(let document) = self else { return ([:], []) }
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
