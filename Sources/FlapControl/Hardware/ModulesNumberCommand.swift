import ArgumentParser
import FlapEndpoints
import FlapJSON
import FoundationEssentials

extension ModulesCommand {
    /// `flapctl modules number`: a wall of Universal Firmware's modules numbered from where they
    /// hang. flapd asks each place who answers, listens for the modules with no ID, and makes
    /// each in turn show `?`; the owner types where it hangs, and it takes that place's ID.
    struct Number: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "number",
            abstract:
                "Number the modules with no ID from where they hang: each shows ?, you type its row and column; exit status 1 while a place has no module."
        )

        @OptionGroup var connection: ConnectionOptions

        @Option(help: "The panel.")
        var panel = "main"

        @Option(help: "Seconds to listen for modules with no ID after the last one heard (they announce themselves every 10 to 15 s).")
        var wait = 45

        func validate() throws {
            if !(5...600).contains(wait) { throw ValidationError("--wait is 5 to 600 seconds, not \(wait)") }
        }

        func run() async throws {
            let flapd = try connection.connection()
            var numbering = try await state(flapd, query: [("ask", "true")])
            let answering = numbering.places.filter(\.answered).count
            print("\(answering) of \(numbering.places.count) places answer")
            numbering = try await listen(flapd, from: numbering)
            for serial in numbering.unplaced.map(\.serial) where !numbering.complete {
                numbering = try await post(flapd, .markModule, ["serial": .string(serial)])
                guard let (row, column) = ask("module \(serial) shows ?: where does it hang? ROW,COLUMN (empty: not on this wall) ") else { continue }
                numbering = try await post(flapd, .placeModule, ["serial": .string(serial), "row": JSONValue(row), "column": JSONValue(column)])
                let id = numbering.places.first { $0.row == row && $0.column == column }?.id ?? 0
                print("row \(row), column \(column): module \(serial) answers as \(id)")
            }
            if numbering.complete {
                print("every place answers: the wall shows READY")
                return
            }
            let empty = numbering.places.filter { !$0.answered }.map { "row \($0.row), column \($0.column)" }
            print("\(empty.count) place\(empty.count == 1 ? "" : "s") with no module: \(empty.joined(separator: "; "))")
            throw ExitCode(1)
        }

        /// Listens until as many modules with no place are heard as places have none, or until
        /// `wait` seconds pass with no new one.
        private func listen(_ flapd: FlapdConnection, from start: Numbering) async throws -> Numbering {
            var numbering = start
            var quietSince = ContinuousClock.now
            var heard = numbering.unplaced.count
            while !numbering.complete {
                let empty = numbering.places.filter { !$0.answered }.count
                if numbering.unplaced.count >= empty || ContinuousClock.now - quietSince > .seconds(wait) { break }
                StandardStream.writeError("listening for modules with no ID: \(numbering.unplaced.count) heard, \(empty) places to number…\n")
                try await Task.sleep(for: .seconds(2))
                numbering = try await state(flapd)
                if numbering.unplaced.count > heard {
                    heard = numbering.unplaced.count
                    quietSince = ContinuousClock.now
                }
            }
            return numbering
        }

        /// A place typed as `ROW,COLUMN` (or with a space), nil for an empty line or the input's end.
        private func ask(_ prompt: String) -> (Int, Int)? {
            while true {
                StandardStream.writeOutput(prompt)
                guard let line = readLine(), !line.allSatisfy(\.isWhitespace) else { return nil }
                let numbers = line.split(whereSeparator: { $0 == "," || $0.isWhitespace }).compactMap { Int($0) }
                if numbers.count == 2 { return (numbers[0], numbers[1]) }
                StandardStream.writeOutput("\(line.debugDescription) is not ROW,COLUMN (such as 2,5)\n")
            }
        }

        private func state(_ flapd: FlapdConnection, query: [(String, String)] = []) async throws -> Numbering {
            // Asking waits for the wall to be home (flapd homes it as it starts), then a moment a place.
            let reply = try await flapd.request(Endpoint.numbering.request([panel], query: query), timeout: .seconds(120))
            guard reply.status == 200, let numbering = reply.decoded(Numbering.self) else { throw InputError(reply.error) }
            return numbering
        }

        private func post(_ flapd: FlapdConnection, _ endpoint: Endpoint, _ body: [String: JSONValue]) async throws -> Numbering {
            let reply = try await flapd.request(endpoint.request(panel), json: Data(JSONValue.object(body).text.utf8), timeout: .seconds(30))
            guard reply.status == 200, let numbering = reply.decoded(Numbering.self) else { throw InputError(reply.error) }
            return numbering
        }
    }
}

/// `GET /v1/panels/{id}/numbering`'s answer, as far as flapctl reads it.
struct Numbering: Decodable {
    struct Place: Decodable {
        var row: Int, column: Int, id: Int
        var answered: Bool
    }
    struct Module: Decodable {
        var serial: String
    }
    var places: [Place]
    var unplaced: [Module]
    var complete: Bool
}
