import ArgumentParser
import FlapCore
import FoundationEssentials

extension HorizontalAlignment: ExpressibleByArgument {}
extension TransitionStrategy: ExpressibleByArgument {}

/// The text-layout options every command that lays out text takes.
struct LayoutArguments: ParsableArguments {
    @Option(help: "Horizontal alignment: left, center, right or justified.")
    var align: HorizontalAlignment = .left

    @Option(help: "Vertical alignment: top, middle, bottom, or none (never add rows).")
    var valign: String = "top"

    @Option(help: "Columns left free on each side.")
    var margin: Int = 0

    @Option(help: "Code that fills space the text leaves (a number, or a colour name such as red).")
    var fill: String = "0"

    @Option(help: "Codes at which long lines may break, comma-separated.")
    var breaks: String = "0"

    @Option(help: "Board size: flagship (6x22), note (3x15), or ROWSxCOLUMNS.")
    var size: String?

    @Option(help: "Rows on the board (text beyond them is cut, with a warning). Overrides --size.")
    var rows: Int?

    @Option(help: "Columns on the board. Overrides --size.")
    var columns: Int?

    @Flag(help: "Reject characters the board lacks instead of substituting them (as vesta does).")
    var noSubstitutions = false

    /// The board size these options describe.
    /// What `options()` gives when no option is named (a test holds the two together).
    static let defaultOptions: LayoutOptions = {
        var options = LayoutOptions(size: .flagship)
        options.align = .left
        options.valign = .top
        options.margin = 0
        options.fill = .blank
        options.breaks = [.blank]
        options.substitutions = true
        return options
    }()

    func boardSize() throws -> BoardSize {
        var size = BoardSize.flagship
        if let name = self.size {
            guard let named = BoardSize(name: name) else {
                throw InputError("--size \(name): give flagship, note, or ROWSxCOLUMNS such as 6x22")
            }
            size = named
        }
        if let rows { size.rows = rows }
        if let columns { size.columns = columns }
        guard size.rows >= 1, size.columns >= 1 else { throw InputError("the board needs at least 1 row and 1 column, not \(size)") }
        return size
    }

    func options() throws -> LayoutOptions {
        var options = LayoutOptions(size: try boardSize())
        options.align = align
        options.valign = try Self.verticalAlignment(valign)
        options.margin = margin
        options.fill = try Self.code(fill, option: "--fill")
        options.breaks = Set(try breaks.split(separator: ",").map { try Self.code(String($0), option: "--breaks") })
        options.substitutions = !noSubstitutions
        return options
    }

    /// Lays out `text` as vesta would (rows as the options give them), printing warnings to stderr.
    func layOut(_ text: String) throws -> LaidOutText {
        let result: LaidOutText
        do {
            result = try TextLayout.encodeText(text, options: try options())
        } catch let error as LayoutError {
            throw InputError(error.description)
        }
        for warning in result.warnings { StandardStream.writeError("warning: \(warning)\n") }
        return result
    }

    /// `text` as a whole board, for planning: rows that valign none or an unlimited row count
    /// leave missing are filled, so the board always has the size the options give.
    func board(_ text: String) throws -> Board {
        let options = try options()
        var rows = try layOut(text).rows
        let wanted = max(options.maxRows, 1)
        if rows.count > wanted { rows.removeLast(rows.count - wanted) }
        while rows.count < wanted { rows.append(Array(repeating: options.fill, count: options.columns)) }
        return try Board(rows: rows)
    }

    static func verticalAlignment(_ text: String?) throws(InputError) -> VerticalAlignment? {
        guard let text, text != "none" else { return nil }
        // Compared with each name rather than through init(rawValue:): the --jsonl requests'
        // fast path reads one of these per request.
        guard let valign = VerticalAlignment.allCases.first(where: { $0.rawValue == text }) else {
            throw InputError("valign \(text): give top, middle, bottom or none")
        }
        return valign
    }

    /// A code given as a number or a colour name.
    static func code(_ text: String, option: String) throws(InputError) -> CharacterCode {
        let trimmed = text.trimmed
        let lowercased = trimmed.lowercased()
        if let colour = Colour.allCases.first(where: { $0.name == lowercased }) { return colour.code }
        if trimmed == "blank" { return .blank }
        guard let value = Int(trimmed), let code = CharacterCode(value) else {
            throw InputError("\(option) \(text): not a Vestaboard character code (0–71 less 43, 45, 51, 57, 58, 61) or colour name")
        }
        return code
    }
}
