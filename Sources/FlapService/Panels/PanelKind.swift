import FlapCore
import FlapPrimitives
import FlapTime
import FlapVestaboard
import Logging

/// A kind of panel driver, as flapd.toml's `driver = "…"` and `--panel` name it: the keys its
/// panels take, how one is made from them, and its simulated twin (`device = "simulated"`).
/// The kinds flapd knows are ``PanelKinds/all``, the one list: nothing else names a driver.
protocol PanelKind: Sendable {
    /// Its name in `driver = "…"` and `--panel NAME[=DEVICE]`.
    var name: String { get }
    /// What `--panel`'s help says of it, after its name: `=DEVICE (a serial port such as /dev/ttyUSB0)`.
    var usage: String { get }
    /// The drum its modules carry unless `drum` or `drum_string` says otherwise.
    var defaultDrum: Drum { get }
    /// Whether it draws the board in light rather than turning flaps (its quiet hours may dim it).
    var drawsInLight: Bool { get }
    /// Whether `--simulate` puts its simulated twin behind the real driver (a Chainlink
    /// controller on a pseudo-terminal) rather than leaving the file's device alone.
    var simulatedUnderSimulate: Bool { get }
    /// Whether whoever shows it plays its clacks (a browser does), so flapd's speaker plays
    /// another panel's.
    var playsItsOwnClacks: Bool { get }

    /// Reads the keys only panels of this kind take into `panel` (its `device`, its `options`):
    /// reading a key declares it, and any other is refused, naming the kinds that read it. It
    /// checks what the common keys must be for it too (an spi panel's size).
    func read(_ reader: inout TableReader, into panel: inout PanelSettings)

    /// The panel, made from `panel` (its options nil when it was named by `--panel` alone).
    func make(_ panel: PanelSettings, with context: PanelContext) async throws -> PanelDriver
}

extension PanelKind {
    var usage: String { "" }
    var defaultDrum: Drum { .vestaboard }
    var drawsInLight: Bool { false }
    var simulatedUnderSimulate: Bool { false }
    var playsItsOwnClacks: Bool { false }
    func read(_ reader: inout TableReader, into panel: inout PanelSettings) {}
}

/// A kind's own settings for one panel (a HUB75 panel's chain, a gpio panel's pins).
protocol PanelOptions: KindOptions {}

/// What making a panel may need besides its settings.
struct PanelContext: Sendable {
    /// The codes it showed when flapd last stopped, for a panel that cannot ask its modules.
    var saved: [CharacterCode]?
    var calibration: Calibration
    /// The boards' delivery queue, opened the first time a panel asks for it.
    var outbox: @Sendable () throws -> DeliveryQueue
    /// The appliance's time. A panel whose device keeps real time on its own (a controller on
    /// a wire, the stepping thread) times itself on the real clock whatever this is.
    var time: ApplianceTime
    var logger: Logger
}

/// Every kind of panel flapd knows, in the order its messages list them.
enum PanelKinds {
    static let all: [any PanelKind] = [
        SimulatedPanelKind(), ChainlinkPanelKind(), RS485PanelKind(), SBBPanelKind(), SPIPanelKind(), GPIOPanelKind(), VestaboardPanelKind(),
        MAX7219PanelKind(), WS2812PanelKind(), FramebufferPanelKind(), HUB75PanelKind(), BrowserPanelKind()
    ]

    static func named(_ name: String, among kinds: [any PanelKind] = all) -> (any PanelKind)? { kinds.first { $0.name == name } }

    static var names: [String] { all.map(\.name) }

    /// `--panel`'s list: each kind with what follows its name.
    static var usage: String { all.map { $0.name + $0.usage }.joined(separator: ", ") }
}
