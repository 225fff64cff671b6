import FlapCore
import FlapDisplay
import FlapHardware
import FlapHeartRate
import FlapJSON
import FlapMQTT
import FlapMQTTClient
import FlapMessaging
import FlapPrimitives
import FlapRooms
import FlapSources
import FlapTOML
import FlapTime
import FlapVestaboard
import FoundationEssentials
import Wematch

/// `[[panel]]`: what every panel has (id, size, drum, motion, policy, quiet hours); its kind
/// (`driver`) reads the rest (``PanelKind/read(_:into:)``).
extension ConfigurationParser {
    static func readPanels(_ reader: inout TableReader, kinds: [any PanelKind], into configuration: inout FlapdConfiguration) {
        guard reader["panel"] != nil else { return }
        configuration.panels = []
        reader.sections("panel") { _, panel in configuration.panels.append(parsePanel(&panel, kinds: kinds)) }
        let ids = configuration.panels.map(\.id)
        for (i, id) in ids.enumerated() where ids[..<i].contains(id) {
            reader.fail("panel[\(i)].id", .nameTaken(id, kind: "panel", key: "id"))
        }
        if configuration.panels.isEmpty { reader.fail("panel", .needs("flapd", "at least one [[panel]]")) }
    }

    static func parsePanel(_ reader: inout TableReader, kinds: [any PanelKind]) -> PanelSettings {
        let kind = reader.choice("driver", kinds.map(\.name)).flatMap { PanelKinds.named($0, among: kinds) } ?? PanelSettings().kind
        let panel = readPanel(&reader, kind: kind)
        let table = reader.table
        reader.finish { key in owner(of: key, in: table, kind: kind, among: kinds) }
        return panel
    }

    /// Whose setting `key` is when a `kind` panel does not read it: the kinds whose reading of
    /// the same table asks for it, found by reading it as each of them.
    static func owner(of key: String, in table: TOMLTable, kind: any PanelKind, among kinds: [any PanelKind]) -> String? {
        let owners = kinds.filter { other in
            var probe = TableReader(table: table, path: "", index: TOMLLineIndex(""))
            _ = readPanel(&probe, kind: other)
            return probe.asked.contains(key)
        }.map(\.name)
        guard let list = TableReader.alternatives(owners) else { return nil }
        return "\(key) is a setting of a \(list) panel; this panel is \(kind.name)"
    }

    /// What the panel's flap 62 shows, kept with its drum: `flap62` as given, else as the drum
    /// string draws it (`°` or `♥`), else as `model` has it; left nil, the board's size decides
    /// once it is known (``PanelSettings/settled(size:motion:saved:)``).
    static func readFlap62(_ reader: inout TableReader, into panel: inout PanelSettings) {
        guard let given = reader.choice("flap62", of: Flap62.self) else {
            if panel.drum.flap62 == nil { panel.drum.flap62 = panel.model?.flap62 }
            return
        }
        if !panel.drum.contains(.degree) {
            reader.fail("flap62", "this panel's drum (\(panel.drum.name)) has no flap 62")
        } else if let drawn = panel.drum.flap62, drawn != given {
            reader.fail("flap62", "the drum string draws flap 62 as \(drawn == .heart ? "♥" : "°"), not a \(given.rawValue)")
        } else {
            panel.drum.flap62 = given
        }
    }

    /// A `[[panel]]` of `kind`: the keys every panel has, then the kind's own.
    static func readPanel(_ reader: inout TableReader, kind: any PanelKind) -> PanelSettings {
        var panel = PanelSettings()
        panel.kind = kind
        panel.id = reader.string("id") ?? panel.id
        if let size = reader.string("size") {
            if let parsed = BoardSize(name: size) {
                panel.size = parsed
            } else {
                reader.fail("size", .notInForm(size, form: "flagship, note or ROWSxCOLUMNS such as 6x22"))
            }
        }
        for key in ["rows", "columns"] {
            guard let value = reader.int(key) else { continue }
            if value < 1 { reader.fail(key, .outOfRange(given: "\(value)", allowed: "at least 1")) }
            if panel.size != nil { reader.fail(key, .notBoth("size", "rows/columns")) }
            if key == "rows" { panel.rows = value } else { panel.columns = value }
        }
        if let rows = panel.rows, let columns = panel.columns, rows > 0, columns > 0 { panel.size = BoardSize(rows: rows, columns: columns) }
        // The model is a size by its Vestaboard name (a Note array's, Notes side by side or
        // stacked), and says what flap 62 shows.
        panel.model = reader.choice("model", of: BoardModel.self)
        if let model = panel.model, let size = panel.size, !model.fits(size) {
            reader.fail(
                "model",
                "a \(model.rawValue) is \(model.size.rows)×\(model.size.columns)\(model == .note ? " (an array of Notes 3×15n or 3n×15)" : ""), "
                    + "not \(size.rows)×\(size.columns): give model or size, not both")
        }
        if panel.size == nil, let model = panel.model { panel.size = model.size }
        panel.drum = kind.defaultDrum
        kind.read(&reader, into: &panel)
        if let drumString = reader.string("drum_string") {
            do { panel.drum = try Drum(string: drumString) } catch { reader.fail("drum_string", error.description) }
        } else if let name = reader.choice("drum", Drum.named.map(\.name)), let drum = Drum.named(name) {
            panel.drum = drum
        }
        readFlap62(&reader, into: &panel)
        if let period = reader.int("period_ms") {
            if FlipPlanner.flapPeriodRange.contains(period) {
                panel.flapPeriodMs = period
            } else {
                reader.fail("period_ms", .outOfRange(given: "\(period)", allowed: "50 to 200 ms"))
            }
        }
        if let strategy = reader.choice("transition", TransitionStrategy.allCases.map(\.rawValue)),
            let transition = TransitionStrategy(rawValue: strategy)
        {
            panel.transition = transition
        }
        panel.show = reader.choice("show", PanelShow.names).flatMap(PanelShow.init(rawValue:)) ?? panel.show
        let policy = reader.choice("policy", ["latest", "sender", "rotate", "kiosk"])
        let sender = reader.string("sender"), rotateSeconds = reader.int("rotate_seconds")
        if sender != nil, policy != "sender" {
            reader.fail("sender", .onlyFor("sender", "policy = \"sender\" (the panel that shows one sender's messages)"))
        }
        if rotateSeconds != nil, policy != "rotate" { reader.fail("rotate_seconds", .onlyFor("rotate_seconds", "policy = \"rotate\"")) }
        switch policy {
        case "sender":
            if let sender {
                panel.policy = .sender(sender)
            } else {
                reader.fail("policy", .needs("policy = \"sender\"", "sender = \"<sender id>\""))
            }
        case "rotate":
            let seconds = rotateSeconds ?? 30
            if seconds < 1 { reader.fail("rotate_seconds", .outOfRange(given: "\(seconds)", allowed: "at least 1")) }
            panel.policy = .rotate(every: .seconds(max(1, seconds)))
        case "kiosk":
            panel.policy = .kiosk
        default:
            break
        }
        panel.quiet = parseQuietHours(&reader, light: kind.drawsInLight)
        if panel.quiet?.action == .dim, panel.options(LEDSettings.self)?.schedule.isEmpty ?? true {
            // Dimming is the brightness schedule's work: without one, "dim" would do nothing at night.
            reader.fail(
                "quiet",
                .givenWithout(
                    "brightness_schedule, such as brightness_schedule = [\"22:00=10\", \"07:00=100\"]",
                    why: "quiet = \"dim\" dims by the panel's brightness_schedule, and this panel has none"))
        }
        return panel
    }

    /// `quiet_hours = "22:00-07:00"`, `quiet = "hold" | "blank" | "message" | "dim"` (LED panels
    /// and screens), `quiet_message = "<quick message>"` with `message`.
    static func parseQuietHours(_ reader: inout TableReader, light: Bool) -> BoardQuietHours? {
        let action = reader.choice("quiet", BoardQuietHours.actionNames)
        let message = reader.string("quiet_message")
        guard let text = reader.string("quiet_hours") else {
            if action != nil || message != nil {
                reader.fail("quiet", .givenWithout("quiet_hours = \"22:00-07:00\"", why: "quiet and quiet_message act within quiet hours"))
            }
            return nil
        }
        guard let hours = QuietHours(text) else {
            reader.fail("quiet_hours", .notASpanOfTime(text))
            return nil
        }
        switch action ?? "hold" {
        case "blank": return BoardQuietHours(hours: hours, action: .blank)
        case "message":
            guard let message else {
                reader.fail("quiet_message", .needs("quiet = \"message\"", "quiet_message = \"<the name of a quick message>\""))
                return nil
            }
            return BoardQuietHours(hours: hours, action: .message(message))
        case "dim":
            guard light else {
                reader.fail(
                    "quiet",
                    .onlyFor("quiet = \"dim\"", "LED panels and screens (their brightness_schedule dims them); a split-flap board can hold or blank"))
                return nil
            }
            return BoardQuietHours(hours: hours, action: .dim)
        default: return BoardQuietHours(hours: hours, action: .hold)
        }
    }
}

/// One panel: what every panel has, its kind (`driver`), and the kind's own settings.
public struct PanelSettings: Sendable, Equatable {
    /// Its id, in the API and the log.
    public var id = "main"
    /// What drives the panel (`driver` in the configuration): one of ``PanelKinds/all``.
    var kind: any PanelKind = SimulatedPanelKind()
    /// The driver's device: a serial port for `chainlink` (default `/dev/splitflap0`), a spidev
    /// device for `spi` (default `/dev/spidev0.0`), a GPIO chip for `gpio` (default `gpiochip0`);
    /// or `simulated` for simulated hardware at that interface.
    public var device: String?
    /// The board's size; nil: flagship for simulated panels, from the controller's module count
    /// (shaped by ``rows`` or ``columns`` when given) for hardware.
    public var size: BoardSize?
    /// Rows, when the size is to be shaped from the modules counted.
    public var rows: Int?
    /// Columns, likewise.
    public var columns: Int?
    /// The flaps its modules carry.
    public var drum = Drum.vestaboard
    /// Each module's own flaps, row-major, where some differ from ``drum`` (an RS-485 module
    /// given a reel of its own); nil: ``drum`` for every module.
    public var moduleDrums: [Drum]?
    /// The Vestaboard it is (`model`), when the configuration says: a Note's flap 62 is a heart.
    public var model: BoardModel?
    /// How long one flap takes to fall, in milliseconds.
    public var flapPeriodMs = FlipPlanner.defaultFlapPeriodMs
    /// What it shows of the messages.
    public var policy = PanelPolicy.latest
    /// When the board does not move for messages, and what it does then.
    public var quiet: BoardQuietHours?
    /// How it moves to a message that does not ask for a transition.
    public var transition = TransitionStrategy.cascade
    /// How a simulated panel is shown.
    public var show = PanelShow.terminal
    /// The kind's own settings (``PanelKind/read(_:into:)``); nil when it has none or the panel
    /// was named by `--panel` alone.
    var options: (any PanelOptions)?

    /// The defaults: panel `main`, simulated.
    public init() {}

    /// The driver's name.
    public var driver: String { kind.name }
    /// Whether it draws the board in light.
    public var isLED: Bool { kind.drawsInLight }

    /// The kind's own settings, as the kind's type.
    func options<Options: PanelOptions>(_ type: Options.Type) -> Options? { options as? Options }

    /// Panels are equal when every setting is, the kind's own too.
    public static func == (a: PanelSettings, b: PanelSettings) -> Bool {
        a.id == b.id && a.kind.name == b.kind.name && a.device == b.device && a.size == b.size && a.rows == b.rows
            && a.columns == b.columns && a.drum == b.drum && a.model == b.model && a.flapPeriodMs == b.flapPeriodMs && a.policy == b.policy
            && a.quiet == b.quiet && a.transition == b.transition && a.show == b.show && sameOptions(a.options, b.options)
    }
}
