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
}

/// What a panel is: its name, size, drum and how its modules may move.
public struct PanelInfo: Sendable, Equatable {
    /// The name configuration gives it (`main`, `hallway`, …).
    public var id: String
    public var size: BoardSize
    public var drum: Drum
    /// Forward only for split-flap hardware and its simulations; shortest way for LEDs and screens.
    public var motion: PanelMotion
    /// The driver behind it, for status pages (`simulated`, `chainlink`, …).
    public var driver: String

    public init(id: String, size: BoardSize, drum: Drum, motion: PanelMotion, driver: String) {
        self.id = id
        self.size = size
        self.drum = drum
        self.motion = motion
        self.driver = driver
    }
}
