import FlapTOML

/// The settings in two layers: flapd.toml (the file, which flapd never writes) and, over it,
/// what was changed from the page (`settings.toml` in the state directory). Tables merge key by
/// key; an array of tables (`[[panel]]`) merges entry by entry, each entry of the page's layer
/// going to the file's entry of the same identity (a panel's `id`, a source's `name`), or to the
/// same place where the array's entries have none, or after them as a new one.
public struct SettingsLayers: Sendable, Equatable {
    /// flapd.toml as read.
    public var file: TOMLTable
    /// What the page changed: the settings.toml kept in the state directory.
    public var page: TOMLTable
    /// How each array of tables names its entries.
    public let identities: [String: Identity]

    /// How the entries of one array of tables are told apart.
    public struct Identity: Sendable, Equatable {
        /// The key that names an entry: `id`, `name`.
        public var key: String
        /// The name an entry of the file has when it does not give one (`main` for the one
        /// panel of a file that names none), by its place.
        public var implicit: @Sendable (Int) -> String?

        /// Entries named by `key`, or by `implicit` where they give none.
        public init(key: String, implicit: @escaping @Sendable (Int) -> String? = { _ in nil }) {
            self.key = key
            self.implicit = implicit
        }

        /// The same key names the entries (the implicit names are not compared).
        public static func == (a: Identity, b: Identity) -> Bool { a.key == b.key }
    }

    /// The two layers, and how arrays name their entries.
    public init(file: TOMLTable, page: TOMLTable = TOMLTable(), identities: [String: Identity]) {
        self.file = file
        self.page = page
        self.identities = identities
    }

    /// The settings in force, with the paths whose values the page gave.
    public func merged() -> (settings: TOMLTable, fromPage: Set<SettingPath>) {
        var fromPage: Set<SettingPath> = []
        let settings = merge(file, under: page, at: SettingPath([]), marking: &fromPage)
        return (settings, fromPage)
    }

    private func merge(
        _ base: TOMLTable, under over: TOMLTable, at path: SettingPath, naming: String? = nil, marking fromPage: inout Set<SettingPath>
    ) -> TOMLTable {
        var result = base
        for key in over.keys {
            guard let value = over[key] else { continue }
            // The name an entry of the page's layer carries only says which entry it changes.
            if key == naming {
                result[key] = value
                continue
            }
            let here = path.appending(.key(key))
            switch (base[key], value) {
            case (.table(let below)?, .table(let above)):
                result[key] = .table(merge(below, under: above, at: here, marking: &fromPage))
            case (let below, .array(let above)) where Self.isTables(above) && (below == nil || below.map(Self.isTablesValue) == true):
                result[key] = .array(mergeEntries(below?.array ?? [], under: above, named: key, at: here, marking: &fromPage))
            default:
                result[key] = value
                Self.mark(value, at: here, in: &fromPage)
            }
        }
        return result
    }

    private func mergeEntries(
        _ base: [TOMLValue], under over: [TOMLValue], named name: String, at path: SettingPath, marking fromPage: inout Set<SettingPath>
    ) -> [TOMLValue] {
        var result = base
        for (place, entry) in over.enumerated() {
            guard let above = entry.table else { continue }
            let target: Int?
            if let identity = identities[name] {
                let wanted = above[identity.key]?.string
                target = wanted.flatMap { wanted in result.indices.first { self.identity(of: result[$0], at: $0, in: name) == wanted } }
            } else {
                target = place < result.count ? place : nil
            }
            if let target, let below = result[target].table {
                result[target] = .table(
                    merge(below, under: above, at: path.appending(.index(target)), naming: identities[name]?.key, marking: &fromPage))
            } else {
                result.append(entry)
                Self.mark(entry, at: path.appending(.index(result.count - 1)), in: &fromPage)
            }
        }
        return result
    }

    /// The name of the entry `entry`, at `place` in the array `name` of the file: its own, or
    /// the one it has when it gives none.
    func identity(of entry: TOMLValue, at place: Int, in name: String) -> String? {
        guard let identity = identities[name] else { return nil }
        return entry.table?[identity.key]?.string ?? identity.implicit(place)
    }

    static func isTables(_ elements: [TOMLValue]) -> Bool { !elements.isEmpty && elements.allSatisfy { $0.table != nil } }
    static func isTablesValue(_ value: TOMLValue) -> Bool { value.array.map(isTables) ?? false }

    /// Marks `value` at `path`, and everything in it, as the page's.
    private static func mark(_ value: TOMLValue, at path: SettingPath, in fromPage: inout Set<SettingPath>) {
        fromPage.insert(path)
        switch value {
        case .table(let table): for key in table.keys { if let inner = table[key] { mark(inner, at: path.appending(.key(key)), in: &fromPage) } }
        case .array(let elements) where isTables(elements):
            for (place, element) in elements.enumerated() { mark(element, at: path.appending(.index(place)), in: &fromPage) }
        default: break
        }
    }
}
