import FlapEndpoints
import FlapHardware
import FlapJSON
import Hummingbird

/// `/v1/panels/{id}/blades`: each module of a wall whose blades are no board characters (an SBB
/// wall's destinations, hours, minutes) turned to a blade named by its label or its index.
struct BladesAPI: RouteGroup {
    let modules: any ModuleCommands

    /// The answer: the blade each module says it shows, and its label, row by row.
    struct Shown: Encodable, Sendable {
        var panel: String
        var blades: [[Int]]
        var labels: [[String]]
    }

    func add(to v1: AccessRoutes) {
        v1.on(.showBlades, .owner) { request, context in
            let usage = "send {\"blades\": [[\"BERN\", 12, null]]}: one list a row, one label, index or null a module"
            guard let body = try await Responses.body(of: request, limit: 16 * 1024) else {
                throw APIError(.contentTooLarge, Responses.tooLarge(request, limit: 16 * 1024))
            }
            guard let rows = (try? JSONValue(parsing: body))?.object?["blades"]?.array else { throw APIError(.badRequest, usage) }
            var columns: Int?
            var choices: [BladeChoice?] = []
            for (r, row) in rows.enumerated() {
                guard let cells = row.array, columns == nil || cells.count == columns else {
                    throw APIError(.badRequest, "row \(r + 1) is not a list as long as the first: \(usage)")
                }
                columns = cells.count
                for (c, cell) in cells.enumerated() {
                    if let label = cell.string {
                        choices.append(.label(label))
                    } else if let index = cell.int {
                        choices.append(.index(index))
                    } else if cell == .null {
                        choices.append(nil)
                    } else {
                        throw APIError(.badRequest, "row \(r + 1), column \(c + 1) is neither a label, an index nor null: \(usage)")
                    }
                }
            }
            let panel = context.parameter("id")
            let (blades, labels) = try await Self.shown { () throws(ModuleCommandError) in try await modules.showBlades(panel: panel, choices) }
            let width = max(1, columns ?? 1)
            func rowsOf<T>(_ flat: [T]) -> [[T]] { stride(from: 0, to: flat.count, by: width).map { Array(flat[$0..<min($0 + width, flat.count)]) } }
            return Answer(Shown(panel: panel, blades: rowsOf(blades), labels: rowsOf(labels)))
        }
    }

    private static func shown<T>(_ step: () async throws(ModuleCommandError) -> T) async throws(APIError) -> T {
        do {
            return try await step()
        } catch .noModules(let panel) {
            throw APIError(.notFound, "no panel \(panel) whose modules carry labelled blades (sbb panels)")
        } catch {
            throw ModulesAPI.refusal(error)
        }
    }
}
