import ArgumentParser
import FlapCore
import FlapEndpoints
import FlapMCP
import FoundationEssentials

/// `flapctl calibrate`: shows a directly driven panel's module offsets, or sets one. An offset is
/// the steps from a module's home-sensor edge to flap 0; nudge by tenths of a flap until the
/// blank flap sits square, then it is saved in flapd's state directory.
struct CalibrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate", abstract: "Show or adjust the offsets of a directly driven panel's modules (spi, gpio).",
        discussion: HelpExamples.discussion("calibrate"))

    @OptionGroup var connection: ConnectionOptions

    @Option(help: "The panel.")
    var panel = "main"

    @Option(help: "The module's row (1-based).")
    var row: Int?

    @Option(help: "The module's column (1-based).")
    var column: Int?

    @Option(help: "Set the offset to this many steps.")
    var steps: Int?

    @Option(help: "Move the offset by this many tenths of a flap (negative: back).")
    var nudge: Int?

    @OptionGroup var answer: JSONAnswerOption

    func validate() throws {
        if steps != nil, nudge != nil { throw ValidationError("give --steps or --nudge, not both") }
        if (steps != nil || nudge != nil) != (row != nil && column != nil) {
            throw ValidationError("--row and --column go with --steps or --nudge")
        }
    }

    func run() async throws {
        let flapd = try connection.connection()
        let reply: FlapdConnection.Reply
        if let row, let column {
            let body = CalibrationRequest(row: row, column: column, offsetSteps: steps, nudgeTenths: nudge)
            reply = try await flapd.request(.calibrate, panel, json: try JSONEncoder().encode(body))
        } else {
            reply = try await flapd.request(.calibration, panel)
        }
        guard reply.status == 200 else { throw InputError(reply.error) }
        if answer.printed(reply) { return }
        let answer = reply.decoded(CalibrationAnswer.self)
        let columns = answer?.columns ?? 1
        let offsets = answer?.offsets ?? []
        print("panel \(panel): offsets in steps (\(answer?.stepsPerFlap ?? 0) steps a flap)")
        for start in stride(from: 0, to: offsets.count, by: max(1, columns)) {
            print(offsets[start..<min(offsets.count, start + columns)].map { String(cFormat: "%5ld", $0) }.joined(separator: " "))
        }
        if let row, let column { print("module at row \(row), column \(column) re-homes with its new offset") }
    }
}

/// `POST /v1/panels/{panel}/calibration`'s body: an offset to set, or a nudge from where it is.
struct CalibrationRequest: Encodable {
    var row: Int
    var column: Int
    var offsetSteps: Int?
    var nudgeTenths: Int?
}
