import FlapCore
import Foundation

/// What the APIs can ask the running appliance about its panels.
public protocol BoardQuery: Sendable {
    /// Every panel, the first being the one the Local API shows.
    func panels() async -> [PanelView]
    /// Whether the clacks are playing, and if not, why (`idle`, `muted`, `quiet hours`, `unavailable`, …).
    func soundStatus() async -> (state: String, reason: String?)
    /// The clacks' settings and state.
    func sound() async -> SoundView
    /// Mutes, sets the volume and the quiet hours (nil: none), saved across restarts.
    func setSound(mute: Bool, volume: Int, quietHours: String?) async throws -> SoundView
    /// The panel's module offsets (steps, row-major), or nil when it has none to calibrate.
    func calibration(panel: String) async -> Calibrated?
    /// Sets one module's offset (1-based row and column) and saves it; the module re-homes.
    func calibrate(panel: String, row: Int, column: Int, offsetSteps: Int) async throws -> Calibrated
}

/// The clacks as `GET /v1/sound` reports them.
public struct SoundView: Sendable, Encodable {
    /// false when `[sound] enabled = false`: nothing can be changed.
    public var enabled: Bool
    public var state: String
    public var reason: String?
    public var mute: Bool
    /// 0–100.
    public var volume: Int
    /// `HH:MM-HH:MM`, local time, or nil.
    public var quietHours: String?
    public var device: String

    public init(enabled: Bool, state: String, reason: String?, mute: Bool, volume: Int, quietHours: String?, device: String) {
        self.enabled = enabled
        self.state = state
        self.reason = reason
        self.mute = mute
        self.volume = volume
        self.quietHours = quietHours
        self.device = device
    }
}

/// A panel's calibration as the API reports it.
public struct Calibrated: Sendable, Encodable {
    public var panel: String
    public var rows: Int
    public var columns: Int
    /// Steps from each module's home edge to flap 0, row-major.
    public var offsets: [Int]
    /// Steps that turn the drum by one flap (for nudging by tenths).
    public var stepsPerFlap: Double

    public init(panel: String, rows: Int, columns: Int, offsets: [Int], stepsPerFlap: Double) {
        self.panel = panel
        self.rows = rows
        self.columns = columns
        self.offsets = offsets
        self.stepsPerFlap = stepsPerFlap
    }
}

/// One panel as the APIs report it.
public struct PanelView: Sendable {
    public var id: String
    public var driver: String
    public var drum: String
    public var board: Board
    public var moving: Bool
    /// The message the panel shows or moves to, nil for a blank board.
    public var messageId: String?
    /// Whether its device answers.
    public var connected: Bool
    /// The modules that need attention, in row-major order.
    public var faults: [PanelFault]
    /// When the quiet hours it is in end (nil: not in them).
    public var quietUntil: Date? = nil

    public init(id: String, driver: String, drum: String, board: Board, moving: Bool, messageId: String?,
                connected: Bool = true, faults: [PanelFault] = []) {
        self.connected = connected
        self.faults = faults
        self.id = id
        self.driver = driver
        self.drum = drum
        self.board = board
        self.moving = moving
        self.messageId = messageId
    }

    /// The board as lines of text, colour chips as their letters.
    var lines: [String] { board.rows.map { String($0.map(BoardText.symbol)) } }
}

/// A module that needs attention, as `/v1/status` reports it.
public struct PanelFault: Sendable, Encodable {
    public var row: Int
    public var column: Int
    /// `sensor-error`, `panic`, `disabled`, `missed-home` or `unexpected-home`.
    public var fault: String
    public var rehomeAttempts: Int

    public init(row: Int, column: Int, fault: String, rehomeAttempts: Int) {
        self.row = row
        self.column = column
        self.fault = fault
        self.rehomeAttempts = rehomeAttempts
    }
}
