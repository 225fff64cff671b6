import FlapCore

/// A display made of modules: split-flap hardware, an LED matrix, a screen, a simulation.
///
/// Implementation requirements:
/// - ``play(_:cutoff:)`` starts the plan's time zero when it is called and lands every module at
///   its planned times as closely as the device allows; it returns when the last module has landed.
/// - To cut a plan short, the caller sets the `cutoff` and cancels the task that runs it. The
///   panel then completes every landing due up to the cutoff and none after, and throws
///   `CancellationError`; ``positions()`` reports exactly `FlipPlan.motion(at: cutoff)`. A flap
///   in flight cannot be caught mid-fall: the next plan, made from that motion, lands it when it
///   was due. Only one plan plays at a time; the caller awaits a cancelled play before the next.
/// - A device failure throws a ``HardwareError`` naming the device and what to do; it never
///   aborts the process.
/// - ``shutDown()`` leaves the device safe: motors de-energised, LEDs dark. It may be called
///   at any time, more than once.
public protocol Panel: Sendable {
    /// Fixed facts about the panel.
    var info: PanelInfo { get }
    /// Plays `plan` from now, until its end or the `cutoff`. See the requirements above.
    func play(_ plan: FlipPlan, cutoff: PlayCutoff) async throws
    /// The drum index each module rests on, row-major.
    func positions() async -> [Int]
    /// Leaves the hardware safe.
    func shutDown() async
    /// The device's link and the modules that need attention.
    func health() async -> PanelHealth
    /// What the driver has to say, for the log (one consumer).
    func notices() async -> AsyncStream<PanelNotice>
    /// Plans in progress re-estimated from what the hardware reports, for the clack track to
    /// follow (one consumer; panels that land exactly on plan send none).
    func revisions() async -> AsyncStream<PlanRevision>
    /// How its plans must be timed for this hardware now (its motor, each module's own motion
    /// where the modules told it, how fast commands may follow one another).
    func planTiming() async -> PlanTiming
}

extension Panel {
    /// A panel that shows a plan as it is timed: the planner's flap period alone.
    public func planTiming() async -> PlanTiming { PlanTiming() }
}

/// What a panel is: its name, size, drum and how its modules may move.
public struct PanelInfo: Sendable, Equatable {
    /// The name configuration gives it (`main`, `hallway`, …).
    public var id: String
    /// Its modules, rows and columns.
    public var size: BoardSize
    /// The flaps every module has.
    public var drum: Drum
    /// Forward only for split-flap hardware and its simulations; shortest way for LEDs and screens.
    public var motion: PanelMotion
    /// The driver behind it, for status pages (`simulated`, `chainlink`, …).
    public var driver: String

    /// A panel of these.
    public init(id: String, size: BoardSize, drum: Drum, motion: PanelMotion, driver: String) {
        self.id = id
        self.size = size
        self.drum = drum
        self.motion = motion
        self.driver = driver
    }
}

/// How a panel is doing, for status pages and metrics.
public struct PanelHealth: Sendable, Equatable {
    /// Whether the panel's device answers (always true for panels with nothing to lose).
    public var connected: Bool
    /// Modules that need attention, in row-major order.
    public var faults: [ModuleFault]

    /// A panel's health as given.
    public init(connected: Bool = true, faults: [ModuleFault] = []) {
        self.connected = connected
        self.faults = faults
    }
}

/// A module that is not working as it should.
public struct ModuleFault: Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the module.
    public enum Kind: String, Sendable, Equatable {
        /// Its home sensor was not found within a turn and a bit: the module stopped.
        case sensorError = "sensor-error"
        /// The controller gave up on it.
        case panic
        case disabled
        /// The home sensor fired where it should not, or not where it should: steps were lost;
        /// the module re-homes by itself.
        case missedHome = "missed-home"
        case unexpectedHome = "unexpected-home"
        /// The module's own test found something wrong (``ModuleFault/said``).
        case foundByItsTest = "found-by-its-test"
        /// Asked after a board, it said it shows another flap than it was sent, and still did
        /// once sent it again (``ModuleFault/said``).
        case landedElsewhere = "landed-elsewhere"
    }

    /// 1-based, as people count.
    public var row: Int
    /// 1-based.
    public var column: Int
    /// What is wrong.
    public var kind: Kind
    /// Re-homing attempts made for it so far.
    public var attempts: Int
    /// What its own test found, in a household's words.
    public var said: String?

    /// A fault of the module at `row`, `column`.
    public init(row: Int, column: Int, kind: Kind, attempts: Int = 0, said: String? = nil) {
        self.row = row
        self.column = column
        self.kind = kind
        self.attempts = attempts
        self.said = said
    }

    /// `module at row 2, column 5: sensor-error`.
    public var description: String { "module at row \(row), column \(column): \(said ?? kind.rawValue)" }
}

/// Something a panel's driver wants said in the log.
public struct PanelNotice: Sendable, Equatable {
    /// The log level it goes out at.
    public enum Level: Sendable, Equatable { case debug, info, warning, error }
    /// How loud it is.
    public var level: Level
    /// What to say.
    public var text: String

    /// A notice of `text` at `level`.
    public init(_ level: Level, _ text: String) {
        self.level = level
        self.text = text
    }
}
