import FlapCore
import FlapJSON
import FoundationEssentials

/// A source's last good content: its kind's `Document` (a `JSONValue`, a `Feed`, a
/// `Calendar`, a pushed source's values), which only its kind looks inside.
public struct SourceContent: Sendable {
    /// What the kind read.
    public let document: any Sendable

    /// Content holding a kind's document.
    public init(_ document: any Sendable) {
        self.document = document
    }

    /// Reads a fetched body as `definition`'s kind says; a body that cannot be read is a
    /// problem, and the content before it is kept.
    public init(body: [UInt8], for definition: SourceSettings) throws(SourceProblem) {
        self = try definition.read(body)
    }

    /// The start of a body that is not what it should be, for the error (an HTML error page, say).
    public static func preview(_ body: [UInt8]) -> String {
        guard !body.isEmpty else { return "it is empty" }
        let text = Feed.plain(String(decoding: body.prefix(60), as: UTF8.self))
        return "it starts \(text.debugDescription)"
    }
}
