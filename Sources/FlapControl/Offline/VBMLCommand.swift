import ArgumentParser
import FlapJSON
import FlapVBML
import FoundationEssentials

/// `flapctl vbml`: a VBML document on standard input drawn as Vestaboard's renderer draws it,
/// `{"rows": [[…]]}` on standard output; a document it refuses is `{"error": …}` and status 2.
/// `--jsonl` answers one document a line, in order, and never stops at a bad one: how a
/// conformance run reaches the renderer.
struct VBMLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vbml", abstract: "Draw a VBML document (Vestaboard's markup) from standard input as rows of codes.",
        discussion: HelpExamples.discussion("vbml"))

    @Flag(help: "Read one document a line and answer each on its own line, in order.")
    var jsonl = false

    @Option(
        help: "The board: ROWSxCOLUMNS, flagship (6x22) or note (3x15); a document's own style may be smaller (default: the document's, else 6x22).")
    var size: String?

    func run() throws {
        let board = try size.map(Self.board)
        if jsonl {
            let out = StandardStream.bufferedOutput()
            InputLines.forEach { line in
                let answer = Self.answer(Array(line), board: board)
                out.write(bytes: Array((answer.text + "\n").utf8))
            }
            out.flush()
            return
        }
        var input: [UInt8] = []
        InputLines.forEach { line in
            input += line
            input.append(0x0A)
        }
        let answer = Self.answer(input, board: board)
        StandardStream.writeOutput(answer.text + "\n")
        if answer.refused { throw ExitCode(2) }
    }

    /// The answer to one document's bytes.
    static func answer(_ bytes: [UInt8], board: (rows: Int, columns: Int)?) -> (text: String, refused: Bool) {
        func refusal(_ message: String) -> (String, Bool) {
            (String(decoding: try! JSONEncoder().encode(["error": message]), as: UTF8.self), true)
        }
        guard let json = try? JSONValue(parsing: bytes) else { return refusal("not a JSON document") }
        do throws(VBMLProblem) {
            let rows = try VBMLRenderer.render(try VBMLDocument(json: json), rows: board?.rows, columns: board?.columns)
            return (String(decoding: try! JSONEncoder().encode(["rows": rows]), as: UTF8.self), false)
        } catch {
            return refusal(error.description)
        }
    }

    static func board(_ text: String) throws -> (rows: Int, columns: Int) {
        switch text.lowercased() {
        case "flagship": return (6, 22)
        case "note": return (3, 15)
        default:
            let parts = text.lowercased().split(separator: "x")
            guard parts.count == 2, let rows = Int(parts[0]), let columns = Int(parts[1]), rows > 0, columns > 0 else {
                throw InputError("--size \(text): give ROWSxCOLUMNS (6x22), flagship or note")
            }
            return (rows, columns)
        }
    }
}
