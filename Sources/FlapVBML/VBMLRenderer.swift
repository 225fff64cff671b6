import FlapJSON
import FlapPrimitives

/// A VBML document drawn as Vestaboard's renderer draws it: each component laid out in its own
/// box, the boxes flowed left to right and down the board, absolute ones placed over them, then
/// calendars over everything.
public enum VBMLRenderer {
    /// Vestaboard's Flagship, the size of a document that gives none.
    public static let flagship = (rows: 6, columns: 22)

    /// The board's codes, `rows` × `columns` (the document's own size when nil, or the
    /// Flagship's). A document written for a larger board is refused; a smaller one is drawn at
    /// the top left. `seed` chooses random colours.
    public static func render(_ document: VBMLDocument, rows: Int? = nil, columns: Int? = nil, seed: UInt64 = 0) throws(VBMLProblem) -> [[Int]] {
        let height = document.height ?? rows ?? flagship.rows
        let width = document.width ?? columns ?? flagship.columns
        if let rows, height > rows { throw VBMLProblem(path: "style.height", message: "\(height) is taller than the board (\(rows))") }
        if let columns, width > columns { throw VBMLProblem(path: "style.width", message: "\(width) is wider than the board (\(columns))") }
        var random = SeededRandom(seed: seed)
        var flowing: [[[Int]]] = []
        var placed: [(codes: [[Int]], x: Int, y: Int)] = []
        var calendars: [(codes: [[Int]], x: Int)] = []
        for (index, component) in document.components.enumerated() {
            do throws(VBMLProblem) {
                if let w = component.style.width, w > width {
                    throw VBMLProblem(path: "style.width", message: "\(w) is wider than the board (\(width))")
                }
                if let h = component.style.height, h > height {
                    throw VBMLProblem(path: "style.height", message: "\(h) is taller than the board (\(height))")
                }
                if case .calendar(let calendar) = component.content {
                    calendars.append((calendar.rows(), component.style.absolutePosition?.x ?? 0))
                }
                guard let position = component.style.absolutePosition else {
                    // A calendar without a position also takes a blank box in the flow, as there.
                    flowing.append(try codes(of: component, height: height, width: width, props: document.props, random: &random))
                    continue
                }
                if case .calendar = component.content { continue }
                placed.append(
                    (try codes(of: component, height: height, width: width, props: document.props, random: &random), position.x, position.y))
            } catch {
                throw error.at("components[\(index)]")
            }
        }
        var board = [[Int]](repeating: [Int](repeating: 0, count: width), count: height)
        lay(flowing, placed, calendars, on: &board)
        guard let rows, let columns, rows > height || columns > width else { return board }
        var panel = [[Int]](repeating: [Int](repeating: 0, count: columns), count: rows)
        for (r, row) in board.enumerated() { panel[r].replaceSubrange(0..<row.count, with: row) }
        return panel
    }

    /// One component's box.
    static func codes(
        of component: VBMLComponent, height defaultHeight: Int, width defaultWidth: Int, props: JSONValue,
        random: inout SeededRandom
    ) throws(VBMLProblem) -> [[Int]] {
        let width = component.style.width ?? defaultWidth
        let height = component.style.height ?? defaultHeight
        switch component.content {
        case .rawCharacters(let rows):
            guard !rows.isEmpty else { throw VBMLProblem(path: "rawCharacters", message: "must have at least one row") }
            return rows
        case .rawCharactersTemplate(let text):
            return try rawCharacters(text, props: props)
        case .randomColors(let colours):
            let choices = colours ?? Array(63...70)
            return (0..<height).map { _ in (0..<width).map { _ in choices[Int(random.next() % UInt64(choices.count))] } }
        case .calendar:
            return [[Int]](repeating: [Int](repeating: 0, count: width), count: height)
        case .template(let template):
            let filled: String
            do { filled = try Mustache.render(VBMLCharacters.replacingEmoji(template), props: props) } catch {
                throw VBMLProblem(path: "template", message: error.description)
            }
            let text = VBMLCharacters.sanitized(Array(filled.utf16))
            let lines: [[Int?]]
            do { lines = try VBMLText.lines(VBMLText.words(text, width: width), width: width).map(VBMLText.codes) } catch {
                throw VBMLProblem(path: "template", message: error.message)
            }
            let aligned = VBMLAlignment.horizontal(
                VBMLAlignment.vertical(lines, height: height, align: component.style.align),
                width: width, justify: component.style.justify)
            return (0..<height).map { r in
                (0..<width).map { c in aligned.indices.contains(r) && aligned[r].indices.contains(c) ? (aligned[r][c] ?? 0) : 0 }
            }
        }
    }

    /// `rawCharacters` given as text: one prop naming rows of codes, or JSON after the props are
    /// filled in; anything else is one empty row, as there.
    static func rawCharacters(_ text: String, props: JSONValue) throws(VBMLProblem) -> [[Int]] {
        let trimmed = text.utf16
        if text.hasPrefix("{{"), text.hasSuffix("}}"), trimmed.count > 4 {
            let name = String(text.dropFirst(2).dropLast(2))
            if name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), let rows = props[name]?.array, rows.first?.array != nil {
                return try VBMLDocument.codeRows(.array(rows), path: "rawCharacters")
            }
        }
        guard let filled = try? Mustache.render(text, props: props), let json = try? JSONValue(parsing: Array(filled.utf8)) else { return [[]] }
        return try VBMLDocument.codeRows(json, path: "rawCharacters")
    }

    /// The boxes on the board: flowing ones left to right, to the next line of boxes when one
    /// would pass the right edge; placed ones at their positions; calendars over everything
    /// (their first 13 columns). Whatever passes the board's edges is cut.
    static func lay(
        _ flowing: [[[Int]]], _ placed: [(codes: [[Int]], x: Int, y: Int)], _ calendars: [(codes: [[Int]], x: Int)], on board: inout [[Int]]
    ) {
        let height = board.count, width = board.first?.count ?? 0
        var top = 0, left = 0, rowHeight = 0
        for box in flowing {
            let boxWidth = box.first?.count ?? 0
            let newLine = left + boxWidth > width
            let x = newLine ? 0 : left
            let y = newLine ? top + rowHeight : top
            for (r, row) in box.enumerated() where r + y < height {
                for (c, code) in row.enumerated() where c + x < width { board[r + y][c + x] = code }
            }
            top = y
            left = x + boxWidth
            rowHeight = box.count
        }
        for box in placed {
            for (r, row) in box.codes.enumerated() where box.y + r < height {
                for (c, code) in row.enumerated() where box.x + c < width { board[r + box.y][c + box.x] = code }
            }
        }
        for calendar in calendars {
            for (r, row) in calendar.codes.enumerated() where r < height {
                for (c, code) in row.enumerated() where calendar.x + c < width && c <= 12 { board[r][c + calendar.x] = code }
            }
        }
    }
}
