import ArgumentParser
import FlapCore
import FlapEndpoints
import FlapMCP
import FoundationEssentials

/// `flapctl board`: what each panel shows now.
struct BoardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "board", abstract: "Show what flapd's panels show now.",
        discussion: HelpExamples.discussion("board"))

    @OptionGroup var connection: ConnectionOptions

    @OptionGroup var answer: JSONAnswerOption

    func run() async throws {
        let reply = try await connection.connection().request(.board)
        if answer.printed(reply) { return }
        for panel in reply.decoded(BoardAnswer.self)?.panels ?? [] {
            let moving = panel.moving == true ? " (moving)" : ""
            print("panel \(panel.id ?? "?")\(moving), message \(panel.message ?? "none")")
            if let rows = panel.codes, var board = try? Board(codeRows: rows) {
                board.flap62 = panel.flap62 ?? board.flap62
                StandardStream.writeTerminalCodes(BoardText.plain(board, colour: StandardStream.outputHasColour) + "\n")
            }
        }
    }
}
