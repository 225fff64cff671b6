import ArgumentParser
import FlapCore

/// `flapctl layout`: text to a board of codes, or a stream of JSON requests to answers.
struct LayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Lay out text as a board of character codes (compatible with vesta's encode_text).",
        discussion: HelpExamples.discussion(
            "layout",
            """
            Prints a framed grid by default (colour chips as r o y g b p w k f), the rows of codes \
            with --json. With --jsonl, reads one JSON request per line on stdin \
            ({"text", "align", "valign", "margin", "fill", "maxRows", "columns", "breaks", "substitutions"}) \
            and writes one JSON answer per line: {"rows", "warnings"} or {"error", "line", "position", "request"}. \
            Text that cannot be laid out exits with status 2 and the reason on stderr.
            """))

    @OptionGroup var layout: LayoutArguments

    @Flag(help: "Print the rows of codes as JSON.")
    var json = false

    @Flag(help: "Answer JSON requests read line by line from stdin.")
    var jsonl = false

    @Argument(help: "The text; {nn} gives a code directly; a line break (in bash: $'ONE\\nTWO') starts a row.")
    var text: String?

    func validate() throws {
        if jsonl, text != nil { throw ValidationError("--jsonl reads its requests from stdin; give no TEXT") }
        if !jsonl, text == nil { throw ValidationError("give the TEXT to lay out (or --jsonl)") }
    }

    func run() throws {
        if jsonl {
            LayoutJSONLines(defaults: try layout.options()).run()
            return
        }
        guard let text else { throw ValidationError("give the TEXT to lay out (or --jsonl)") }
        let laid = try layout.layOut(text)
        let out = StandardStream.bufferedOutput()
        if json {
            var text = JSONText()
            text.rows(laid)
            out.write(bytes: text.bytes)
            out.write("\n")
        } else if let board = laid.board {
            out.writeTerminalCodes(BoardText.plain(board, colour: StandardStream.outputHasColour) + "\n")
        } else {
            out.write("(no rows: the text is empty and --valign is none)\n")
        }
        out.flush()
    }
}
