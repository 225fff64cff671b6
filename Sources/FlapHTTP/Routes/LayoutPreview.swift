import FlapCore
import FlapEndpoints
import FlapJSON
import FlapMessaging
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
        v1.on(.layout, .household) { request, _ in
            guard let body = try await Responses.body(of: request, limit: Responses.maximumBody),
                let object = (try? JSONValue(parsing: body))?.object
            else {
                throw APIError(.badRequest, "send {\"text\": \"…\", \"align\": \"center\", \"valign\": \"middle\"}")
            }
            let target = try await panel(object["panel"])
            if let document = object["vbml"] {
                guard object["text"] == nil else { throw APIError(.badRequest, "give text or vbml, not both") }
                return try await vbmlPreview(document, for: target)
            }
            guard let text = object["text"]?.string else { throw APIError(.badRequest, "text: the text to lay out is missing (or give vbml)") }
            let (boardSize, flap62) = (target.size, target.flap62)
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
                let (shown, lacking) = target.shown(board)
                let flip = target.isFirst ? await panels.flipDuration(to: board, strategy: strategy) : nil
                return Answer(
                    Preview(
                        codes: shown.codeRows, text: shown.lines, flap62: target.previewFlap62,
                        warnings: laid.warnings.map(\.description) + lacking,
                        flipSeconds: flip.map { ($0 / .seconds(1) * 10).rounded() / 10 }))
            } catch let error as LayoutError {
                return Answer(Preview(error: .init(reason: error.reason, line: error.line, position: error.position)))
            }
        }
    }

    /// A VBML document drawn at the panel's size, as a message with it would be.
    func vbmlPreview(_ document: JSONValue, for target: Target) async throws(APIError) -> Answer<Preview> {
        guard document.object != nil else { throw APIError(.badRequest, "vbml: must be a VBML document, an object with \"components\"") }
        do throws(MessageErrors) {
            let board = try MessageRenderer(size: target.size, flap62: target.flap62).board(vbml: document)
            let (shown, lacking) = target.shown(board)
            let flip = target.isFirst ? await panels.flipDuration(to: board, strategy: nil) : nil
            return Answer(
                Preview(
                    codes: shown.codeRows, text: shown.lines, flap62: target.previewFlap62,
                    warnings: lacking, flipSeconds: flip.map { ($0 / .seconds(1) * 10).rounded() / 10 }))
        } catch {
            throw APIError(.badRequest, error.description, problems: error.problems.map { .init(field: $0.field, problem: $0.problem) })
        }
    }

    /// The panel a preview is for: its size, flap 62 and flaps.
    struct Target {
        var size: BoardSize
        var flap62: Flap62
        var flaps: Drum?
        var moduleFlaps: [Drum]? = nil
        var isFirst: Bool

        /// `board` as its modules show it, and a warning for each character they lack.
        func shown(_ board: Board) -> (Board, [String]) { flaps?.shown(board, moduleDrums: moduleFlaps) ?? (board, []) }

        /// Flap 62 as the preview reports it: left out when the modules have none.
        var previewFlap62: Flap62? { flaps?.hasFlap62 == false ? nil : flap62 }
    }

    /// `panel` (an id), else the first panel; one that is not here is refused naming those that are.
    private func panel(_ asked: JSONValue?) async throws(APIError) -> Target {
        let all = await panels.panels()
        if let asked {
            guard let id = asked.string else { throw APIError(.badRequest, "panel: must be a panel's id, such as \"main\"") }
            guard let index = all.firstIndex(where: { $0.id == id }) else {
                throw APIError(.badRequest, "panel: no panel \(id) here; the panels are \(all.map(\.id).joined(separator: ", "))")
            }
            return Target(
                size: all[index].board.size, flap62: all[index].board.flap62, flaps: all[index].flaps, moduleFlaps: all[index].moduleFlaps,
                isFirst: index == 0)
        }
        return Target(size: boardSize, flap62: flap62, flaps: all.first?.flaps, moduleFlaps: all.first?.moduleFlaps, isFirst: true)
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
    /// What code 62 shows on the board previewed (the panel's): `heart` or `degree`; nil when
    /// its modules have no flap 62.
    var flap62: Flap62?
    var warnings: [String] = []
    /// About how long the first panel would take to flip to it from what it shows now.
    var flipSeconds: Double?
    var error: Problem?
}
