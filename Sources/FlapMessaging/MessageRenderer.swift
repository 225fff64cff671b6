import FlapCore
import FlapJSON
import FlapPrimitives
import FlapVBML

/// A message's content as a board of a given size.
public struct MessageRenderer: Sendable {
    /// The board's size.
    public var size: BoardSize
    /// What the board's flap 62 shows (``LayoutOptions/flap62``).
    public var flap62: Flap62
    /// The panel's flaps; nil: every code of the board.
    public var drum: Drum?
    /// Each module's own flaps, row-major, where some differ from ``drum``.
    public var moduleDrums: [Drum]?

    /// A renderer for boards of `size` whose flap 62 is `flap62` (by default as a board of that
    /// size has it), shown by modules of `drum`.
    public init(size: BoardSize, flap62: Flap62? = nil, drum: Drum? = nil, moduleDrums: [Drum]? = nil) {
        self.moduleDrums = moduleDrums
        self.size = size
        self.flap62 = flap62 ?? Flap62(defaultFor: size)
        self.drum = drum
    }

    /// Checks that `content` can be shown on boards of ``size``; returns layout warnings, and a
    /// warning for each character the panel's drum lacks, whatever the content (text, codes,
    /// pattern or VBML).
    public func validate(
        _ content: Content, align: HorizontalAlignment, valign: VerticalAlignment,
        unsupported: UnsupportedCharacters = .replace
    ) throws(MessageErrors) -> [String] {
        var (board, warnings) = try render(content, align: align, valign: valign, unsupported: unsupported)
        guard let drum else { return warnings }
        board.flap62 = flap62
        return warnings + drum.shown(board, moduleDrums: moduleDrums).warnings
    }

    /// What the panel's drum lacks of `content` laid out at ``size`` (one warning a character);
    /// none when there is no drum or the content cannot be laid out at this size.
    public func lacks(
        _ content: Content, align: HorizontalAlignment, valign: VerticalAlignment, unsupported: UnsupportedCharacters = .replace
    ) -> [String] {
        guard let drum, var board = try? render(content, align: align, valign: valign, unsupported: unsupported).0 else { return [] }
        board.flap62 = flap62
        return drum.shown(board, moduleDrums: moduleDrums).warnings
    }

    /// The board a message shows.
    public func board(for message: Message) throws(MessageErrors) -> Board {
        var board = try render(message.content, align: message.align, valign: message.valign, unsupported: message.unsupported ?? .replace).0
        board.flap62 = flap62
        return board
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
            // Where code 62 is a heart, the red heart is that flap, and `°` is not shown.
            options.flap62 = flap62
            let laid: LaidOutText
            do {
                laid = try TextLayout.encodeText(text, options: options)
            } catch {
                throw MessageErrors(field: "text", error.description)
            }
            guard let board = laid.board else { throw MessageErrors(field: "text", "cannot be laid out") }
            return (board, laid.warnings.map(\.description))
        case .codes(let rows):
            return (try grid(rows, field: "codes") { CharacterCode($0) }, [])
        case .pattern(let rows):
            return (try grid(rows, field: "pattern") { Self.colour(named: $0) }, [])
        case .vbml(let json):
            return (try vbml(json), [])
        }
    }

    /// A VBML document as the board shows it (a preview).
    public func board(vbml json: JSONValue) throws(MessageErrors) -> Board {
        var board = try vbml(json)
        board.flap62 = flap62
        return board
    }

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
