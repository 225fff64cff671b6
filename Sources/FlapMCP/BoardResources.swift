import FlapCore
import FlapEndpoints
import FlapJSON
import FlapPictures
import FoundationEssentials

/// The board as resources an assistant can read or attach: every panel as text, and each as a
/// PNG picture.
enum BoardResources {
    static let text = "flapd://board.txt"
    static let picture = "flapd://board.png"

    /// `resources/list`: the text, the first panel's picture, and each panel's when there are several.
    static func list(api: any FlapdAPI) async throws -> JSONValue {
        var resources: [JSONValue] = [
            [
                "uri": .string(text), "name": "board.txt", "title": "The board as text", "mimeType": "text/plain",
                "description": "What every panel shows now, a row per line between bars; colour chips as letters."
            ],
            [
                "uri": .string(picture), "name": "board.png", "title": "The board as a picture", "mimeType": "image/png",
                "description": "The first panel drawn as on a screen."
            ]
        ]
        let panels = try await self.panels(api)
        if panels.count > 1 {
            resources += panels.map { panel in
                [
                    "uri": .string("flapd://board/\(panel.id.pathSegment).png"), "name": .string("\(panel.id).png"),
                    "title": .string("Panel \(panel.id) as a picture"), "mimeType": "image/png"
                ]
            }
        }
        return ["resources": .array(resources)]
    }

    /// Whether `uri` names a resource there is now (the text, the picture, or a panel's picture):
    /// a subscription to anything else is refused, so a session holds a few, not any number.
    static func exists(_ uri: String, api: any FlapdAPI) async throws -> Bool {
        if uri == text || uri == picture { return true }
        guard uri.hasPrefix("flapd://board/") else { return false }
        return try await panels(api).contains { uri == "flapd://board/\($0.id.pathSegment).png" }
    }

    /// `resources/read`; nil for a URI that names nothing.
    static func read(_ uri: String, api: any FlapdAPI) async throws -> JSONValue? {
        let panels = try await self.panels(api)
        if uri == text {
            let lines = panels.map { JSONValue.panelText($0.json) }.joined(separator: "\n")
            return ["contents": [["uri": .string(uri), "mimeType": "text/plain", "text": .string(lines)]]]
        }
        let chosen: Panel?
        if uri == picture {
            chosen = panels.first
        } else {
            chosen = panels.first { uri == "flapd://board/\($0.id.pathSegment).png" }
        }
        guard let chosen else { return nil }
        let png = try BoardPNG.encode(chosen.board)
        return ["contents": [["uri": .string(uri), "mimeType": "image/png", "blob": .string(Data(png).base64EncodedString())]]]
    }

    /// A panel as the API answered it, and its board.
    struct Panel {
        var json: JSONValue
        var id: String
        var board: Board
    }

    private static func panels(_ api: any FlapdAPI) async throws -> [Panel] {
        let answer = try await api.send(.board)
        guard answer.status == 200, let panels = answer.json?["panels"]?.array else { throw ResourceError(answer.refusal) }
        return try panels.map { panel in
            let rows = (panel["codes"]?.array ?? []).map { ($0.array ?? []).compactMap(\.int) }
            var board = try Board(codeRows: rows)
            board.flap62 = panel["flap62"]?.string.flatMap(Flap62.init(rawValue:)) ?? board.flap62
            return Panel(json: panel, id: panel["id"]?.string ?? "?", board: board)
        }
    }
}

/// The board could not be read for a resource.
struct ResourceError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
