import FlapCore
import FlapDisplay
import FlapHardware
import FlapHeartRate
import FlapJSON
import FlapMQTT
import FlapMQTTClient
import FlapMessaging
import FlapRooms
import FlapSources
import FlapTOML
import FlapTime
import FlapVestaboard
import FoundationEssentials
import Wematch

/// `[[panel]]`: each panel's driver, size, drum, motion and policy, its LED and Vestaboard keys, its quiet hours.
extension ConfigurationParser {
    static func readPanels(_ reader: inout TableReader, into configuration: inout FlapdConfiguration) {
        guard reader["panel"] != nil else { return }
        configuration.panels = []
        reader.sections("panel") { _, panel in configuration.panels.append(parsePanel(&panel)) }
        let ids = configuration.panels.map(\.id)
        for (i, id) in ids.enumerated() where ids[..<i].contains(id) {
            reader.fail("panel[\(i)].id", "another panel is called \(id) too; give each its own id")
        }
        if configuration.panels.isEmpty { reader.fail("panel", "configure at least one [[panel]]") }
    }

    static func parsePanel(_ reader: inout TableReader) -> PanelSettings {
        let driver = reader.choice("driver", PanelDriverKind.names).flatMap(PanelDriverKind.init(rawValue:)) ?? PanelSettings().driver
        let panel = readPanel(&reader, driver: driver)
        let table = reader.table
        reader.finish { key in owner(of: key, in: table, driver: driver) }
        return panel
    }

    /// Whose setting `key` is when a `driver` panel does not read it: the drivers whose reading
    /// of the same table asks for it, found by reading it as each of them.
    static func owner(of key: String, in table: TOMLTable, driver: PanelDriverKind) -> String? {
        let owners = PanelDriverKind.allCases.filter { other in
            var probe = TableReader(table: table, path: "", index: TOMLLineIndex(""))
            _ = readPanel(&probe, driver: other)
            return probe.asked.contains(key)
        }
        guard !owners.isEmpty else { return nil }
        let names = owners.map(\.rawValue)
        let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " or " + names.last!
        return "\(key) is a setting of a \(list) panel; this panel is \(driver.rawValue)"
    }

    /// A `[[panel]]` driven by `driver`: each key this driver reads, asked for here.
    static func readPanel(_ reader: inout TableReader, driver: PanelDriverKind) -> PanelSettings {
        var panel = PanelSettings()
        panel.driver = driver
        panel.id = reader.string("id") ?? panel.id
        panel.device = reader.string("device")
        if panel.device != nil, panel.driver == .simulated {
            reader.fail("device", "a simulated panel has no device; set driver = \"chainlink\" to use one")
        }
        if panel.device != nil, panel.driver == .browser {
            reader.fail("device", "a browser panel has no device: a browser shows it at /tv?panel=\(panel.id)")
        }
        if let size = reader.string("size") {
            if let parsed = BoardSize(name: size) { panel.size = parsed } else {
                reader.fail("size", "\"\(size)\" is not flagship, note or ROWSxCOLUMNS such as 6x22")
            }
        }
        for key in ["rows", "columns"] {
            guard let value = reader.int(key) else { continue }
            if value < 1 { reader.fail(key, "must be at least 1, not \(value)") }
            if panel.size != nil { reader.fail(key, "give size or rows/columns, not both") }
            if key == "rows" { panel.rows = value } else { panel.columns = value }
        }
        if let rows = panel.rows, let columns = panel.columns, rows > 0, columns > 0 { panel.size = BoardSize(rows: rows, columns: columns) }
        // The model is a size by its Vestaboard name; its flaps follow from the size (``BoardModel``).
        if let model = reader.choice("model", of: BoardModel.self) {
            if let size = panel.size, size != model.size {
                reader.fail("model", "a \(model.rawValue) is \(model.size.rows)×\(model.size.columns), not \(size.rows)×\(size.columns): give model or size, not both")
            }
            panel.size = model.size
        }
        if panel.driver.turnsChainlinkDrums { panel.drum = .chainlink52 }
        if panel.driver == .vestaboard { panel.vestaboard = parseVestaboard(&reader) }
        if panel.isLED { panel.led = parseLED(&reader, driver: panel.driver) }
        if let pins = reader.intLists("pins", example: "[[17, 18, 27, 22, 23]] (IN1–IN4, then the sensor)") {
            if panel.driver != .gpio { reader.fail("pins", "only a gpio panel has pins") }
            if let bad = pins.firstIndex(where: { $0.count != 5 }) {
                reader.fail("pins", "module \(bad + 1) has \(pins[bad].count) pins; each needs five: IN1–IN4 of its ULN2003, then its hall sensor")
            }
            panel.pins = pins
        }
        switch panel.driver {
        case .spi where panel.size == nil:
            reader.fail("size", "an spi panel needs its size (size, or rows and columns): a shift-register chain cannot count its modules")
        case .gpio where panel.pins.isEmpty && panel.device != "simulated":
            reader.fail("pins", "a gpio panel needs pins: [[IN1, IN2, IN3, IN4, sensor], …] for each module")
        case .gpio where panel.size == nil && panel.pins.isEmpty:
            reader.fail("size", "a simulated gpio panel needs its size")
        case .gpio where panel.size != nil && !panel.pins.isEmpty && panel.size!.count != panel.pins.count:
            reader.fail("pins", "\(panel.pins.count) modules' pins for a board of \(panel.size!.count) modules")
        default:
            break
        }
        if let drumString = reader.string("drum_string") {
            do { panel.drum = try Drum(string: drumString) } catch { reader.fail("drum_string", error.description) }
        } else if let name = reader.choice("drum", Drum.named.map(\.name)) {
            panel.drum = Drum.named(name)!
        }
        if let period = reader.int("period_ms") {
            if FlipPlanner.flapPeriodRange.contains(period) { panel.flapPeriodMs = period } else {
                reader.fail("period_ms", "must be 50 to 200 ms, not \(period)")
            }
        }
        if let strategy = reader.choice("transition", TransitionStrategy.allCases.map(\.rawValue)) {
            panel.transition = TransitionStrategy(rawValue: strategy)!
        }
        panel.show = reader.choice("show", PanelShow.names).flatMap(PanelShow.init(rawValue:)) ?? panel.show
        let policy = reader.choice("policy", ["latest", "sender", "rotate", "kiosk"])
        let sender = reader.string("sender"), rotateSeconds = reader.int("rotate_seconds")
        if sender != nil, policy != "sender" { reader.fail("sender", "sender is for policy = \"sender\" (the panel that shows one sender's messages)") }
        if rotateSeconds != nil, policy != "rotate" { reader.fail("rotate_seconds", "rotate_seconds is for policy = \"rotate\"") }
        switch policy {
        case "sender":
            if let sender { panel.policy = .sender(sender) } else {
                reader.fail("policy", "policy = \"sender\" needs sender = \"<sender id>\"")
            }
        case "rotate":
            let seconds = rotateSeconds ?? 30
            if seconds < 1 { reader.fail("rotate_seconds", "must be at least 1, not \(seconds)") }
            panel.policy = .rotate(every: .seconds(max(1, seconds)))
        case "kiosk":
            panel.policy = .kiosk
        default:
            break
        }
        panel.quiet = parseQuietHours(&reader, led: panel.isLED)
        if panel.quiet?.action == .dim, panel.led.schedule.isEmpty {
            // Dimming is the brightness schedule's work: without one, "dim" would do nothing at night.
            reader.fail("quiet", "quiet = \"dim\" dims by the panel's brightness_schedule, and this panel has none; add one such as brightness_schedule = [\"22:00=10\", \"07:00=100\"]")
        }
        return panel
    }

    /// `quiet_hours = "22:00-07:00"`, `quiet = "hold" | "blank" | "message" | "dim"` (LED panels
    /// and screens), `quiet_message = "<quick message>"` with `message`.
    static func parseQuietHours(_ reader: inout TableReader, led: Bool) -> BoardQuietHours? {
        let action = reader.choice("quiet", BoardQuietHours.actionNames)
        let message = reader.string("quiet_message")
        guard let text = reader.string("quiet_hours") else {
            if action != nil || message != nil { reader.fail("quiet", "quiet and quiet_message need quiet_hours = \"22:00-07:00\" beside them") }
            return nil
        }
        guard let hours = QuietHours(text) else {
            reader.fail("quiet_hours", "\"\(text)\" is not a span of local time such as \"22:00-07:00\"")
            return nil
        }
        switch action ?? "hold" {
        case "blank": return BoardQuietHours(hours: hours, action: .blank)
        case "message":
            guard let message else {
                reader.fail("quiet_message", "quiet = \"message\" needs quiet_message = \"<the name of a quick message>\"")
                return nil
            }
            return BoardQuietHours(hours: hours, action: .message(message))
        case "dim":
            guard led else {
                reader.fail("quiet", "quiet = \"dim\" is for LED panels and screens (their brightness_schedule dims them); a split-flap board can hold or blank")
                return nil
            }
            return BoardQuietHours(hours: hours, action: .dim)
        default: return BoardQuietHours(hours: hours, action: .hold)
        }
    }

    static func parseLED(_ reader: inout TableReader, driver: PanelDriverKind) -> LEDSettings {
        var led = LEDSettings()
        for key in ["width", "height"] {
            guard let value = reader.int(key) else { continue }
            if value < 1 { reader.fail(key, "must be at least 1 pixel, not \(value)") }
            if key == "width" { led.width = value } else { led.height = value }
        }
        if driver == .max7219 {
            if let w = led.width ?? 32 as Int?, let h = led.height ?? 8 as Int?, w % 8 != 0 || h % 8 != 0 {
                reader.fail(led.width.map { _ in "width" } ?? "height", "a MAX7219 cascade is whole 8×8 blocks: \(w)×\(h) is not")
            }
            if let orientation = reader.int("orientation") {
                if [0, 90, -90, 180].contains(orientation) { led.orientation = orientation } else {
                    reader.fail("orientation", "must be 0, 90, -90 or 180, not \(orientation)")
                }
            }
            led.reverseBlocks = reader.bool("reverse_blocks") ?? led.reverseBlocks
        }
        if driver == .ws2812 {
            led.wiring = reader.choice("wiring") ?? led.wiring
            if let limit = reader.int("current_limit_ma") {
                if limit >= 100 { led.currentLimitMilliamps = limit } else { reader.fail("current_limit_ma", "must be at least 100 mA, not \(limit)") }
            }
        }
        if driver == .framebuffer { led.format = reader.choice("format") }
        if driver == .hub75 {
            if let rows = led.height { led.matrix.rows = rows }
            if let columns = led.width { led.matrix.columns = columns }
            led.width = nil
            led.height = nil
            if let chain = reader.int("chain") { if chain >= 1 { led.matrix.chain = chain } else { reader.fail("chain", "must be at least 1") } }
            if let parallel = reader.int("parallel") {
                if (1...3).contains(parallel) { led.matrix.parallel = parallel } else { reader.fail("parallel", "must be 1, 2 or 3, not \(parallel)") }
            }
            led.matrix.hardwareMapping = reader.string("hardware_mapping") ?? led.matrix.hardwareMapping
            if let slowdown = reader.int("gpio_slowdown") {
                if (0...4).contains(slowdown) { led.matrix.gpioSlowdown = slowdown } else { reader.fail("gpio_slowdown", "must be 0 to 4, not \(slowdown)") }
            }
            if let bits = reader.int("pwm_bits") {
                if (1...11).contains(bits) { led.matrix.pwmBits = bits } else { reader.fail("pwm_bits", "must be 1 to 11, not \(bits)") }
            }
        }
        if let brightness = reader.int("brightness") {
            if (0...100).contains(brightness) { led.brightness = brightness } else { reader.fail("brightness", "must be 0 to 100 (percent), not \(brightness)") }
        }
        led.matrix.brightness = max(1, led.brightness)
        if let entries = reader.strings("brightness_schedule") {
            var changes: [BrightnessSchedule.Change] = []
            for entry in entries {
                let parts = entry.split(separator: "=")
                guard parts.count == 2, let minute = BrightnessSchedule.minute(of: String(parts[0])), let percent = Int(parts[1]), (0...100).contains(percent) else {
                    reader.fail("brightness_schedule", "\"\(entry)\" is not \"HH:MM=PERCENT\" such as \"22:00=10\"")
                    continue
                }
                changes.append(.init(minute: minute, level: Double(percent) / 100))
            }
            do { _ = try BrightnessSchedule(changes); led.schedule = changes } catch { reader.fail("brightness_schedule", error.description) }
        }
        if let seconds = reader.int("blank_after_seconds") {
            if seconds >= 1 { led.blankAfterSeconds = seconds } else { reader.fail("blank_after_seconds", "must be at least 1, not \(seconds)") }
        }
        if let fps = reader.int("fps") {
            if (1...60).contains(fps) { led.framesPerSecond = fps } else { reader.fail("fps", "must be 1 to 60 frames a second, not \(fps)") }
        }
        return led
    }

    /// The keys of a `driver = "vestaboard"` panel.
    static func parseVestaboard(_ reader: inout TableReader) -> VestaboardSettings {
        var settings = parseBoardAccess(&reader)
        settings.strategy = reader.choice("strategy") ?? settings.strategy
        settings.onConflict = reader.choice("on_conflict") ?? settings.onConflict
        return settings
    }

    /// Which API, where, and the file holding its credential.
    static func parseBoardAccess(_ reader: inout TableReader) -> VestaboardSettings {
        var settings = VestaboardSettings()
        settings.api = reader.choice("api") ?? settings.api
        settings.url = reader.string("url")
        let key = reader.string("key_file"), token = reader.string("token_file")
        switch settings.api {
        case .cloud:
            if key != nil { reader.fail("key_file", "the Cloud API takes a token: token_file = \"/etc/flapd/vestaboard-token\"") }
            settings.credentialFile = token
        case .local, .rw:
            if token != nil { reader.fail("token_file", "the \(settings.api.title) API takes a key: key_file = \"/etc/flapd/vestaboard-key\"") }
            settings.credentialFile = key
        }
        if settings.credentialFile == nil {
            reader.fail(settings.api == .cloud ? "token_file" : "key_file", settings.api == .cloud
                ? "a Cloud API token is needed (the Vestaboard web app, Developer section), in a file: token_file = \"/etc/flapd/vestaboard-token\""
                : settings.api == .local
                ? "the board's Local API key is needed, in a file: key_file = \"/etc/flapd/vestaboard-key\" (docs/vestaboard.md)"
                : "the Read/Write key is needed (the Vestaboard app, Settings), in a file: key_file = \"/etc/flapd/vestaboard-key\"")
        }
        if settings.api == .local, settings.url == nil { reader.fail("url", "the board's Local API address is needed: url = \"http://vestaboard.local:7000\"") }
        if let url = settings.url, !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
            reader.fail("url", "\"\(url)\" is not an http:// or https:// address")
        }
        return settings
    }
}
