import ArgumentParser
import FlapCore
import FlapDisplay
import FlapHeartRate
import FlapMQTT
import FlapMessaging
import FlapRooms
import FlapSensorDrivers
import FlapStorage
import FoundationEssentials
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// `flapd`: the appliance service.
public struct Flapd: AsyncParsableCommand {
    /// Its name, its help and its version.
    public static let configuration = CommandConfiguration(
        commandName: "flapd",
        abstract: "VestaWidget's service: shows messages on split-flap and LED panels.",
        discussion: """
            Reads /etc/flapd/flapd.toml (or --config). With --simulate it needs no file: one 6x22 \
            simulated panel drawn in the terminal (logged when stdout is not a terminal), both APIs on \
            loopback, state in the XDG state directory. The flags below override the file.
            """,
        version: Appliance.version)

    @Option(help: "The configuration file.")
    var config: String?

    @Flag(help: "Run simulated panels; no configuration file needed.")
    var simulate = false

    @Option(help: "Directory for the inbox, keys and panel state.")
    var stateDir: String?

    @Option(help: "Address the APIs listen on (default 127.0.0.1).")
    var listen: String?

    @Option(help: "Port of the native API (default 8080; 0 picks a free one).")
    var apiPort: Int?

    @Option(help: "HTTPS port of the page, the native API and /mcp (default 8443; 0 picks a free one).")
    var httpsPort: Int?

    @Option(help: "Port of the Vestaboard-compatible Local API (default 7000; 0 picks a free one).")
    var localAPIPort: Int?

    @Option(help: "The native API's bearer key (prefer --api-key-file: flags are visible to other users).")
    var apiKey: String?

    @Option(help: "A file holding the native API's bearer key.")
    var apiKeyFile: String?

    @Option(help: "The Local API enablement token (made and stored in the state directory when not given).")
    var localAPIToken: String?

    @Option(help: "Messages per sender per hour (0: no limit; default 50).")
    var rateLimit: Int?

    @Option(help: "An MQTT broker to take messages from: mqtt://HOST:PORT (mqtts:// for TLS).")
    var mqtt: String?

    @Option(help: "This display's id in MQTT topics (default: [mqtt] device_id, else the host name).")
    var deviceID: String?

    @Option(help: "An MQTT group to join (vestawidget/group/NAME/message); repeat for more.")
    var group: [String] = []

    @Flag(help: "No clack sound.")
    var noSound = false

    @Option(help: "The ALSA device for the clacks (default: [sound] device, else \"default\").")
    var soundDevice: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String?

    @Option(
        help: ArgumentHelp(
            "The first panel's driver: \(PanelKinds.usage); DEVICE 'simulated' for simulated hardware; no configuration file needed.",
            valueName: "driver[=device]"))
    var panel: String?

    @Option(help: "The first panel's Vestaboard model: flagship (6×22, flap 62 is °) or note (3×15, flap 62 is a heart).")
    var model: BoardModel?

    @Option(help: "What the first panel's flap 62 shows: heart (Notes, Flagships from 2026) or degree (older Flagships).")
    var flap62: Flap62?

    @Option(help: "Rows of the first panel (with a controller: its modules make the columns).")
    var rows: Int?

    @Option(help: "Columns of the first panel (with a controller: its modules make the rows).")
    var columns: Int?

    @Option(
        help: ArgumentHelp(
            "A heart-rate source: ble[=ADAPTER], ant[=DEVICE], serial=DEVICE or simulated; repeat for more. --simulate reads simulated straps in place of the configured ones.",
            valueName: "driver[=device]"))
    var sensor: [String] = []

    @Option(help: "Join this Wematch room over MQTT (needs --mqtt or [mqtt]): this kiosk's straps become members; with none, it watches.")
    var room: String?

    @Option(help: "Where Find my board looks for devices (default /dev): a folder laid out as /dev, such as flapctl simulate-hardware makes.")
    var devices: String?

    @Flag(help: "Check the configuration, print what is wrong, and exit.")
    var checkConfig = false

    /// Made by ArgumentParser from the command line.
    public init() {}

    /// Parses the process's arguments and runs; usage and configuration errors exit with 64 and say what is wrong on stderr.
    public static func runMain() async {
        do {
            var command = try parseAsRoot()
            if let flapd = command as? Flapd {
                try await flapd.run()
            } else {
                try command.run()
            }
        } catch let error as ServiceError {
            // Without the usage text (the command line was right); the status tells systemd whether a restart helps.
            let line = Array("Error: \(error.description)\n".utf8)
            _ = line.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
            Glibc.exit(error.exitStatus)
        } catch {
            exit(withError: error)
        }
    }

    /// Checks the configuration (`--check-config`) or runs the appliance until it is stopped.
    public func run() async throws {
        let configuration = try flapdConfiguration()
        if checkConfig {
            print(
                "configuration OK: \(configuration.panels.count) panel(s), \(configuration.sensors.count) heart-rate source(s), "
                    + "\(configuration.sources.count) content source(s), \(configuration.triggers.count) trigger(s), \(configuration.schedules.count) schedule(s)"
            )
            return
        }
        let level = Logger.Level(rawValue: configuration.logLevel) ?? .info
        LoggingSystem.bootstrap { JournalLogHandler(label: $0, level: level) }
        let logger = Logger(label: "flapd")
        DescriptorLimit.raise(logger: logger)
        // Everything flapd writes (the inbox with its messages and sender names, keys, sessions)
        // is the owner's alone: files 0600, folders 0700, whatever umask flapd was started with.
        umask(0o077)
        try await ApplianceRuns(command: self, logger: logger).run(from: configuration)
    }

    /// The configuration these flags and the file they name make.
    public func flapdConfiguration() throws -> FlapdConfiguration {
        var configuration = try loadConfiguration()
        try apply(to: &configuration)
        return configuration
    }

    func apply(to configuration: inout FlapdConfiguration) throws {
        if let panel {
            let parts = panel.split(separator: "=", maxSplits: 1).map(String.init)
            // Checked in validate(): a driver's name.
            let kind = PanelKinds.named(parts[0]) ?? SimulatedPanelKind()
            configuration.panels[0].kind = kind
            configuration.panels[0].options = nil
            configuration.panels[0].device = parts.count > 1 ? parts[1] : nil
            configuration.panels[0].drum = kind.defaultDrum
            if simulate, kind.simulatedUnderSimulate { configuration.panels[0].device = "simulated" }
        }
        if rows != nil || columns != nil {
            configuration.panels[0].rows = rows
            configuration.panels[0].columns = columns
            configuration.panels[0].size = rows.flatMap { r in columns.map { BoardSize(rows: r, columns: $0) } }
        }
        if let model {
            configuration.panels[0].size = model.size
            configuration.panels[0].drum.flap62 = model.flap62
        }
        if let flap62 {
            guard configuration.panels[0].drum.contains(.degree) else {
                throw ValidationError("--flap62: the first panel's drum (\(configuration.panels[0].drum.name)) has no flap 62")
            }
            configuration.panels[0].drum.flap62 = flap62
        }
        if let stateDir { configuration.stateDirectory = stateDir }
        if let devices { configuration.devices = devices }
        if let listen { configuration.listen = listen }
        if let apiPort { configuration.api.port = apiPort }
        if let httpsPort { configuration.api.httpsPort = httpsPort }
        if let localAPIPort { configuration.localAPI.port = localAPIPort }
        if let apiKey { configuration.api.key = .value(apiKey) }
        if let apiKeyFile { configuration.api.key = .file(apiKeyFile) }
        if let localAPIToken { configuration.localAPI.enablementToken = .value(localAPIToken) }
        if let rateLimit { configuration.messages.ratePerHour = rateLimit }
        if let logLevel { configuration.logLevel = logLevel }
        if noSound { configuration.sound.enabled = false }
        if let mqtt {
            let id = deviceID ?? configuration.mqtt?.deviceID ?? MQTTSettings.defaultDeviceID
            var settings = (try? MQTTSettings(url: mqtt, deviceID: id)) ?? MQTTSettings(host: "", port: 0, deviceID: id)
            if let configured = configuration.mqtt {
                settings.groups = configured.groups
                settings.username = settings.username ?? configured.username
                settings.passwordFile = configured.passwordFile
                settings.homeAssistant = configured.homeAssistant
            }
            configuration.mqtt = settings
        }
        if let deviceID { configuration.mqtt?.deviceID = deviceID }
        if !group.isEmpty, var settings = configuration.mqtt {
            settings.groups = Array(Set(settings.groups + group)).sorted()
            configuration.mqtt = settings
        }
        if let soundDevice { configuration.sound.device = soundDevice }
        if simulate {
            // Simulated hardware reads simulated straps, as many as the configured sources follow.
            configuration.sensors = configuration.sensors.map(SensorKinds.simulatedTwin(of:))
            if configuration.sensors.isEmpty, sensor.isEmpty { configuration.sensors = [SensorSettings(driver: .simulated)] }
        }
        if let room {
            var settings = configuration.room ?? RoomSettings(name: room)
            settings = RoomSettings(name: room, keeping: settings)
            configuration.room = settings
            // With no file to say otherwise, the panels show the room they joined.
            if config == nil { for index in configuration.panels.indices { configuration.panels[index].policy = .kiosk } }
        }
        // Sources named on the command line are taken as given (a pseudo-terminal is a fine serial sensor).
        configuration.sensors += sensor.compactMap { try? SensorKinds.settings(flag: $0) }
    }

    /// Refuses flags that cannot go together or cannot work, saying why.
    public func validate() throws {
        if model != nil, rows != nil || columns != nil { throw ValidationError("give --model or --rows and --columns, not both") }
        if let mqtt {
            do { _ = try MQTTSettings(url: mqtt, deviceID: deviceID ?? "x") } catch { throw ValidationError("--mqtt: \(error)") }
        }
        // A device id or group becomes a topic level: "" or "a/b" would publish to vestawidget//…
        var levels = MQTTSettings(host: "", port: 0, deviceID: deviceID ?? "x")
        levels.groups = group
        if let problem = levels.validate().first { throw ValidationError("--device-id or --group: \(problem)") }
        if mqtt == nil, deviceID != nil || !group.isEmpty, config == nil {
            throw ValidationError("--device-id and --group go with --mqtt (or [mqtt] in the configuration)")
        }
        if let listen, let problem = FlapdConfiguration.listenProblem(listen) { throw ValidationError("--listen: \(problem)") }
        if let panel {
            let parts = panel.split(separator: "=", maxSplits: 1).map(String.init)
            guard PanelKinds.named(parts[0]) != nil else {
                throw ValidationError("--panel: unknown driver \"\(parts[0])\"; use one of \(PanelKinds.names.joined(separator: ", "))")
            }
            if parts[0] == "simulated", parts.count > 1 { throw ValidationError("--panel simulated takes no device") }
            if parts.count > 1, parts[1].isEmpty { throw ValidationError("--panel \(parts[0])= needs a device, such as /dev/ttyUSB0") }
        }
        for (name, value) in [("--rows", rows), ("--columns", columns)] {
            if let value, value < 1 { throw ValidationError("\(name) must be at least 1") }
        }
        if apiKey != nil, apiKeyFile != nil { throw ValidationError("give --api-key or --api-key-file, not both") }
        if let rateLimit, rateLimit < 0 { throw ValidationError("--rate-limit must be 0 (no limit) or more") }
        for (name, port) in [("--api-port", apiPort), ("--https-port", httpsPort), ("--local-api-port", localAPIPort)] {
            if let port, !(0...65535).contains(port) { throw ValidationError("\(name) must be 0 to 65535") }
        }
        if let room, let problem = RoomSettings(name: room).problem() { throw ValidationError("--room: \(problem)") }
        if room != nil, mqtt == nil, config == nil { throw ValidationError("--room needs --mqtt (a room is shared through an MQTT broker)") }
        for flag in sensor {
            do { _ = try SensorKinds.settings(flag: flag) } catch { throw ValidationError("--sensor \(flag): \(error)") }
        }
        if let logLevel, Logger.Level(rawValue: logLevel) == nil {
            throw ValidationError("--log-level must be trace, debug, info, notice, warning, error or critical")
        }
    }
}

extension BoardModel: ExpressibleByArgument {}
extension Flap62: ExpressibleByArgument {}
