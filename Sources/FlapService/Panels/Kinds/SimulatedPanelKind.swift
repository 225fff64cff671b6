import FlapCore
import FlapHardware
import FlapSimulated
import FlapTime

/// `driver = "simulated"`: a panel that plays its plans on time with no hardware, drawn in the
/// terminal or the log (`show`).
struct SimulatedPanelKind: PanelKind {
    var name: String { "simulated" }

    func read(_ reader: inout TableReader, into panel: inout PanelSettings) {
        if reader["device"] != nil { reader.fail("device", .elsewhere("a simulated panel has no device; set driver = \"chainlink\" to use one")) }
    }

    func make(_ panel: PanelSettings, with context: PanelContext) async -> PanelDriver {
        let (settled, info, positions) = panel.settled(size: panel.size ?? .flagship, saved: context.saved)
        let simulated = SimulatedPanel(info: info, clock: context.time.clock, positions: positions)
        return PanelDriver(
            panel: simulated, configuration: settled, snapshots: await simulated.snapshots(), stopCompanion: {})
    }
}

/// `driver = "browser"`: a panel that browsers show (a TV, a tablet), its motion kept on time as
/// a simulated panel's is and drawn by the browsers watching `/tv?panel=ID`, which play its clacks.
struct BrowserPanelKind: PanelKind {
    var name: String { "browser" }
    var usage: String { " (shown by a TV's browser at /tv)" }
    var playsItsOwnClacks: Bool { true }

    func read(_ reader: inout TableReader, into panel: inout PanelSettings) {
        if reader["device"] != nil { reader.fail("device", .elsewhere("a browser panel has no device: a browser shows it at /tv?panel=\(panel.id)")) }
    }

    func make(_ panel: PanelSettings, with context: PanelContext) -> PanelDriver {
        let (settled, info, positions) = panel.settled(size: panel.size ?? .flagship, saved: context.saved)
        return PanelDriver(
            panel: SimulatedPanel(info: info, clock: context.time.clock, positions: positions), configuration: settled,
            snapshots: nil, stopCompanion: {})
    }
}
