import FlapCore
import FlapDisplay
import FlapHardware
import FlapJSON
import FlapMQTT
import FlapMQTTClient
import FlapMessaging
import FlapSettings
import FlapSources
import FlapStorage
import FlapTOML
import FlapTime
import FoundationEssentials

/// Reads flapd.toml. Every problem is reported, each with its key and line; unknown keys are
/// problems too (a misspelt key that is silently ignored is a setting that silently does nothing).
public enum ConfigurationParser {
    /// The largest flapd.toml read: the example with every key is about 10 KB.
    public static let largestFile = 1 << 20

    /// The text of the configuration file at `path`, read within ``largestFile``; nil when it
    /// cannot be read.
    static func read(_ path: String) throws -> String? {
        do {
            return try SmallFile.read(path, largest: largestFile).map { String(decoding: $0, as: UTF8.self) }
        } catch SmallFile.Failure.tooLarge {
            throw ServiceError.configurationTooLarge(path: path, largestKiB: largestFile / 1024)
        } catch {
            return nil
        }
    }

    /// The configuration in `text` (flapd.toml, read from `file`), or every problem in it.
    public static func parse(_ text: String, file: String) throws(ConfigurationError) -> FlapdConfiguration {
        try parse(text, file: file, panelKinds: PanelKinds.all)
    }

    /// Reads the file with `panelKinds` as the panel drivers and `sourceKinds` as the kinds of
    /// source it may name (a test adds its own).
    static func parse(
        _ text: String, file: String, panelKinds: [any PanelKind] = PanelKinds.all,
        sourceKinds: [any SourceKind] = SourceKinds.all
    ) throws(ConfigurationError) -> FlapdConfiguration {
        let table: TOMLTable
        do {
            table = try TOMLParser.parse(text)
        } catch {
            throw ConfigurationError(
                file: file, problems: [.init(key: "", line: error.line, problem: "not valid TOML: column \(error.column): \(error.message)")])
        }
        return try read(table, index: TOMLLineIndex(text), file: file, panelKinds: panelKinds, sourceKinds: sourceKinds)
    }

    /// Reads the settings in `table` (flapd.toml and the page's settings over it; `index` says on
    /// which line of flapd.toml each key is), declaring each setting read in `declarations`.
    static func read(
        _ table: TOMLTable, index: TOMLLineIndex, file: String, panelKinds: [any PanelKind] = PanelKinds.all,
        sourceKinds: [any SourceKind] = SourceKinds.all, declarations: SettingDeclarations? = nil
    ) throws(ConfigurationError) -> FlapdConfiguration {
        var reader = TableReader(table: table, path: "", index: index, declarations: declarations)
        var configuration = FlapdConfiguration()
        readTopLevel(&reader, into: &configuration)
        reader.section("api") { readAPI(&$0, into: &configuration) }
        reader.section("local_api") { readLocalAPI(&$0, into: &configuration) }
        reader.section("messages") { readMessages(&$0, into: &configuration) }
        reader.section("time") { readTime(&$0, into: &configuration) }
        reader.section("sound") { readSound(&$0, into: &configuration) }
        reader.section("mqtt") { configuration.mqtt = parseMQTT(&$0) }
        readPanels(&reader, kinds: panelKinds, into: &configuration)
        reader.sections("sensor") { _, sensor in configuration.sensors.append(parseSensor(&sensor)) }
        reader.section("location") { configuration.location = parseLocation(&$0) }
        reader.sections("source") { _, source in addSource(&source, kinds: sourceKinds, to: &configuration) }
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
        if configuration.room != nil && configuration.mqtt == nil { reader.fail("room", .givenWithout("[mqtt]", why: "a room is shared over MQTT")) }
        for (index, panel) in configuration.panels.enumerated() where panel.policy == .kiosk && configuration.room == nil {
            reader.fail("panel[\(index)].policy", .givenWithout("[room]", why: "policy = \"kiosk\" shows a Wematch room"))
        }
    }
}
