import FlapMQTTClient
import FlapDisplay
import FlapTOML
import FlapTime
import FlapCore
import FlapHardware
import FlapJSON
import FlapMessaging
import FlapMQTT
import FlapSources
import FoundationEssentials

/// Reads flapd.toml. Every problem is reported, each with its key and line; unknown keys are
/// problems too (a misspelt key that is silently ignored is a setting that silently does nothing).
public enum ConfigurationParser {
    public static func parse(_ text: String, file: String) throws(ConfigurationError) -> FlapdConfiguration {
        let table: TOMLTable
        do {
            table = try TOMLParser.parse(text)
        } catch {
            throw ConfigurationError(file: file, problems: [.init(key: "", line: error.line, problem: "not valid TOML: column \(error.column): \(error.message)")])
        }
        var reader = TableReader(table: table, path: "", index: TOMLLineIndex(text), keys: ConfigurationKeys.file)
        var configuration = FlapdConfiguration()
        readTopLevel(&reader, into: &configuration)
        reader.section("api") { readAPI(&$0, into: &configuration) }
        reader.section("local_api") { readLocalAPI(&$0, into: &configuration) }
        reader.section("messages") { readMessages(&$0, into: &configuration) }
        reader.section("time") { readTime(&$0, into: &configuration) }
        reader.section("sound") { readSound(&$0, into: &configuration) }
        reader.section("mqtt") { configuration.mqtt = parseMQTT(&$0) }
        readPanels(&reader, into: &configuration)
        reader.sections("sensor") { _, sensor in configuration.sensors.append(parseSensor(&sensor)) }
        reader.section("location") { configuration.location = parseLocation(&$0) }
        reader.sections("source") { _, source in addSource(&source, to: &configuration) }
        reader.sections("trigger") { _, trigger in addTrigger(&trigger, to: &configuration) }
        reader.sections("schedule") { _, schedule in addSchedule(&schedule, to: &configuration) }
        reader.sections("mirror") { index, mirror in configuration.mirrors.append(parseMirror(&mirror, index: index)) }
        reader.section("room") { configuration.room = parseRoom(&$0) }
        checkAcrossTables(&reader, configuration)
        // Only a file otherwise right: a table left out by its problems would shift the numbers.
        if reader.problems.isEmpty { checkTemplates(&reader, configuration) }
        reader.finish()
        guard reader.problems.isEmpty else { throw ConfigurationError(file: file, problems: reader.problems) }
        return configuration
    }

    /// What one table's settings need of another's.
    private static func checkAcrossTables(_ reader: inout TableReader, _ configuration: FlapdConfiguration) {
        if configuration.room != nil && configuration.mqtt == nil { reader.fail("room", "a room is shared over MQTT: configure [mqtt] too") }
        for (index, panel) in configuration.panels.enumerated() where panel.policy == .kiosk && configuration.room == nil {
            reader.fail("panel[\(index)].policy", "policy = \"kiosk\" shows a Wematch room: configure [room] too")
        }
    }

    private static func readPanels(_ reader: inout TableReader, into configuration: inout FlapdConfiguration) {
        guard reader["panel"] != nil else { return }
        configuration.panels = []
        reader.sections("panel") { _, panel in configuration.panels.append(parsePanel(&panel)) }
        let ids = configuration.panels.map(\.id)
        for (i, id) in ids.enumerated() where ids[..<i].contains(id) {
            reader.fail("panel[\(i)].id", "another panel is called \(id) too; give each its own id")
        }
        if configuration.panels.isEmpty { reader.fail("panel", "configure at least one [[panel]]") }
    }

    /// `[location] latitude = 52.52, longitude = 13.40`: degrees, north and east positive.
    private static func parseLocation(_ reader: inout TableReader) -> GeoLocation? {
        defer { reader.finish() }
        let latitude = reader.number("latitude"), longitude = reader.number("longitude")
        guard let latitude, let longitude else {
            reader.fail("latitude", "[location] needs latitude and longitude in degrees, such as latitude = 52.52 and longitude = 13.40")
            return nil
        }
        if !(-90...90).contains(latitude) { reader.fail("latitude", "must be -90 to 90 (degrees, north positive), not \(latitude)") }
        if !(-180...180).contains(longitude) { reader.fail("longitude", "must be -180 to 180 (degrees, east positive), not \(longitude)") }
        return GeoLocation(latitude: latitude, longitude: longitude)
    }

    private static func addSchedule(_ reader: inout TableReader, to configuration: inout FlapdConfiguration) {
        guard let definition = parseSchedule(&reader, location: configuration.location) else { return }
        if configuration.schedules.contains(where: { $0.name == definition.name }) {
            reader.fail("name", "another schedule is called \(definition.name) too; give each its own name")
        } else {
            configuration.schedules.append(definition)
        }
    }

    private static func parseMQTT(_ reader: inout TableReader) -> MQTTSettings? {
        defer { reader.finish() }
        guard let url = reader.string("url") else {
            reader.fail("url", "[mqtt] needs url = \"mqtt://broker:1883\"")
            return nil
        }
        var settings: MQTTSettings
        do {
            settings = try MQTTSettings(url: url, deviceID: reader.string("device_id") ?? MQTTSettings.defaultDeviceID)
        } catch {
            reader.fail("url", error.description)
            return nil
        }
        settings.groups = reader.strings("groups") ?? []
        settings.username = reader.string("username") ?? settings.username
        settings.passwordFile = reader.string("password_file")
        settings.caFile = reader.string("ca_file")
        settings.certificateFile = reader.string("cert_file")
        settings.keyFile = reader.string("key_file")
        if settings.certificateFile != nil || settings.caFile != nil { settings.tls = true }
        settings.protocolVersion = reader.choice("protocol") ?? settings.protocolVersion
        settings.homeAssistant = reader.bool("home_assistant") ?? true
        settings.baseTopic = reader.string("base_topic") ?? settings.baseTopic
        if let keepAlive = reader.int("keepalive") {
            if keepAlive >= 5 { settings.keepAlive = keepAlive } else { reader.fail("keepalive", "must be at least 5 seconds") }
        }
        for problem in settings.validate() { reader.fail("device_id", problem) }
        return settings
    }

    private static func parsePanel(_ reader: inout TableReader) -> PanelConfiguration {
        var panel = PanelConfiguration()
        panel.id = reader.string("id") ?? panel.id
        panel.driver = reader.choice("driver", PanelDriverKind.names).flatMap(PanelDriverKind.init(rawValue:)) ?? panel.driver
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
        switch reader.choice("policy", ["latest", "sender", "rotate", "kiosk"]) {
        case "sender":
            if let sender = reader.string("sender") { panel.policy = .sender(sender) } else {
                reader.fail("policy", "policy = \"sender\" needs sender = \"<sender id>\"")
            }
        case "rotate":
            let seconds = reader.int("rotate_seconds") ?? 30
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
        reader.finish(adding: (panel.isLED ? ConfigurationKeys.panelLED : []) + (panel.driver == .vestaboard ? ConfigurationKeys.panelVestaboard : []))
        return panel
    }

    /// A `[[schedule]]`: the same fields as `/v1/schedules`, in the file's snake case.
    private static func parseSchedule(_ reader: inout TableReader, location: GeoLocation?) -> ScheduleDefinition? {
        guard let name = reader.string("name") else {
            reader.fail("name", "a schedule needs a name, such as name = \"good-morning\"")
            return nil
        }
        var definition = ScheduleDefinition(name: name)
        definition.days = reader.oneOrMoreStrings("days")
        definition.times = reader.oneOrMoreStrings("times")
        definition.cron = reader.string("cron")
        definition.timeZone = reader.string("time_zone")
        definition.text = reader.string("text")
        definition.codes = reader.intLists("codes", example: "[[0, 0, 63, 63, …], …] (one row of character codes per panel row)")
        // A VBML document as its JSON text, as Vestaboard's tools write it: vbml = '{"components": […]}'
        if let text = reader.string("vbml") {
            if let document = try? JSONValue(parsing: Array(text.utf8)), document.object != nil {
                definition.vbml = document
            } else {
                reader.fail("vbml", #"must be a VBML document as JSON text, such as '{"components": [{"template": "GOOD MORNING {{weekday}}"}]}'"#)
            }
        }
        definition.quickMessage = reader.string("quick_message")
        definition.align = reader.string("align")
        definition.holdMinutes = reader.int("hold_minutes")
        definition.sender = reader.string("sender")
        reader.finish()
        do {
            _ = try definition.recurrence(location: location)
        } catch {
            let keys = ["timeZone": "time_zone", "quickMessage": "quick_message", "holdMinutes": "hold_minutes"]
            for problem in error.problems { reader.fail(keys[problem.field] ?? problem.field, problem.problem) }
            return nil
        }
        return definition
    }

    /// `quiet_hours = "22:00-07:00"`, `quiet = "hold" | "blank" | "message" | "dim"` (LED panels
    /// and screens), `quiet_message = "<quick message>"` with `message`.
    private static func parseQuietHours(_ reader: inout TableReader, led: Bool) -> BoardQuietHours? {
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

    private static func parseLED(_ reader: inout TableReader, driver: PanelDriverKind) -> LEDSettings {
        var led = LEDSettings()
        for key in ["width", "height"] {
            guard let value = reader.int(key) else { continue }
            if value < 1 { reader.fail(key, "must be at least 1 pixel, not \(value)") }
            if key == "width" { led.width = value } else { led.height = value }
        }
        if driver == .max7219, let w = led.width ?? 32 as Int?, let h = led.height ?? 8 as Int?, w % 8 != 0 || h % 8 != 0 {
            reader.fail(led.width.map { _ in "width" } ?? "height", "a MAX7219 cascade is whole 8×8 blocks: \(w)×\(h) is not")
        }
        if let orientation = reader.int("orientation") {
            if [0, 90, -90, 180].contains(orientation) { led.orientation = orientation } else {
                reader.fail("orientation", "must be 0, 90, -90 or 180, not \(orientation)")
            }
        }
        led.reverseBlocks = reader.bool("reverse_blocks") ?? false
        led.wiring = reader.choice("wiring") ?? led.wiring
        if let limit = reader.int("current_limit_ma") {
            if limit >= 100 { led.currentLimitMilliamps = limit } else { reader.fail("current_limit_ma", "must be at least 100 mA, not \(limit)") }
        }
        led.format = reader.choice("format")
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

    /// What is wrong with an `allowed_hosts` entry, or nil: a name or address as a Host header
    /// gives it, without a scheme, a port or a path.
    static func hostProblem(_ host: String) -> String? {
        if host.isEmpty { return "an empty name" }
        if host.contains("://") || host.contains("/") { return "\(host.debugDescription): give the name alone, without http:// or a path" }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if !bare.contains(":"), !bare.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }) {
            return "\(host.debugDescription) is not a host name or address"
        }
        if bare.filter({ $0 == ":" }).count == 1 { return "\(host.debugDescription) has a port in it; give the name alone (any port is allowed)" }
        return nil
    }
}
