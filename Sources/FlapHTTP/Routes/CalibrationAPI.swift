import FlapEndpoints
import FlapJSON
import FlapStorage
import FoundationEssentials
import Hummingbird

/// Module offsets of the panels that have them (spi and gpio split-flaps), as the API reaches them.
public protocol CalibrationControl: Sendable {
    /// The panel's module offsets (steps, row-major), or nil when it has none to calibrate.
    func calibration(panel: String) async -> Calibrated?
    /// Sets one module's offset (1-based row and column) and saves it; the module re-homes.
    func calibrate(panel: String, row: Int, column: Int, offsetSteps: Int) async throws -> Calibrated
}

/// A panel's calibration as the API reports it.
public struct Calibrated: Sendable, Encodable {
    /// The panel.
    public var panel: String
    /// Its rows.
    public var rows: Int
    /// Its columns.
    public var columns: Int
    /// Steps from each module's home edge to flap 0, row-major.
    public var offsets: [Int]
    /// Steps that turn the drum by one flap (for nudging by tenths).
    public var stepsPerFlap: Double

    /// The calibration as given.
    public init(panel: String, rows: Int, columns: Int, offsets: [Int], stepsPerFlap: Double) {
        self.panel = panel
        self.rows = rows
        self.columns = columns
        self.offsets = offsets
        self.stepsPerFlap = stepsPerFlap
    }
}

/// `/v1/panels/{id}/calibration`: a panel's module offsets, read and set one module at a time.
struct CalibrationAPI: RouteGroup {
    let panels: any CalibrationControl

    func add(to v1: AccessRoutes) {
        v1.on(.calibration, .owner) { _, context in
            let id = context.parameter("id")
            guard let calibrated = await panels.calibration(panel: id) else { throw Self.noModules(id) }
            return Answer(calibrated)
        }
        v1.on(.calibrate, .owner) { request, context in
            try await calibrate(request, panel: context.parameter("id"))
        }
    }

    static func noModules(_ panel: String) -> APIError {
        APIError(.notFound, "no panel \(panel) with modules to calibrate (only spi and gpio panels have offsets here)")
    }

    /// `{"row": R, "column": C, "offsetSteps": N}` sets a module's offset; `"nudgeTenths": N`
    /// instead moves it by tenths of a flap from where it is.
    private func calibrate(_ request: Request, panel: String) async throws -> Answer<Calibrated> {
        guard let current = await panels.calibration(panel: panel) else { throw Self.noModules(panel) }
        guard let body = try await Responses.body(of: request, limit: 4096),
            let object = (try? JSONValue(parsing: body))?.object
        else {
            throw APIError(.badRequest, "send {\"row\": R, \"column\": C, \"offsetSteps\": N} or {…, \"nudgeTenths\": N} as JSON")
        }
        guard let row = object["row"]?.int, let column = object["column"]?.int,
            (1...current.rows).contains(row), (1...current.columns).contains(column)
        else {
            throw APIError(.badRequest, "row must be 1 to \(current.rows) and column 1 to \(current.columns)")
        }
        let index = (row - 1) * current.columns + column - 1
        let offset: Int
        switch (object["offsetSteps"]?.int, object["nudgeTenths"]?.int) {
        case (let steps?, nil): offset = steps
        case (nil, let tenths?): offset = current.offsets[index] + Int((Double(tenths) * current.stepsPerFlap / 10).rounded())
        default: throw APIError(.badRequest, "give offsetSteps or nudgeTenths (one of them)")
        }
        do {
            return Answer(try await panels.calibrate(panel: panel, row: row, column: column, offsetSteps: offset))
        } catch let fault as StorageFault {
            throw APIError(fault.answerStatus, "the offset is set but could not be saved: \(fault.description)")
        } catch {
            throw APIError(.internalServerError, "the offset is set but could not be saved: \(error)")
        }
    }
}
