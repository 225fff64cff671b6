import FlapHTTP
import FlapJSON
import FlapSettings
import FlapTOML

/// The settings changed from the page, as `/v1/settings` asks: each setting flapd.toml's reader
/// reads, with its value and where it comes from; a change validated by that reader, kept in
/// settings.toml, and applied by starting the appliance again in this process.
actor ApplianceSettings: SettingsKeeper {
    private var layered: LayeredConfiguration
    /// The page's settings this appliance started with: until another started with those kept
    /// since, a change is still being applied.
    private let startedWith: TOMLTable
    /// Starts the appliance again from the settings now kept; given the page's settings before
    /// the change, to go back to should the new ones not start.
    private let apply: @Sendable (_ before: TOMLTable) async -> Void

    init(_ layered: LayeredConfiguration, apply: @escaping @Sendable (_ before: TOMLTable) async -> Void) {
        self.layered = layered
        self.startedWith = layered.layers.page
        self.apply = apply
    }

    /// Settings the page may not change: where the page's own settings are kept.
    static let fileOnly: Set<String> = ["state_dir"]

    func settings() -> any Encodable & Sendable {
        var view = SettingsView.of(layered)
        if layered.layers.page != startedWith { view.applying = true }
        return view
    }

    func change(_ changes: [(key: String, value: JSONValue?)]) async throws(SettingsRefusal) -> any Encodable & Sendable {
        var candidate = layered
        var problems: [String] = []
        for (key, value) in changes {
            do {
                let path = try SettingPath(parsing: key)
                if Self.fileOnly.contains(path.description) { throw SettingsLayers.EditProblem(key: key, message: "set only in flapd.toml") }
                try candidate.layers.set(try value.map { try TOMLValue(json: $0) }, at: path)
            } catch let problem as SettingPath.Problem {
                problems.append("\(key): \(problem)")
            } catch {
                problems.append(error is SettingsLayers.EditProblem ? "\(error)" : "\(key): \(error)")
            }
        }
        guard problems.isEmpty else { throw SettingsRefusal(problems) }
        do {
            _ = try candidate.read()
        } catch {
            throw SettingsRefusal(error.problems.map(\.description))
        }
        guard candidate.layers.page != layered.layers.page else { return SettingsView.of(layered) }
        do {
            try candidate.pageFile.write(candidate.layers.page)
        } catch {
            throw SettingsRefusal(["the settings could not be kept: \(error)"])
        }
        let before = layered.layers.page
        layered = candidate
        var view = SettingsView.of(candidate)
        view.applying = true
        await apply(before)
        return view
    }
}

/// `GET /v1/settings`: every setting read, in the order flapd.toml's reader reads them.
struct SettingsView: Encodable, Sendable {
    /// One setting.
    struct Setting: Encodable, Sendable {
        var key: String
        var type: SettingDeclaration.Kind
        var choices: [String]?
        /// Its value in force; a secret's is never shown.
        var value: JSONValue?
        /// `default`, `file` (flapd.toml) or `page`.
        var origin: String
        /// What "use the file's value" would give, for a setting the page changed.
        var fileValue: JSONValue?
        /// For a secret: whether one is given.
        var given: Bool?
    }

    var settings: [Setting]
    /// What a new entry of each array of tables, of each kind, would hold.
    var new: [NewEntryTemplate]
    /// flapd.toml's path, when there is one.
    var file: String?
    /// Where the page's settings are kept.
    var pageFile: String
    /// Whether flapd is starting its parts again with the settings just changed: true until the
    /// parts that answer started with them.
    var applying: Bool?

    static func of(_ layered: LayeredConfiguration) -> SettingsView {
        let declarations = SettingDeclarations()
        _ = try? layered.read(declarations: declarations)
        let (merged, fromPage) = layered.layers.merged()
        let all = declarations.all
        // A table of text (headers) is one setting: its entries are not each another.
        let tables = all.filter { $0.type == .table }.map { $0.key + "." }
        var settings: [Setting] = []
        for declaration in all where !tables.contains(where: declaration.key.hasPrefix) {
            guard let path = try? SettingPath(parsing: declaration.key) else { continue }
            let value = merged[path]
            let origin = fromPage.contains(path) ? "page" : value == nil ? "default" : "file"
            var setting = Setting(key: declaration.key, type: declaration.type, choices: declaration.choices, origin: origin)
            if declaration.type == .secret {
                setting.given = value != nil
            } else {
                setting.value = value?.json
                if origin == "page" {
                    var without = layered.layers
                    try? without.set(nil, at: path)
                    setting.fileValue = without.merged().settings[path]?.json
                }
            }
            settings.append(setting)
        }
        return SettingsView(settings: settings, new: NewEntryTemplate.all(after: merged), file: layered.filePath, pageFile: layered.pageFile.path)
    }
}
