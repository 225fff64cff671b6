import FlapSettings
import FlapTOML

/// flapd.toml with the settings changed from the page over it: what flapd runs from. The file
/// is read as it is (flapd never writes it); the page's layer is `settings.toml` in the state
/// directory, named by the state directory the file and the flags choose.
struct LayeredConfiguration: Sendable {
    /// flapd.toml's path, or nil when flapd runs from its defaults (`--simulate`).
    let filePath: String?
    /// Its lines, so a problem in the file names its line.
    let lines: TOMLLineIndex
    /// The file and the page's settings over it.
    var layers: SettingsLayers
    /// Where the page's settings are kept.
    let pageFile: SettingsFile

    /// How the entries of each array of tables are named: a panel by its `id` (`main` when the
    /// file gives none), a mirror by its `id`, the rest by their `name`; sensors by their place.
    static let identities: [String: SettingsLayers.Identity] = [
        "panel": .init(key: "id", implicit: { _ in "main" }), "mirror": .init(key: "id", implicit: { "mirror\($0 + 1)" }),
        "source": .init(key: "name"), "trigger": .init(key: "name"), "schedule": .init(key: "name")
    ]

    /// Reads flapd.toml (`text`, from `filePath`) and the page's settings in the state directory
    /// that `stateDirectory` (the flag) or the file's `state_dir` names.
    static func load(text: String, filePath: String?, stateDirectory flag: String?) throws -> LayeredConfiguration {
        let parsed: TOMLTable
        do {
            parsed = try TOMLParser.parse(text)
        } catch {
            throw ServiceError.invalidConfiguration(
                ConfigurationError(
                    file: filePath ?? "flapd.toml",
                    problems: [.init(key: "", line: error.line, problem: "not valid TOML: column \(error.column): \(error.message)")]))
        }
        var file = parsed
        // flapd's one panel when the file names none, as an entry the page can change.
        if file["panel"] == nil { file["panel"] = .array([.table(TOMLTable())]) }
        let directory = StateDirectory.path(explicit: flag ?? file["state_dir"]?.string)
        let pageFile = SettingsFile(path: directory + "/settings.toml")
        let page: TOMLTable
        do { page = try pageFile.read() } catch { throw ServiceError.unreadableSettings(problem: error.description) }
        return LayeredConfiguration(
            filePath: filePath, lines: TOMLLineIndex(text), layers: SettingsLayers(file: file, page: page, identities: identities), pageFile: pageFile
        )
    }

    /// Whether the page has changed anything.
    var pageChangedSomething: Bool { !layers.page.keys.isEmpty }

    /// The configuration the two layers make, declaring each setting read in `declarations`; a
    /// problem with a setting the page gave names no line of the file.
    func read(declarations: SettingDeclarations? = nil) throws(ConfigurationError) -> FlapdConfiguration {
        let (settings, fromPage) = layers.merged()
        let file = filePath ?? "flapd's defaults"
        do {
            return try ConfigurationParser.read(settings, index: lines, file: file, declarations: declarations)
        } catch {
            let pageKeys = Set(fromPage.map(\.description))
            guard error.problems.contains(where: { pageKeys.contains($0.key) }) else { throw error }
            var problems = error.problems
            for index in problems.indices where pageKeys.contains(problems[index].key) { problems[index].line = nil }
            throw ConfigurationError(file: "\(file) with \(pageFile.path)", problems: problems)
        }
    }
}
