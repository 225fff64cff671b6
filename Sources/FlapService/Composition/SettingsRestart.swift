import FlapTOML
import Synchronization

/// How a change of settings from the page takes effect: the appliance running ends as at
/// SIGTERM (each service stopped, the panels left safe, what they show kept in the inbox), and
/// flapd's command starts the next one, in the same process, from the settings as they are now.
final class SettingsRestart: Sendable {
    private struct State {
        var appliance: Appliance?
        /// The page's settings before the change, while a start again is asked for.
        var before: TOMLTable?
    }

    private let state = Mutex(State())

    /// The appliance a request ends.
    func running(_ appliance: Appliance) {
        state.withLock { $0.appliance = appliance }
    }

    /// Ends the running appliance so the next starts from the settings just kept; `before` is
    /// the page's layer to go back to should they not start.
    func request(before: TOMLTable) async {
        let appliance = state.withLock { state in
            // Of several changes before the restart, the first's layer is the one that started.
            if state.before == nil { state.before = before }
            return state.appliance
        }
        await appliance?.stop()
    }

    /// Whether the appliance that ended was asked to start again, and the page's settings it ran
    /// with; the request is taken.
    func take() -> TOMLTable? {
        state.withLock { state in
            defer { state.before = nil }
            return state.before
        }
    }
}
