import FlapCore
import FoundationEssentials

/// What the APIs ask of the running panels: each one's board and state.
public protocol PanelsQuery: Sendable {
    /// Every panel, the first being the one the Local API shows.
    func panels() async -> [PanelView]
    /// How long the first panel would take to flip to `board` from where it is now, with
    /// `strategy` (or its own); nil when it cannot tell.
    func flipDuration(to board: Board, strategy: TransitionStrategy?) async -> Duration?
}

extension PanelsQuery {
    /// None, unless the panels can tell.
    public func flipDuration(to board: Board, strategy: TransitionStrategy?) async -> Duration? { nil }
}

/// One panel as the APIs report it.
public struct PanelView: Sendable {
    /// Its id.
    public var id: String
    /// Its kind (`driver`).
    public var driver: String
    /// Its flaps, as a drum string.
    public var drum: String
    /// What it shows (at rest: where its modules are).
    public var board: Board
    /// Whether it is moving.
    public var moving: Bool
    /// The message the panel shows or moves to, nil for a blank board.
    public var messageId: String?
    /// Whether its device answers.
    public var connected: Bool
    /// The modules that need attention, in row-major order.
    public var faults: [PanelFault]
    /// When the quiet hours it is in end (nil: not in them).
    public var quietUntil: Date? = nil
    /// The system library its hardware is reached through, where that depends on the system
    /// (GPIO: `libgpiod 2.2.1 (libgpiod.so.3)` or `libgpiod 1.6.3 (libgpiod.so.2)`).
    public var library: String? = nil
    /// Its modules' flaps, for laying a text out as this panel shows it (nil: every code).
    public var flaps: Drum? = nil
    /// Its modules' own flaps, row-major, where some differ from ``flaps``.
    public var moduleFlaps: [Drum]? = nil

    /// The view as given.
    public init(
        id: String, driver: String, drum: String, board: Board, moving: Bool, messageId: String?,
        connected: Bool = true, faults: [PanelFault] = []
    ) {
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
    var lines: [String] { board.lines }
}

/// A module that needs attention, as `/v1/status` reports it.
public struct PanelFault: Sendable, Encodable {
    /// The module's row, from 1.
    public var row: Int
    /// The module's column, from 1.
    public var column: Int
    /// `sensor-error`, `panic`, `disabled`, `missed-home`, `unexpected-home`, `found-by-its-test` or `landed-elsewhere`.
    public var fault: String
    /// How many times the controller tried homing it again.
    public var rehomeAttempts: Int
    /// What the module's own test found, in words.
    public var said: String?

    /// The fault as given.
    public init(row: Int, column: Int, fault: String, rehomeAttempts: Int, said: String? = nil) {
        self.row = row
        self.column = column
        self.fault = fault
        self.rehomeAttempts = rehomeAttempts
        self.said = said
    }
}
