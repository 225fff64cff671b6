import ArgumentParser
import FlapEndpoints
import FlapJSON
import FoundationEssentials

/// `flapctl modules check`: every module of a wall runs its own tests, one module after another
/// with progress on stderr, and what a test finds wrong is said by row and column. The tests are
/// the modules' own (Universal Firmware's), declared by the panel's driver and sent through flapd,
/// which keeps the bus.
struct ModulesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "modules",
        abstract:
            "Check every module of an RS-485 wall (Universal Firmware) by its own tests, number new modules from where they hang, or find an SBB wall's by address.",
        discussion: HelpExamples.discussion("modules"),
        subcommands: [Check.self, Number.self, Find.self])

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract:
                "Run each module's Hall sensor test and health snapshot (and its motor test with --motor), and say what is wrong by row and column; exit status 1 when something is."
        )

        @OptionGroup var connection: ConnectionOptions

        @Option(help: "The panel.")
        var panel = "main"

        @Option(help: "Also run the motor test, this many turns (5 to 20, about 4 s each).")
        var motor: Int?

        func validate() throws {
            if let motor, !(5...20).contains(motor) { throw ValidationError("--motor takes 5 to 20 turns, not \(motor)") }
        }

        func run() async throws {
            let flapd = try connection.connection()
            let listed = try await flapd.request(.moduleCommands, panel)
            guard listed.status == 200 else { throw InputError(listed.error) }
            let declared = Set((listed.decoded(DeclaredModuleCommands.self)?.commands ?? []).map(\.name))
            guard declared.isSuperset(of: ["hall-test", "diagnostics"]) else {
                throw InputError("the modules of panel \(panel) have no tests of their own: Universal Firmware's modules have")
            }
            let board = try await flapd.expect(.board)
            guard let size = board.decoded(PanelSizes.self)?.panels.first(where: { $0.id == panel }) else {
                throw InputError("flapd has no panel \(panel)")
            }
            var tests: [JSONValue] = [.object(["command": "hall-test"]), .object(["command": "diagnostics"])]
            if let motor { tests.append(.object(["command": "motor-test", "turns": JSONValue(motor)])) }
            let count = size.rows * size.columns
            var (troubled, untested) = (0, 0)
            for row in 1...size.rows {
                for column in 1...size.columns {
                    let place = "row \(row), column \(column)"
                    StandardStream.writeError("checking \(place) (\((row - 1) * size.columns + column) of \(count))…\n")
                    switch try await check(flapd, tests, row: row, column: column) {
                    case .checked(let findings):
                        for finding in findings { print("\(place): \(finding)") }
                        if !findings.isEmpty { troubled += 1 }
                    case .cannotTestItself(let why):
                        print("\(place): not checked: \(why)")
                        untested += 1
                    }
                }
            }
            let checked = count - untested
            print(
                (troubled == 0 ? "\(checked) modules checked: all well" : "\(checked) modules checked: \(troubled) with something wrong")
                    + (untested == 0 ? "" : "; \(untested) cannot test \(untested == 1 ? "itself" : "themselves") (firmware v7)"))
            if troubled > 0 { throw ExitCode(1) }
        }

        /// What a module's check came to.
        private enum Outcome {
            /// What its tests found wrong (nothing: all well).
            case checked([String])
            /// Its firmware has no tests of its own, and why, as flapd said it.
            case cannotTestItself(String)
        }

        /// What `tests` find wrong with the module at `row`, `column`; a module that does not
        /// answer says so and is asked nothing more.
        private func check(_ flapd: FlapdConnection, _ tests: [JSONValue], row: Int, column: Int) async throws -> Outcome {
            var findings: [String] = []
            for test in tests {
                guard case .object(var body) = test else { continue }
                body["row"] = JSONValue(row)
                body["column"] = JSONValue(column)
                let reply = try await flapd.request(
                    Endpoint.moduleCommand.request(panel), json: Data(JSONValue.object(body).text.utf8), timeout: .seconds(120))
                guard reply.status == 200 else {
                    if reply.status == 504 { return .checked(findings + ["it did not answer: is it on the bus, and is its ID in the panel's ids?"]) }
                    if reply.status == 422 { return .cannotTestItself(reply.error) }
                    throw InputError(reply.error)
                }
                findings += reply.decoded(ModuleFindings.self)?.findings ?? []
            }
            return .checked(findings)
        }
    }
}

/// `GET /v1/board`'s panels, by their sizes.
private struct PanelSizes: Decodable {
    struct Panel: Decodable {
        var id: String
        var rows: Int
        var columns: Int
    }
    var panels: [Panel]
}

/// What a module test answered, as far as a check reads it.
private struct ModuleFindings: Decodable {
    var findings: [String]?
}
