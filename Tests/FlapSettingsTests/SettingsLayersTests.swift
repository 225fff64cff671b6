import FlapTOML
import Foundation
import Testing

@testable import FlapSettings

/// The page's layer over flapd.toml: what is in force, whose each value is, and what a change
/// and its taking back leave in settings.toml.
@Suite struct SettingsLayersTests {
    static let identities: [String: SettingsLayers.Identity] = [
        "panel": .init(key: "id", implicit: { $0 == 0 ? "main" : nil }), "source": .init(key: "name")
    ]

    static let file = """
        listen = "0.0.0.0"

        [sound]
        volume = 80

        [[panel]]
        driver = "simulated"
        rows = 6

        [[panel]]
        id = "hall"
        driver = "chainlink"

        [[source]]
        name = "weather"
        every = "10m"

        [[sensor]]
        driver = "ble"
        """

    func layers() throws -> SettingsLayers {
        SettingsLayers(file: try TOMLParser.parse(Self.file), identities: Self.identities)
    }

    func path(_ text: String) throws -> SettingPath { try SettingPath(parsing: text) }

    @Test func aChangeFromThePageWinsAndIsMarkedAsThePages() throws {
        var layers = try layers()
        try layers.set(.integer(40), at: path("sound.volume"))
        try layers.set(.integer(3), at: path("panel[0].rows"))
        try layers.set(.string("2m"), at: path("source[0].every"))
        try layers.set(.string("hci1"), at: path("sensor[0].adapter"))
        let (settings, fromPage) = layers.merged()
        #expect(settings["sound"]?.table?["volume"] == .integer(40))
        #expect(settings["panel"]?.array?[0].table?["rows"] == .integer(3))
        #expect(settings["panel"]?.array?[0].table?["driver"] == .string("simulated"))
        #expect(settings["panel"]?.array?.count == 2)
        #expect(settings["source"]?.array?[0].table?["every"] == .string("2m"))
        #expect(settings["sensor"]?.array?[0].table?["adapter"] == .string("hci1"))
        #expect(try fromPage == [path("sound.volume"), path("panel[0].rows"), path("source[0].every"), path("sensor[0].adapter")])
        // The page's layer names each entry it changes, so a reordered flapd.toml keeps them.
        #expect(
            TOMLWriter.document(layers.page) == """
                [sound]
                volume = 40

                [[panel]]
                id = "main"
                rows = 3

                [[source]]
                name = "weather"
                every = "2m"

                [[sensor]]
                adapter = "hci1"

                """)
    }

    @Test func anEntryFollowsItsNameWhenTheFileIsReordered() throws {
        var layers = try layers()
        try layers.set(.string("rs485"), at: path("panel[1].driver"))
        layers.file = try TOMLParser.parse(
            """
            [[panel]]
            id = "hall"
            driver = "chainlink"

            [[panel]]
            driver = "simulated"
            """)
        let panels = layers.merged().settings["panel"]?.array ?? []
        #expect(panels.count == 2)
        #expect(panels[0].table?["driver"] == .string("rs485"))
        #expect(panels[1].table?["driver"] == .string("simulated"))
    }

    @Test func takingBackLeavesTheFilesValueAndNothingInThePagesLayer() throws {
        var layers = try layers()
        try layers.set(.integer(40), at: path("sound.volume"))
        try layers.set(.integer(3), at: path("panel[0].rows"))
        try layers.set(nil, at: path("sound.volume"))
        try layers.set(nil, at: path("panel[0].rows"))
        #expect(layers.page.keys.isEmpty)
        #expect(layers.merged().settings == (try TOMLParser.parse(Self.file)))
        #expect(layers.merged().fromPage.isEmpty)
    }

    @Test func aNewEntryIsNamedFirstAndGoesWhenTakenBack() throws {
        var layers = try layers()
        #expect(throws: SettingsLayers.EditProblem.self) { try layers.set(.string("rs485"), at: path("panel[2].driver")) }
        try layers.set(.string("wall"), at: path("panel[2].id"))
        try layers.set(.string("rs485"), at: path("panel[2].driver"))
        #expect(layers.merged().settings["panel"]?.array?.count == 3)
        #expect(try layers.merged().fromPage.contains(path("panel[2].driver")))
        try layers.set(nil, at: path("panel[2]"))
        #expect(layers.page.keys.isEmpty)
        var whole = TOMLTable()
        whole["name"] = .string("bins")
        whole["kind"] = .string("ical")
        try layers.set(.table(whole), at: path("source[1]"))
        #expect(layers.merged().settings["source"]?.array?.count == 2)
    }

    @Test func refusalsNameTheSettingAndSayWhy() throws {
        var layers = try layers()
        let refusals: [(String, TOMLValue?, String)] = [
            ("panel[5].rows", .integer(3), "there are 2 panel; the next is panel[2]"),
            ("panel[1].id", .string("wall"), "id names this panel in flapd.toml; change it there"),
            ("listen.port", .integer(1), "listen is a single value, not a table"),
            ("panel[0][1]", .integer(1), "a [[panel]] entry is a table, not a list")
        ]
        for (key, value, message) in refusals {
            #expect(throws: SettingsLayers.EditProblem(key: key, message: message)) { try layers.set(value, at: path(key)) }
        }
        #expect(layers.page.keys.isEmpty)
    }

    @Test func aPathIsReadOrRefusedWithItsColumn() throws {
        #expect(try SettingPath(parsing: "source[12].headers.Accept").steps == [.key("source"), .index(12), .key("headers"), .key("Accept")])
        #expect(try SettingPath(parsing: "source[12].headers.Accept").description == "source[12].headers.Accept")
        let refused: [(String, Int)] = [("", 1), ("sound.", 6), ("sound..volume", 7), ("panel[x]", 7), ("panel[0", 8), ("so und", 3), ("a[99999]", 3)]
        for (text, column) in refused {
            #expect(throws: (any Error).self) { try SettingPath(parsing: text) }
            do { _ = try SettingPath(parsing: text) } catch { #expect(error.column == column, "\(text): \(error)") }
        }
    }

    @Test func theFileSurvivesAPowerCutHalfwayThroughSaving() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = SettingsFile(path: folder + "/settings.toml")
        #expect(try file.read().keys.isEmpty)
        var layers = try layers()
        try layers.set(.integer(40), at: path("sound.volume"))
        try file.write(layers.page)
        // A save cut off before its rename leaves its half-written copy beside the file, never over it.
        try Data("[sound]\nvol".utf8).write(to: URL(fileURLWithPath: folder + "/.settings.toml.new"))
        #expect(try file.read() == layers.page)
        // A file grown past its budget is refused whole, not read.
        try Data(repeating: UInt8(ascii: "#"), count: SettingsFile.largest + 1).write(to: URL(fileURLWithPath: file.path))
        #expect(throws: SettingsFile.Failure.self) { try file.read() }
    }
}
