import FlapCore
import FlapHardware
import FlapLinux
import FlapSimulated
import FlapTime
import FlapVestaboard
import Logging

/// A panel's driver, composed from its configuration, with the size and drum the hardware has.
struct PanelDriver: Sendable {
    let panel: any Panel
    /// The configuration with its size and drum settled.
    let configuration: PanelSettings
    /// A simulated panel's snapshots, for the terminal.
    let snapshots: AsyncStream<PanelSnapshot>?
    /// Stops what runs beside the driver (a simulated controller, the stepping thread).
    let stopCompanion: @Sendable () async -> Void
    /// A simulated LED device, for the terminal to draw.
    var ledDevice: (any SimulatedPixelDevice)?

    /// A Vestaboard's delivery workers (one, or one a Note of an array), for status and `flapctl queue`.
    var deliveries: [BoardDelivery<ApplianceClock>] { (panel as? any QueuesDeliveries<ApplianceClock>)?.deliveries ?? [] }

    /// The panel `configuration` names, made by its kind.
    static func make(_ configuration: PanelSettings, with context: PanelContext) async throws -> PanelDriver {
        try await configuration.kind.make(configuration, with: context)
    }

    /// The board's shape for `modules` modules: the configured size (which must fit), else the
    /// rows or columns given, else one row.
    static func size(for modules: Int, _ configuration: PanelSettings) throws -> BoardSize {
        if let size = configuration.size {
            guard modules >= size.count else {
                throw ServiceError.tooFewModules(panel: configuration.id, modules: modules, size: size)
            }
            return size
        }
        if let rows = configuration.rows {
            guard modules % rows == 0 else {
                throw ServiceError.modulesNotInRows(panel: configuration.id, modules: modules, rows: rows)
            }
            return BoardSize(rows: rows, columns: modules / rows)
        }
        if let columns = configuration.columns {
            guard modules % columns == 0 else {
                throw ServiceError.modulesNotInColumns(panel: configuration.id, modules: modules, columns: columns)
            }
            return BoardSize(rows: modules / columns, columns: columns)
        }
        return BoardSize(rows: 1, columns: modules)
    }
}

extension PanelSettings {
    /// These settings with the board's `size` settled, the panel's description, and where its
    /// modules were when flapd last stopped (when that was a board of this size).
    func settled(size: BoardSize, motion: PanelMotion = .forwardOnly, saved: [CharacterCode]?) -> (PanelSettings, PanelInfo, [Int]?) {
        var settled = self
        settled.size = size
        settled.drum.flap62 = drum.flap62 ?? Flap62(defaultFor: size)
        let info = PanelInfo(id: id, size: size, drum: settled.drum, motion: motion, driver: driver)
        return (settled, info, saved.flatMap { $0.count == size.count ? $0.map { drum.flap(for: $0).index } : nil })
    }
}
