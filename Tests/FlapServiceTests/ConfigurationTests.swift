import FlapCore
import FlapDisplay
import FlapHardware
import FlapHeartRate
import FlapJSON
import FlapMessaging
import FlapRooms
import FlapSensorDrivers
import FlapTime
import FlapVestaboard
import Foundation
import TestSupport
import Testing
import Wematch

@testable import FlapService
@testable import FlapSources

@Suite struct ConfigurationTests {
    func problems(_ text: String) -> [String] {
        do {
            _ = try ConfigurationParser.parse(text, file: "flapd.toml")
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    /// The case of the problem found at `key` in `text`, for a test to match.
    func problem(at key: String, _ text: String) -> ConfigurationProblem? {
        do {
            _ = try ConfigurationParser.parse(text, file: "flapd.toml")
            return nil
        } catch {
            return error.problems.first { $0.key == key }?.kind
        }
    }

    @Test func theExampleConfigurationParsesToTheDefaults() throws {
        let text = try String(contentsOf: PythonPeer.packageRoot.appendingPathComponent("flapd.example.toml"), encoding: .utf8)
        let parsed = try ConfigurationParser.parse(text, file: "flapd.example.toml")
        var defaults = FlapdConfiguration()
        defaults.panels[0].size = .flagship
        // The one value the package chooses: on the network, so a phone can set the board up.
        defaults.listen = "0.0.0.0"
        #expect(parsed == defaults)
    }

    @Test func theRS485GuidesPanelDropsIntoTheShippedFile() throws {
        let shipped = try String(contentsOf: PythonPeer.packageRoot.appendingPathComponent("flapd.example.toml"), encoding: .utf8)
        let guide = try String(contentsOf: PythonPeer.packageRoot.appendingPathComponent("hardware/rs485.md"), encoding: .utf8)
        let configuration = try #require(guide.components(separatedBy: "## Configuration").dropFirst().first)
        let block = try #require(configuration.components(separatedBy: "```toml\n").dropFirst().first?.components(separatedBy: "```").first)
        // In place of the shipped panel, as the guide says.
        let start = try #require(shipped.range(of: "[[panel]]\n")).lowerBound
        let end = try #require(shipped.range(of: "\n[", range: shipped.index(after: start)..<shipped.endIndex)).lowerBound
        let replaced = shipped.replacingCharacters(in: start..<end, with: block)
        #expect(try ConfigurationParser.parse(replaced, file: "flapd.toml").panels.map(\.driver) == ["rs485"])
        // Or beside it, as a second panel.
        #expect(try ConfigurationParser.parse(shipped + "\n" + block, file: "flapd.toml").panels.map(\.driver) == ["simulated", "rs485"])
        // Or the shipped panel's driver changed in place, with the size the guide gives.
        let changed = shipped.replacingOccurrences(of: "driver = \"simulated\"", with: "driver = \"rs485\"")
            .replacingOccurrences(of: "size = \"flagship\"", with: "size = \"3x15\"")
        #expect(problems(changed).isEmpty, "\(problems(changed))")
    }

    @Test func everySettingIsRead() throws {
        let parsed = try ConfigurationParser.parse(
            """
            state_dir = "/srv/flapd"
            listen = "0.0.0.0"
            [api]
            port = 9000
            key_file = "/run/credentials/flapd.service/api-key"
            allowed_hosts = ["board.example.org", "10.0.0.7", "[fe80::1]"]
            [local_api]
            enablement_token = "tok"
            [messages]
            rate_limit = 0
            allow = ["kitchen", "phone"]
            [[panel]]
            id = "hall"
            size = "3x15"
            drum = "chainlink52"
            period_ms = 80
            policy = "rotate"
            rotate_seconds = 10
            [[panel]]
            id = "desk"
            drum_string = " ABCr"
            policy = "sender"
            sender = "phone"
            """, file: "f")
        #expect(parsed.stateDirectory == "/srv/flapd" && parsed.listen == "0.0.0.0" && parsed.api.port == 9000)
        #expect(parsed.api.key == .file("/run/credentials/flapd.service/api-key"))
        #expect(parsed.api.allowedHosts == ["board.example.org", "10.0.0.7", "[fe80::1]"])
        #expect(parsed.localAPI.enablementToken == .value("tok"))
        #expect(parsed.messages.ratePerHour == 0 && parsed.messages.allow == ["kitchen", "phone"])
        #expect(parsed.panels.map(\.id) == ["hall", "desk"])
        #expect(parsed.panels[0].size == .note && parsed.panels[0].drum == .chainlink52 && parsed.panels[0].flapPeriodMs == 80)
        #expect(parsed.panels[0].policy == .rotate(every: .seconds(10)))
        #expect(parsed.panels[1].drum.count == 5 && parsed.panels[1].policy == .sender("phone"))
    }

    @Test func allowedHostsAreNamesWithoutSchemesOrPorts() throws {
        for (entry, problem) in [
            ("\"http://board.example.org\"", "without http://"), ("\"board.example.org:8080\"", "has a port in it"),
            ("\"\"", "an empty name"), ("\"my board\"", "is not a host name")
        ] {
            let found = problems("[api]\nallowed_hosts = [\(entry)]\n")
            #expect(found.count == 1 && found[0].contains("allowed_hosts") && found[0].contains(problem), "\(entry): \(found)")
        }
    }

    @Test func theClockSettingIsReadAndAWrongOneNamed() throws {
        #expect(try ConfigurationParser.parse("[time]\nclock = \"trusted\"\n", file: "flapd.toml").time.clock == .trusted)
        #expect(try ConfigurationParser.parse("", file: "flapd.toml").time.clock == .auto)
        #expect(problems("[time]\nclock = \"rtc\"\n").count == 1)
        #expect(problem(at: "time.clock", "[time]\nclock = \"rtc\"\n") == .notOneOf("rtc", choices: ["auto", "trusted"]))
    }

    @Test func aPanelsQuietHoursAreReadAndMistakesNamed() throws {
        let parsed = try ConfigurationParser.parse(
            "[[panel]]\nquiet_hours = \"22:00-07:00\"\nquiet = \"message\"\nquiet_message = \"Good night\"\n", file: "flapd.toml")
        #expect(parsed.panels[0].quiet == BoardQuietHours(hours: QuietHours("22:00-07:00")!, action: .message("Good night")))
        #expect(try ConfigurationParser.parse("[[panel]]\nquiet_hours = \"22:00-07:00\"\n", file: "flapd.toml").panels[0].quiet?.action == .hold)
        #expect(problem(at: "panel[0].quiet_hours", "[[panel]]\nquiet_hours = \"10pm-7am\"\n") == .notASpanOfTime("10pm-7am"))
        #expect(problems("[[panel]]\nquiet_hours = \"22:00-07:00\"\nquiet = \"dim\"\n").first?.contains("LED panels and screens") == true)
        #expect(problems("[[panel]]\nquiet_hours = \"22:00-07:00\"\nquiet = \"message\"\n").first?.contains("quiet_message") == true)
        #expect(problems("[[panel]]\nquiet = \"blank\"\n").first?.contains("quiet_hours") == true)
        // An LED panel dims by its brightness schedule; without one, "dim" would do nothing.
        #expect(
            problems("[[panel]]\ndriver = \"max7219\"\nquiet_hours = \"22:00-07:00\"\nquiet = \"dim\"\n").first?.contains("brightness_schedule")
                == true)
        let dimming = try ConfigurationParser.parse(
            "[[panel]]\ndriver = \"max7219\"\nquiet_hours = \"22:00-07:00\"\nquiet = \"dim\"\nbrightness_schedule = [\"22:00=10\", \"07:00=100\"]\n",
            file: "flapd.toml")
        #expect(dimming.panels[0].quiet?.action == .dim)
    }

    @Test func aSchedulesVBMLIsItsDocumentAsJSONText() throws {
        let parsed = try ConfigurationParser.parse(
            """
            [[schedule]]
            name = "morning"
            times = ["07:00"]
            vbml = '{"components": [{"template": "GOOD MORNING {{weekday}}"}]}'
            """, file: "flapd.toml")
        #expect(parsed.schedules[0].vbml?["components"]?.array?.first?["template"] == "GOOD MORNING {{weekday}}")
        #expect(
            problems("[[schedule]]\nname = \"m\"\ntimes = [\"07:00\"]\nvbml = '{not json'\n").first?.hasPrefix(
                "line 4, schedule[0].vbml: must be a VBML document") == true)
    }

    @Test func theLocationLetsSchedulesFollowTheSun() throws {
        let parsed = try ConfigurationParser.parse(
            """
            [[schedule]]
            name = "lights"
            times = ["sunset+30m"]
            text = "LIGHTS ON"

            [location]
            latitude = 52.52
            longitude = 13
            """, file: "flapd.toml")
        #expect(parsed.location == GeoLocation(latitude: 52.52, longitude: 13))
        #expect(
            problems("[[schedule]]\nname = \"l\"\ntimes = [\"sunrise\"]\ntext = \"X\"\n")
                == ["line 3, schedule[0].times: sunrise and sunset need the board's location: [location] latitude and longitude in flapd.toml"])
        #expect(
            problems("[location]\nlatitude = 95\nlongitude = 0\n") == [
                "line 2, location.latitude: must be -90 to 90 (degrees, north positive), not 95.0"
            ])
    }

    @Test func sourcesAndTriggersAreRead() throws {
        let parsed = try ConfigurationParser.parse(
            """
            [[source]]
            name = "weather"
            kind = "json"
            url = "https://api.open-meteo.com/v1/forecast?latitude=52.52&longitude=13.41&current=temperature_2m"
            every = "15m"
            stale_after = "3h"
            values = { temperature = "/current/temperature_2m" }

            [[source]]
            name = "outside"
            kind = "json"
            url = "http://homeassistant.local:8123/api/states/sensor.outdoor_temperature"
            header_files = { Authorization = "/etc/flapd/home-assistant-token" }
            values = { temperature = "/state" }

            [[source]]
            name = "door"
            kind = "webhook"
            fields = ["state"]

            [[trigger]]
            name = "frost"
            source = "weather"
            value = "temperature"
            below = 0
            text = "FROST {{weather.temperature}}"
            duration = "10m"
            cooldown = "6h"

            [[trigger]]
            name = "door"
            source = "door"
            equals = "open"
            value = "state"
            text = "DOOR OPEN"
            cooldown = 0
            """, file: "flapd.toml")
        #expect(parsed.sources.map(\.name) == ["weather", "outside", "door"])
        #expect(parsed.sources[0].every == .seconds(900) && parsed.sources[0].staleAfter == .seconds(10_800))
        #expect(parsed.sources[1].headerFiles == ["Authorization": "/etc/flapd/home-assistant-token"])
        #expect(parsed.triggers.map(\.condition) == [.below(value: "temperature", 0), .equals(value: "state", "open")])
        #expect(parsed.triggers[0].duration == 600 && parsed.triggers[0].cooldown == .seconds(21_600) && parsed.triggers[1].cooldown == .zero)
        #expect(
            problems("[[source]]\nname = \"Weather\"\nkind = \"json\"\nurl = \"ftp://x\"\nvalues = { t = \"current\" }\n") == [
                "line 2, source[0].name: \"Weather\" must be lowercase letters, digits and _, starting with a letter (it is how templates name it: {{Weather.value}})",
                "line 4, source[0].url: \"ftp://x\" must start with http://, https:// or file://, or be a path starting with /",
                "line 5, source[0].values.t: \"current\" is not a JSON Pointer: it starts with / (such as /current/temperature_2m)"
            ])
        #expect(
            problems("[[source]]\nname = \"time\"\nkind = \"webhook\"\nfields = [\"x\"]\n") == [
                "line 2, source[0].name: time is the board's own {{time}}; call the source something else"
            ])
        #expect(
            problems("[[source]]\nname = \"a\"\nkind = \"feed\"\nurl = \"/x\"\nevery = 5\n") == [
                "line 5, source[0].every: must be at least 30 seconds"
            ])
        #expect(
            problems("[[trigger]]\nname = \"t\"\nsource = \"moon\"\ntext = \"X\"\n") == [
                "line 3, trigger[0].source: there is no [[source]] called moon"
            ])
        // What schedules and triggers show is checked against the sources' names at start.
        let webhook = "[[source]]\nname = \"door\"\nkind = \"webhook\"\nfields = [\"state\"]\n"
        #expect(
            problems(webhook + "[[schedule]]\nname = \"s\"\ntimes = [\"07:00\"]\ntext = \"DOOR {{door.stat}}\"\n")
                == ["line 8, schedule[0].text: line 1, position 6: {{door.stat}} is not a placeholder; door has stale, state, updated"])
        #expect(
            problems(webhook + "[[trigger]]\nname = \"t\"\nsource = \"door\"\nvbml = '{\"components\": 3}'\n").first?.hasPrefix(
                "line 8, trigger[0].vbml") == true)
        #expect(problems(webhook + "[[schedule]]\nname = \"s\"\ntimes = [\"07:00\"]\ntext = \"{{weekday}}: DOOR {{door.state}}\"\n").isEmpty)
        #expect(
            problems(
                "[[source]]\nname = \"a\"\nkind = \"webhook\"\nfields = [\"x\"]\n[[trigger]]\nname = \"t\"\nsource = \"a\"\nabove = 3\ntext = \"X\"\n"
            )
                == ["line 5, trigger[0].value: above, below and equals compare a value of the source: value = \"temperature\""])
    }

    @Test func aPanelsModelIsItsSizeByName() throws {
        #expect(try ConfigurationParser.parse("[[panel]]\nmodel = \"note\"\n", file: "flapd.toml").panels[0].size == .note)
        #expect(try ConfigurationParser.parse("[[panel]]\nmodel = \"flagship\"\nsize = \"6x22\"\n", file: "flapd.toml").panels[0].size == .flagship)
        #expect(
            problems("[[panel]]\nmodel = \"note\"\nsize = \"flagship\"\n")
                == ["line 2, panel[0].model: a note is 3×15 (an array of Notes 3×15n or 3n×15), not 6×22: give model or size, not both"])
        #expect(problems("[[panel]]\nmodel = \"mini\"\n") == ["line 2, panel[0].model: \"mini\" is not one of flagship, note"])
    }

    @Test func aBrowserPanelHasItsOwnSizeAndNoDevice() throws {
        let tablet = try ConfigurationParser.parse("[[panel]]\nid = \"tablet\"\ndriver = \"browser\"\nmodel = \"note\"\n", file: "flapd.toml").panels[
            0]
        #expect(tablet.driver == "browser" && tablet.size == .note && tablet.drum.codes == PanelSettings().drum.codes && tablet.drum.flap62 == .heart)
        #expect(
            problems("[[panel]]\nid = \"tv\"\ndriver = \"browser\"\ndevice = \"/dev/fb0\"\n")
                == ["line 4, panel[0].device: a browser panel has no device: a browser shows it at /tv?panel=tv"])
    }

    @Test func theHardwareExamplesParse() throws {
        let folder = PythonPeer.packageRoot.appendingPathComponent("hardware/examples")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".toml") }
        #expect(files.count == 11)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let panel = try ConfigurationParser.parse(text, file: file).panels[0]
            // An sbb panel's flaps are its blades, as the example lists them.
            let drum: Drum =
                panel.driver == "sbb"
                ? try SBBBlades(" ABCDEFGHIJKLMNOPQRSTUVWXYZ**0123456789").drum
                : panel.isLED || panel.driver == "vestaboard" ? .vestaboard : .chainlink52
            #expect(panel.driver != "simulated" && panel.drum.codes == drum.codes, "\(file)")
        }
    }

    @Test func ledPanelsReadTheirPixelsBrightnessAndLibraryOptions() throws {
        let parsed = try ConfigurationParser.parse(
            """
            [[panel]]
            id = "wall"
            driver = "hub75"
            width = 64
            height = 32
            chain = 2
            hardware_mapping = "adafruit-hat"
            pwm_bits = 7
            gpio_slowdown = 3
            brightness = 50
            brightness_schedule = ["22:00=10", "07:30=80"]
            blank_after_seconds = 600
            fps = 30
            """, file: "flapd.toml"
        ).panels[0]
        #expect(parsed.isLED && parsed.drum == .vestaboard)
        #expect(
            parsed.options(LEDSettings.self)!.matrix.width == 128 && parsed.options(LEDSettings.self)!.matrix.height == 32
                && parsed.options(LEDSettings.self)!.matrix.hardwareMapping == "adafruit-hat")
        #expect(
            parsed.options(LEDSettings.self)!.matrix.pwmBits == 7 && parsed.options(LEDSettings.self)!.matrix.brightness == 50
                && parsed.options(LEDSettings.self)!.matrix.gpioSlowdown == 3)
        #expect(
            parsed.options(LEDSettings.self)!.brightnessSchedule.level(atMinute: 23 * 60) == 0.1
                && parsed.options(LEDSettings.self)!.brightnessSchedule.level(atMinute: 8 * 60) == 0.8)
        #expect(parsed.options(LEDSettings.self)!.blankAfterSeconds == 600 && parsed.options(LEDSettings.self)!.framesPerSecond == 30)
        #expect(
            problems(
                """
                [[panel]]
                driver = "max7219"
                width = 30
                orientation = 45
                brightness_schedule = ["22:00=10", "25:00=5"]
                [[panel]]
                id = "strip"
                driver = "ws2812"
                current_limit_ma = 20
                pins = [[1, 2, 3, 4, 5]]
                """) == [
                    "line 3, panel[0].width: a MAX7219 cascade is whole 8×8 blocks: 30×8 is not",
                    "line 4, panel[0].orientation: must be 0, 90, -90 or 180, not 45",
                    "line 5, panel[0].brightness_schedule: \"25:00=5\" is not \"HH:MM=PERCENT\" such as \"22:00=10\"",
                    "line 9, panel[1].current_limit_ma: must be at least 100 mA, not 20",
                    "line 10, panel[1].pins: pins is a setting of a gpio panel; this panel is ws2812"
                ])
        #expect(
            problems("listen = \"127.0.0.1:8080\"") == [
                "line 1, listen: \"127.0.0.1:8080\" has a port in it; give the address alone and the ports as api port / local API port"
            ])
    }

    /// A key is declared by being read: one that this panel's driver does not read is refused,
    /// naming the drivers that do, rather than accepted and ignored.
    @Test func aKeyOfAnotherDriverIsRefusedNamingIt() {
        #expect(
            problems(
                """
                [[panel]]
                driver = "max7219"
                chain = 4
                pwm_bits = 7
                [[panel]]
                id = "strip"
                driver = "ws2812"
                orientation = 90
                [[panel]]
                id = "flaps"
                driver = "chainlink"
                device = "/dev/ttyUSB0"
                api = "local"
                width = 64
                sender = "alice"
                """) == [
                    "line 3, panel[0].chain: chain is a setting of a hub75 panel; this panel is max7219",
                    "line 4, panel[0].pwm_bits: pwm_bits is a setting of a hub75 panel; this panel is max7219",
                    "line 8, panel[1].orientation: orientation is a setting of a max7219 panel; this panel is ws2812",
                    "line 15, panel[2].sender: sender is for policy = \"sender\" (the panel that shows one sender's messages)",
                    "line 13, panel[2].api: api is a setting of a vestaboard panel; this panel is chainlink",
                    "line 14, panel[2].width: width is a setting of a max7219, ws2812, framebuffer or hub75 panel; this panel is chainlink"
                ])
    }

    /// The docs' examples of flapd.toml still pass the reading of keys: a block may lean on
    /// tables shown elsewhere (a trigger's source), but none of its keys is unknown or another's.
    @Test func theDocsExamplesUseOnlyKeysTheirTablesRead() throws {
        let root = PythonPeer.packageRoot
        var blocks = 0
        for folder in ["docs", "hardware"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path) where name.hasSuffix(".md") {
                let text = try String(contentsOf: root.appendingPathComponent("\(folder)/\(name)"), encoding: .utf8)
                for block in text.components(separatedBy: "```toml\n").dropFirst() {
                    blocks += 1
                    let toml = block.components(separatedBy: "```")[0]
                    let refused = problems(toml).filter { $0.contains("unknown key") || $0.contains("is a setting of") || $0.contains(" is for ") }
                    #expect(refused.isEmpty, "\(folder)/\(name): \(refused)")
                }
            }
        }
        #expect(blocks >= 12)
    }

    @Test func chainlinkPanelsNameTheirDeviceAndShape() throws {
        let parsed = try ConfigurationParser.parse(
            """
            [[panel]]
            driver = "chainlink"
            device = "/dev/ttyUSB0"
            rows = 2
            """, file: "flapd.toml")
        #expect(parsed.panels[0].device == "/dev/ttyUSB0" && parsed.panels[0].rows == 2 && parsed.panels[0].size == nil)
        #expect(parsed.panels[0].drum == .chainlink52)
        #expect(
            problems(
                """
                [[panel]]
                device = "/dev/ttyUSB0"
                size = "2x6"
                columns = 6
                """) == [
                    "line 4, panel[0].columns: give size or rows/columns, not both",
                    "line 2, panel[0].device: a simulated panel has no device; set driver = \"chainlink\" to use one"
                ])
    }

    @Test func everyProblemNamesItsKeyAndLine() {
        let found = problems(
            """
            listen = 5
            [api]
            port = 70000

            [[panel]]
            id = "a"
            period_ms = 20
            polcy = "latest"
            [[panel]]
            id = "a"
            size = "big"
            policy = "sender"
            """)
        #expect(
            found
                == [
                    "flapd.toml: line 1, listen: must be a string (in quotes)",
                    "flapd.toml: line 3, api.port: must be a port number, 1 to 65535 (0: any free port), not 70000",
                    "flapd.toml: line 7, panel[0].period_ms: must be 50 to 200 ms, not 20",
                    "flapd.toml: line 8, panel[0].polcy: unknown key (did you mean policy?); known keys here: driver, id, size, rows, columns, model, device, drum_string, drum, flap62, period_ms, transition, show, policy, sender, rotate_seconds, quiet, quiet_message, quiet_hours",
                    "flapd.toml: line 11, panel[1].size: \"big\" is not flagship, note or ROWSxCOLUMNS such as 6x22",
                    "flapd.toml: line 12, panel[1].policy: policy = \"sender\" needs sender = \"<sender id>\"",
                    "flapd.toml: line 10, panel[1].id: another panel is called a too; give each its own id"
                ].map { $0.replacingOccurrences(of: "flapd.toml: ", with: "") })
    }

    @Test func heartRateSourcesAreRead() throws {
        let parsed = try ConfigurationParser.parse(
            """
            [[sensor]]
            driver = "ble"
            device = "hci1"
            straps = ["C4:7C:8D:6A:12:34", "TICKR 4455"]
            names = { "C4:7C:8D:6A:12:34" = "Ana" }
            [[sensor]]
            driver = "ant"
            straps = [12345, "23456"]
            [[sensor]]
            driver = "serial"
            device = "/dev/ttyACM0"
            format = "prefix:HR:"
            baud = 115200
            [[sensor]]
            driver = "simulated"
            people = 12
            """, file: "flapd.toml")
        #expect(parsed.sensors.map(\.driver) == [.ble, .ant, .serial, .simulated])
        #expect(
            parsed.sensors[0].device == "hci1" && parsed.sensors[0].options(BLESensorKind.Options.self)?.straps == ["C4:7C:8D:6A:12:34", "TICKR 4455"]
        )
        #expect(parsed.sensors[0].names == ["C4:7C:8D:6A:12:34": "Ana"])
        #expect(parsed.sensors[1].options(ANTSensorKind.Options.self)?.straps == ["12345", "23456"] && parsed.sensors[1].device == nil)
        #expect(parsed.sensors[2].options(SerialSensorKind.Options.self) == SerialSensorKind.Options(format: .prefixed("HR:"), baudRate: 115_200))
        #expect(parsed.sensors[3].options(SimulatedSensorKind.Options.self)?.people == 12)
    }

    @Test func heartRateProblemsNameTheirKeyAndLine() {
        let found = problems(
            """
            [[sensor]]
            driver = "bluetooth"
            [[sensor]]
            driver = "serial"
            [[sensor]]
            driver = "ant"
            straps = [0, "strap"]
            [[sensor]]
            driver = "serial"
            device = "/dev/ttyACM0"
            format = "xml"
            [[sensor]]
            driver = "simulated"
            people = 0
            colour = "red"
            """)
        #expect(
            found.contains {
                $0.contains("sensor[0].driver") && $0.contains("line 2") && $0.contains("\"bluetooth\" is not one of ble, ant, serial, simulated")
            })
        #expect(found.contains { $0.contains("sensor[1].device") && $0.contains("needs its port") })
        #expect(found.contains { $0.contains("sensor[2].straps") && $0.contains("\"0\" is not an ANT device number") })
        #expect(found.contains { $0.contains("sensor[2].straps") && $0.contains("\"strap\" is not an ANT device number") })
        #expect(found.contains { $0.contains("sensor[3].format") && $0.contains("line 11") })
        #expect(found.contains { $0.contains("sensor[4].people") && $0.contains("1 to 100") })
        #expect(found.contains { $0.contains("sensor[4].colour") && $0.contains("unknown key") })
    }

    @Test func aRoomIsReadAndNeedsMQTT() throws {
        let parsed = try ConfigurationParser.parse(
            """
            [mqtt]
            url = "mqtt://broker:1883"
            [room]
            name = "lobby"
            kiosk = "table-3"
            names = { "C4:7C:8D:6A:12:34" = "Ana" }
            """, file: "flapd.toml")
        #expect(parsed.room?.name == "lobby" && parsed.room?.kiosk == "table-3" && parsed.room?.names == ["C4:7C:8D:6A:12:34": "Ana"])
        #expect(problems("[room]\nname = \"lobby\"\n").contains { $0.contains("room: give [mqtt] too: a room is shared over MQTT") })
        #expect(
            problems("[mqtt]\nurl = \"mqtt://b:1883\"\n[room]\nname = \"a/b\"\n").contains {
                $0.contains("room.name") && $0.contains("cannot be part of a topic level")
            })
        #expect(
            problems("[mqtt]\nurl = \"mqtt://b:1883\"\n[room]\nkiosk = \"x\"\n").contains { $0.contains("room.name") && $0.contains("needs name") })
    }

    @Test func theKioskPolicyTheCodeTheChimeAndTheBuzzer() throws {
        let parsed = try ConfigurationParser.parse(
            """
            [mqtt]
            url = "mqtt://broker:1883"
            [room]
            name = "lobby"
            code = "k7q2-mx"
            chime = false
            buzzer = "gpiochip0:17"
            [[panel]]
            driver = "simulated"
            policy = "kiosk"
            """, file: "flapd.toml")
        #expect(parsed.panels[0].policy == .kiosk)
        #expect(parsed.room?.code?.text == "K7Q2MX" && parsed.room?.chime == false)
        #expect(parsed.room?.buzzerLine.map { "\($0.chip):\($0.line)" } == "gpiochip0:17")
        let mqtt = "[mqtt]\nurl = \"mqtt://b:1883\"\n"
        #expect(
            problems(mqtt + "[[panel]]\ndriver = \"simulated\"\npolicy = \"kiosk\"\n").contains {
                $0.contains("panel[0].policy") && $0.contains("give [room] too")
            })
        #expect(
            problems(mqtt + "[room]\nname = \"lobby\"\nbuzzer = \"pin 17\"\n").contains { $0.contains("room.buzzer") && $0.contains("CHIP:LINE") })
        #expect(problems(mqtt + "[room]\nname = \"lobby\"\ncode = \"K7Q2U9\"\n").contains { $0.contains("room.code") && $0.contains("character 5") })
    }

    @Test func aVestaboardPanelAndAMirror() throws {
        let parsed = try ConfigurationParser.parse(
            """
            [[panel]]
            id = "wall"
            driver = "vestaboard"
            api = "cloud"
            token_file = "/run/credentials/flapd.service/vestaboard-token"
            strategy = "conflict-aware"
            on_conflict = "overwrite"
            [[mirror]]
            api = "local"
            url = "http://vestaboard.local:7000"
            key_file = "/etc/flapd/vestaboard-key"
            interval_seconds = 5
            sender = "home"
            """, file: "flapd.toml")
        #expect(parsed.panels[0].driver == "vestaboard" && parsed.panels[0].options(VestaboardSettings.self)!.api == .cloud)
        #expect(parsed.panels[0].options(VestaboardSettings.self)!.credentialFile == "/run/credentials/flapd.service/vestaboard-token")
        #expect(
            parsed.panels[0].options(VestaboardSettings.self)!.strategy == .conflictAware
                && parsed.panels[0].options(VestaboardSettings.self)!.onConflict == .overwrite)
        #expect(parsed.panels[0].drum == .vestaboard)
        #expect(parsed.mirrors.count == 1 && parsed.mirrors[0].intervalSeconds == 5 && parsed.mirrors[0].sender == "home")
        let panel = "[[panel]]\ndriver = \"vestaboard\"\n"
        #expect(problems(panel + "api = \"local\"\nkey_file = \"/k\"\n").contains { $0.contains("panel[0].url") && $0.contains("Local API address") })
        #expect(problems(panel + "api = \"cloud\"\n").contains { $0.contains("panel[0].token_file") && $0.contains("Developer") })
        #expect(
            problems(panel + "api = \"cloud\"\nkey_file = \"/k\"\n").contains { $0.contains("panel[0].key_file") && $0.contains("takes a token") })
        #expect(
            problem(at: "panel[0].url", panel + "api = \"local\"\nurl = \"vestaboard.local\"\nkey_file = \"/k\"\n")
                == .notAnHTTPAddress("vestaboard.local"))
        #expect(
            problems(panel + "api = \"local\"\nurl = \"http://v:7000\"\nkey_file = \"/k\"\nstrategy = \"eventually\"\n").contains {
                $0.contains("panel[0].strategy")
            })
        #expect(
            problem(at: "mirror[0].interval_seconds", "[[mirror]]\napi = \"cloud\"\ntoken_file = \"/t\"\ninterval_seconds = 5\n")
                == .outOfRange(given: "5", allowed: "at least 15 for the cloud (its own limit)"))
    }

    @Test func aSyntaxErrorSaysWhere() {
        let found = problems("listen = \"x\"\n[api\nport = 1")
        #expect(found.count == 1)
        #expect(found[0].hasPrefix("line 2: "))
    }

    @Test func secretsGivenTwiceAreAProblem() {
        #expect(problems("[api]\nkey = \"a\"\nkey_file = \"/f\"") == ["line 2, api.key: give key or key_file, not both"])
    }

    @Test func flapdChecksAConfigurationAndSaysWhatIsWrong() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cfg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let bad = dir.appendingPathComponent("bad.toml").path
        try "[messages]\nrate_limit = -1\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let flapd = ProcessRunner.builtProduct("flapd")
        let result = try await ProcessRunner.run(flapd, ["--check-config", "--config", bad])
        #expect(result.status == 78, "EX_CONFIG: the unit does not start it again until the file is fixed")
        #expect(!result.stderrText.contains("Usage:"), "nothing was wrong with the command line")
        #expect(result.stderrText.contains("\(bad): line 2, messages.rate_limit: must be 0 (no limit) or more, not -1"))
        let ignored = dir.appendingPathComponent("ignored.toml").path
        try "[[panel]]\ndriver = \"max7219\"\nchain = 4\n".write(toFile: ignored, atomically: true, encoding: .utf8)
        let refused = try await ProcessRunner.run(flapd, ["--check-config", "--config", ignored])
        #expect(
            refused.status == 78 && refused.stderrText.contains("line 3, panel[0].chain: chain is a setting of a hub75 panel; this panel is max7219"))
        let good = try await ProcessRunner.run(
            flapd, ["--check-config", "--config", PythonPeer.packageRoot.appendingPathComponent("flapd.example.toml").path])
        #expect(good.status == 0)
        let missing = try await ProcessRunner.run(flapd, ["--config", dir.appendingPathComponent("nope.toml").path])
        #expect(missing.status == 78 && missing.stderrText.contains("cannot read the configuration file"))
        // A device id or group is a topic level: empty or with a / it would publish to vestawidget//….
        for id in ["", "a/b", "x+"] {
            let refused = try await ProcessRunner.run(flapd, ["--simulate", "--check-config", "--mqtt", "mqtt://127.0.0.1:1883", "--device-id", id])
            #expect(
                refused.status != 0 && refused.stderrText.contains("must be a non-empty topic level without / + #"),
                "\(id.debugDescription): \(refused.stderrText)")
        }
        let group = try await ProcessRunner.run(flapd, ["--simulate", "--check-config", "--mqtt", "mqtt://127.0.0.1:1883", "--group", "up/stairs"])
        #expect(group.status != 0 && group.stderrText.contains("group \"up/stairs\""))
    }
}

@Suite struct SoundConfigurationTests {
    @Test func theSoundSectionIsRead() throws {
        let parsed = try ConfigurationParser.parse(
            """
            [sound]
            device = "plughw:1,0"
            volume = 40
            quiet_hours = "21:30-06:45"
            sample = "/etc/flapd/clack.wav"
            """, file: "f")
        #expect(parsed.sound.device == "plughw:1,0" && parsed.sound.volume == 40)
        #expect(parsed.sound.quietHours == QuietHours("21:30-06:45"))
        #expect(parsed.sound.samplePath == "/etc/flapd/clack.wav")
    }

    @Test func soundProblemsNameTheKey() {
        do {
            _ = try ConfigurationParser.parse("[sound]\nvolume = 150\nquiet_hours = \"late\"\nmute = \"yes\"\n", file: "f")
            Issue.record("accepted")
        } catch {
            #expect(
                error.problems.map(\.description) == [
                    "line 2, sound.volume: must be 0 to 100 (%), not 150",
                    "line 4, sound.mute: must be true or false",
                    "line 3, sound.quiet_hours: \"late\" is not a span of local time such as \"22:00-07:00\""
                ])
        }
    }
}
