import ArgumentParser
import FlapEndpoints
import FlapJSON
import FoundationEssentials

extension ModulesCommand {
    /// `flapctl modules find`: an SBB wall's modules found by asking each address of a range,
    /// through flapd, which keeps the bus; how far it has come goes to stderr meanwhile.
    struct Find: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "find",
            abstract:
                "Find an SBB wall's modules by asking each address of a range for its serial number; exit status 1 when a place of the panel has no module."
        )

        @OptionGroup var connection: ConnectionOptions

        @Option(help: "The panel.")
        var panel = "main"

        @Option(help: "The first address to ask (0 to 255).")
        var first = 0

        @Option(help: "The last address to ask (0 to 255; about 0.25 s an address where no module answers).")
        var last = 31

        func validate() throws {
            guard (0...255).contains(first), (first...255).contains(last) else {
                throw ValidationError("addresses run 0 to 255, --first no later than --last; not \(first) to \(last)")
            }
        }

        func run() async throws {
            let flapd = try connection.connection()
            let body = JSONValue.object(["first": JSONValue(first), "last": JSONValue(last)])
            let searching = Task {
                try await flapd.request(
                    Endpoint.searchModules.request(panel), json: Data(body.text.utf8), timeout: .seconds(Int64(last - first + 1) + 60))
            }
            let count = last - first + 1
            var told = -1
            while !searching.isCancelled {
                try await Task.sleep(for: .milliseconds(500))
                let reply = try await flapd.request(Endpoint.moduleSearch.request([panel]), timeout: .seconds(10))
                guard reply.status == 200, let search = reply.decoded(SearchState.self)?.search, !search.done else { break }
                if search.asked != told {
                    told = search.asked
                    StandardStream.writeError("asked \(search.asked) of \(count) addresses, \(search.found.count) answered…\n")
                }
            }
            let reply = try await searching.value
            guard reply.status == 200, let search = reply.decoded(Search.self) else { throw InputError(reply.error) }
            for module in search.found {
                let place = module.row.map { "row \($0), column \(module.column ?? 0)" } ?? "not in the panel's addresses"
                print("address \(module.address): serial \(module.serial) (\(place))")
            }
            if let problem = search.problem { print("the search stopped: \(problem)") }
            print("\(search.found.count) of \(count) addresses answered")
            for place in search.silent {
                print("row \(place.row), column \(place.column): no module answers at its address \(place.address)")
            }
            let unplaced = search.found.filter { $0.row == nil }.map { String($0.address) }
            if !unplaced.isEmpty {
                print("write \(unplaced.joined(separator: ", ")) in the panel's addresses to use \(unplaced.count == 1 ? "it" : "them")")
            }
            if search.problem != nil || !search.silent.isEmpty { throw ExitCode(1) }
        }
    }
}

/// `GET /v1/panels/{id}/modules/search`'s answer, as far as flapctl reads it.
private struct SearchState: Decodable {
    var search: Search?
}

/// A search of a bus's addresses, as far as flapctl reads it.
private struct Search: Decodable {
    struct Module: Decodable {
        var address: Int, serial: Int
        var row: Int?, column: Int?
    }
    struct Silent: Decodable {
        var address: Int, row: Int, column: Int
    }
    var asked: Int
    var done: Bool
    var found: [Module]
    var problem: String?
    var silent: [Silent]
}
