import FlapCore
import FlapJSON
import FlapPrimitives
import FlapVBML

/// A message's content as a board of a given size.
public struct MessageRenderer: Sendable {
    /// The board's size.
    public var size: BoardSize

    /// A renderer for boards of `size`.
    public init(size: BoardSize) { self.size = size }

    /// Checks that `content` can be shown on boards of ``size``; returns layout warnings.
    public func validate(
        _ content: Content, align: HorizontalAlignment, valign: VerticalAlignment,
        unsupported: UnsupportedCharacters = .replace
    ) throws(MessageErrors) -> [String] {
        try render(content, align: align, valign: valign, unsupported: unsupported).1
    }

    /// The board a message shows.
    public func board(for message: Message) throws(MessageErrors) -> Board {
        try render(message.content, align: message.align, valign: message.valign, unsupported: message.unsupported ?? .replace).0
    }

    private func render(
        _ content: Content, align: HorizontalAlignment, valign: VerticalAlignment,
        unsupported: UnsupportedCharacters
    ) throws(MessageErrors) -> (Board, [String]) {
        switch content {
        case .text(let text):
            var options = LayoutOptions(size: size)
            options.align = align
            options.valign = valign
            options.unsupported = unsupported
            // A Note's code 62 is a heart, so the red heart is that flap there.
            options.noteHeart = size == .note
            do {
                let laid = try TextLayout.encodeText(text, options: options)
                return (laid.board!, laid.warnings.map(\.description))
            } catch {
                throw MessageErrors(field: "text", error.description)
            }
        case .codes(let rows):
            return (try grid(rows, field: "codes") { CharacterCode($0) }, [])
        case .pattern(let rows):
            return (try grid(rows, field: "pattern") { Self.colour(named: $0) }, [])
        case .vbml(let json):
            return (try vbml(json), [])
        }
    }

    /// A VBML document as the board shows it (a preview).
    public func board(vbml json: JSONValue) throws(MessageErrors) -> Board { try vbml(json) }

    /// A VBML document drawn at the board's size; its random colours seeded by the document
    /// itself, so the same message draws the same chips each time it is drawn.
    private func vbml(_ json: JSONValue) throws(MessageErrors) -> Board {
        do throws(VBMLProblem) {
            let document = try VBMLDocument(json: json)
            let rows = try VBMLRenderer.render(document, rows: size.rows, columns: size.columns, seed: FNV1a.hash(VBMLDocument.canonical(json)))
            guard let board = try? Board(codeRows: rows) else { throw VBMLProblem(path: "", message: "draws a code this board has no flap for") }
            return board
        } catch {
            throw MessageErrors(field: error.path.isEmpty ? "vbml" : "vbml." + error.path, error.message)
        }
    }

    private func grid<T>(_ rows: [[T]], field: String, code: (T) -> CharacterCode?) throws(MessageErrors) -> Board {
        var problems: [MessageErrors.Problem] = []
        if rows.count != size.rows {
            problems.append(.init(field: field, problem: "has \(rows.count) rows; the board has \(size.rows)"))
        }
        var board = Board(size: size)
        for (r, row) in rows.enumerated() {
            if row.count != size.columns {
                problems.append(.init(field: "\(field)[\(r)]", problem: "has \(row.count) columns; the board has \(size.columns)"))
                continue
            }
            for (c, cell) in row.enumerated() {
                guard let value = code(cell) else {
                    let what =
                        field == "codes"
                        ? "\(cell) is not a Vestaboard character code"
                        : "\(cell) is not a colour (red orange yellow green blue violet white black filled blank)"
                    problems.append(.init(field: "\(field)[\(r)][\(c)]", problem: what))
                    continue
                }
                if r < size.rows { board[r, c] = value }
            }
        }
        guard problems.isEmpty else { throw MessageErrors(problems) }
        return board
    }

    static func colour(named name: String) -> CharacterCode? {
        if name == "blank" { return .blank }
        return Colour.allCases.first { $0.name == name }?.code
    }
}
