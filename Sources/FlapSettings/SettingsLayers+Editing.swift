import FlapTOML

extension SettingsLayers {
    /// Why a change cannot be made where it was asked, in words that name the setting.
    public struct EditProblem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The setting, as asked.
        public var key: String
        /// What is wrong.
        public var message: String
        /// "KEY: what is wrong".
        public var description: String { "\(key): \(message)" }

        /// `key` cannot be changed, because `message`.
        public init(key: String, message: String) {
            self.key = key
            self.message = message
        }
    }

    /// Gives the setting at `path` the value `value` in the page's layer; nil takes the page's
    /// value back, so the file's (or flapd's default) is used again.
    public mutating func set(_ value: TOMLValue?, at path: SettingPath) throws(EditProblem) {
        guard case .key = path.steps.first else { throw EditProblem(key: path.description, message: "a setting starts with a key") }
        let merged = merged().settings
        try edit(&page, merged: merged, file: file, steps: path.steps[...], value: value, path: path)
    }

    private func edit(
        _ page: inout TOMLTable, merged: TOMLTable?, file: TOMLTable?, steps: ArraySlice<SettingPath.Step>, value: TOMLValue?,
        path: SettingPath
    ) throws(EditProblem) {
        guard case .key(let key) = steps.first else { throw EditProblem(key: path.description, message: "a place must follow a key") }
        let rest = steps.dropFirst()
        guard let next = rest.first else {
            page[key] = value
            return
        }
        switch next {
        case .key:
            if let existing = merged?[key], existing.table == nil {
                throw EditProblem(key: path.description, message: "\(key) is a single value, not a table")
            }
            var inner = page[key]?.table ?? TOMLTable()
            try edit(&inner, merged: merged?[key]?.table, file: file?[key]?.table, steps: rest, value: value, path: path)
            page[key] = inner.keys.isEmpty ? nil : .table(inner)
        case .index(let place):
            var entries = page[key]?.array ?? []
            try editEntry(
                &entries, named: key, at: place, merged: merged?[key], file: file?[key]?.array ?? [], steps: rest.dropFirst(), value: value,
                path: path)
            page[key] = entries.isEmpty ? nil : .array(entries)
        }
    }

    private func editEntry(
        _ entries: inout [TOMLValue], named name: String, at place: Int, merged: TOMLValue?, file: [TOMLValue],
        steps: ArraySlice<SettingPath.Step>, value: TOMLValue?, path: SettingPath
    ) throws(EditProblem) {
        if let merged, !Self.isTablesValue(merged) {
            throw EditProblem(key: path.description, message: "\(name) is a list of values; set it whole, as \(name) = [...]")
        }
        let shown = merged?.array ?? []
        guard place <= shown.count else {
            throw EditProblem(
                key: path.description, message: "there \(shown.count == 1 ? "is" : "are") \(shown.count) \(name); the next is \(name)[\(shown.count)]"
            )
        }
        if case .index = steps.first { throw EditProblem(key: path.description, message: "a [[\(name)]] entry is a table, not a list") }
        guard let identity = identities[name] else {
            while entries.count <= place { entries.append(.table(TOMLTable())) }
            try editTable(
                &entries[place], shown: place < shown.count ? shown[place] : nil, file: place < file.count ? file[place] : nil, steps: steps,
                value: value, path: path)
            while let last = entries.last, last.table?.keys.isEmpty == true { entries.removeLast() }
            return
        }
        let wanted: String
        if place < shown.count, let existing = self.identity(of: shown[place], at: place, in: name) {
            wanted = existing
        } else if value == nil {
            return
        } else if steps.map({ $0 }) == [.key(identity.key)], let given = value?.string {
            wanted = given
        } else if steps.isEmpty, let given = value?.table?[identity.key]?.string {
            wanted = given
        } else {
            throw EditProblem(
                key: path.description, message: "a new [[\(name)]] needs its \(identity.key) first: set \(name)[\(place)].\(identity.key)")
        }
        let fromFile = file.indices.first { self.identity(of: file[$0], at: $0, in: name) == wanted }
        if fromFile != nil, steps.first == .key(identity.key) {
            throw EditProblem(key: path.description, message: "\(identity.key) names this \(name) in flapd.toml; change it there")
        }
        // Without its name, an entry the page added would be no entry: taking the name back takes it all back.
        let steps = steps.map { $0 } == [.key(identity.key)] && value == nil ? steps.prefix(0) : steps
        var index = entries.firstIndex { $0.table?[identity.key]?.string == wanted }
        if index == nil {
            var named = TOMLTable()
            named[identity.key] = .string(wanted)
            entries.append(.table(named))
            index = entries.count - 1
        }
        guard let index else { return }
        try editTable(
            &entries[index], shown: place < shown.count ? shown[place] : nil, file: fromFile.map { file[$0] }, steps: steps, value: value, path: path)
        if steps.isEmpty, value != nil, case .table(var whole) = entries[index] {
            whole[identity.key] = .string(wanted)
            entries[index] = .table(whole)
        }
        // An entry left with nothing but its name changes nothing of the file's; one the page added goes when its settings do.
        if let table = entries[index].table, table.keys.allSatisfy({ $0 == identity.key }), fromFile != nil || steps.isEmpty && value == nil {
            entries.remove(at: index)
        }
    }

    private func editTable(
        _ entry: inout TOMLValue, shown: TOMLValue?, file: TOMLValue?, steps: ArraySlice<SettingPath.Step>, value: TOMLValue?, path: SettingPath
    ) throws(EditProblem) {
        guard !steps.isEmpty else {
            guard value == nil || value?.table != nil else { throw EditProblem(key: path.description, message: "a [[…]] entry is set as a table") }
            entry = value ?? .table(TOMLTable())
            return
        }
        var table = entry.table ?? TOMLTable()
        try edit(&table, merged: shown?.table, file: file?.table, steps: steps, value: value, path: path)
        entry = .table(table)
    }
}
