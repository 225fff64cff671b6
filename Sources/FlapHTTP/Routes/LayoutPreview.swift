import FlapCore
import FlapMessaging
import FlapJSON
import FoundationEssentials
import Hummingbird

/// `POST /v1/layout`: a message's text laid out by flapd itself, for a live preview: the rows of
/// codes with each as the board draws it, the substitutions made, or what is wrong and where.
/// Nothing is stored or shown.
struct LayoutPreviewAPI: RouteGroup {
    let boardSize: BoardSize
    /// What the first panel's flap 62 shows.
    let flap62: Flap62
    /// The panels, asked how long the flip to the preview would take.
    let panels: any PanelsQuery

    func add(to v1: AccessRoutes) {
        v1.post("layout", .household) { request, _ in
            guard let body = try await Responses.body(of: request, limit: Responses.maximumBody),
                let object = (try? JSONValue(parsing: body))?.object
            else {
                throw APIError(.badRequest, "send {\"text\": \"…\", \"align\": \"center\", \"valign\": \"middle\"}")
            }
            if let document = object["vbml"] {
                guard object["text"] == nil else { throw APIError(.badRequest, "give text or vbml, not both") }
                return try await vbmlPreview(document)
            }
            guard let text = object["text"]?.string else { throw APIError(.badRequest, "text: the text to lay out is missing (or give vbml)") }
            var options = LayoutOptions(size: boardSize)
            options.align = .center
            options.valign = .middle
            // As a message is laid out: what cannot be shown is replaced, with a warning.
            options.unsupported = .replace
            options.flap62 = flap62
            // Present with another type (null too) is a mistake to name, not a default to take.
            if let given = object["align"] {
                guard let value = given.string.flatMap(HorizontalAlignment.init(rawValue:)) else {
                    throw APIError(.badRequest, "align: \(Self.shown(given)) is not left, center, right or justified")
                }
                options.align = value
            }
            if let given = object["valign"] {
                guard let value = given.string.flatMap(VerticalAlignment.init(rawValue:)) else {
                    throw APIError(.badRequest, "valign: \(Self.shown(given)) is not top, middle or bottom")
                }
                options.valign = value
            }
            if let given = object["unsupported"] {
                guard let value = given.string.flatMap(UnsupportedCharacters.init(rawValue:)) else {
                    throw APIError(.badRequest, "unsupported: \(Self.shown(given)) is not replace or refuse")
                }
                options.unsupported = value
            }
            var strategy: TransitionStrategy?
            if let given = object["transition"] {
                guard let fields = given.object else {
                    throw APIError(.badRequest, "transition: must be an object such as {\"strategy\": \"cascade\"}")
                }
                if let name = fields["strategy"] {
                    guard let value = name.string.flatMap(TransitionStrategy.init(rawValue:)) else {
                        throw APIError(
                            .badRequest,
                            "transition.strategy: \(Self.shown(name)) is not one of \(TransitionStrategy.allCases.map(\.rawValue).joined(separator: ", "))"
                        )
                    }
                    strategy = value
                }
            }
            do {
                let laid = try TextLayout.encodeText(text, options: options)
                var board = try Board(size: BoardSize(rows: laid.rowCount, columns: laid.columns), codes: laid.codes)
                board.flap62 = flap62
                let flip = await panels.flipDuration(to: board, strategy: strategy)
                return Answer(
                    Preview(
                        codes: board.codeRows, text: board.lines, flap62: flap62,
                        warnings: laid.warnings.map(\.description),
                        flipSeconds: flip.map { ($0 / .seconds(1) * 10).rounded() / 10 }))
            } catch let error as LayoutError {
                return Answer(Preview(error: .init(reason: error.reason, line: error.line, position: error.position)))
            }
        }
    }

    /// A VBML document drawn at the board's size, as a message with it would be.
    func vbmlPreview(_ document: JSONValue) async throws(APIError) -> Answer<Preview> {
        guard document.object != nil else { throw APIError(.badRequest, "vbml: must be a VBML document, an object with \"components\"") }
        do throws(MessageErrors) {
            let board = try MessageRenderer(size: boardSize, flap62: flap62).board(vbml: document)
            let flip = await panels.flipDuration(to: board, strategy: nil)
            return Answer(
                Preview(
                    codes: board.codeRows, text: board.lines, flap62: flap62,
                    warnings: [], flipSeconds: flip.map { ($0 / .seconds(1) * 10).rounded() / 10 }))
        } catch {
            throw APIError(.badRequest, error.description, problems: error.problems.map { .init(field: $0.field, problem: $0.problem) })
        }
    }

    /// A JSON value as the sender wrote it, for an error message.
    static func shown(_ value: JSONValue) -> String {
        value.string?.debugDescription ?? value.text
    }
}

/// A layout preview: the board, or where the text cannot be laid out.
struct Preview: Encodable {
    struct Problem: Encodable {
        var reason: String
        /// 1-based line and code-point position in the text, when the problem is at one.
        var line: Int?
        var position: Int?
    }

    var codes: [[Int]]?
    /// Each row as characters, colour chips as their letters.
    var text: [String]?
    /// What code 62 shows on the board previewed (the first panel's): `heart` or `degree`.
    var flap62: Flap62?
    var warnings: [String] = []
    /// About how long the first panel would take to flip to it from what it shows now.
    var flipSeconds: Double?
    var error: Problem?
}
