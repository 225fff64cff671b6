import FlapSettings
import FlapSources
import FlapTOML

/// Reads typed keys from one TOML table, recording a problem (with key and line) for each
/// missing, mistyped or unknown one.
///
/// A table's keys are declared where they are read: the reader records every key asked for,
/// and ``finish(owner:)`` refuses a key in the file that this table did not ask for (for this
/// panel's driver, this source's kind), so a setting is never accepted and then ignored.
struct TableReader: SourceTableReading {
    let table: TOMLTable
    let path: String
    let index: TOMLLineIndex
    var problems: [ConfigurationError.Problem] = []
    /// The keys asked for, in the order first asked: what this table may hold.
    private(set) var asked: [String] = []
    /// Where the settings read are declared, for the page's forms; nil where no one asks.
    var declarations: SettingDeclarations?

    init(table: TOMLTable, path: String, index: TOMLLineIndex, declarations: SettingDeclarations? = nil) {
        self.table = table
        self.path = path
        self.index = index
        self.declarations = declarations
    }

    /// Declares `name` a setting of kind `type`: asked for here, whether or not it is given.
    func declare(_ name: String, _ type: SettingDeclaration.Kind, choices: [String]? = nil) {
        declarations?.declare(SettingDeclaration(key: key(name), type: type, choices: choices))
    }

    func key(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }

    mutating func fail(_ name: String, _ kind: ConfigurationProblem) {
        problems.append(.init(key: key(name), line: index.line(of: key(name)), kind: kind))
    }

    /// A table's own rule broken at `name`, in the words `problem`.
    mutating func fail(_ name: String, _ problem: String) { fail(name, .rule(problem)) }

    mutating func string(_ name: String) -> String? {
        declare(name, .text)
        guard let value = self[name] else { return nil }
        guard let string = value.string else { fail(name, .notAString); return nil }
        return string
    }

    mutating func int(_ name: String) -> Int? {
        declare(name, .wholeNumber)
        guard let value = self[name] else { return nil }
        guard let int = value.int else { fail(name, .notAWholeNumber); return nil }
        return int
    }

    /// A number, whole or not: `52.52`, `13`.
    mutating func number(_ name: String) -> Double? {
        declare(name, .number)
        guard let value = self[name] else { return nil }
        switch value {
        case .float(let number): return number
        case .integer(let whole): return Double(whole)
        default: fail(name, .notANumber); return nil
        }
    }

    mutating func bool(_ name: String) -> Bool? {
        declare(name, .boolean)
        guard let value = self[name] else { return nil }
        guard let bool = value.bool else { fail(name, .notABoolean); return nil }
        return bool
    }

    mutating func port(_ name: String) -> Int? {
        declare(name, .wholeNumber)
        guard let port = int(name) else { return nil }
        guard (0...65535).contains(port) else { fail(name, .notAPort(port)); return nil }
        return port
    }

    /// The value of `name` as one of `E`'s cases, named by their raw values; anything else is a
    /// problem naming the key, the value and the choices.
    mutating func choice<E: RawRepresentable & CaseIterable>(_ name: String, of type: E.Type = E.self) -> E? where E.RawValue == String {
        choice(name, E.allCases.map(\.rawValue)).flatMap(E.init(rawValue:))
    }

    mutating func choice(_ name: String, _ allowed: [String]) -> String? {
        declare(name, .choice, choices: allowed)
        guard let value = string(name) else { return nil }
        guard allowed.contains(value) else {
            fail(name, .notOneOf(value, choices: allowed))
            return nil
        }
        return value
    }

    /// One string or a list of them: `days = "weekdays"` or `days = ["sat", "sun"]`.
    mutating func oneOrMoreStrings(_ name: String) -> [String]? {
        declare(name, .list)
        if let single = self[name]?.string { return [single] }
        return strings(name)
    }

    mutating func strings(_ name: String) -> [String]? {
        declare(name, .list)
        guard let value = self[name] else { return nil }
        guard let array = value.array, array.allSatisfy({ $0.string != nil }) else {
            fail(name, .notAListOfStrings)
            return nil
        }
        return array.compactMap(\.string)
    }

    /// A list of lists of whole numbers, such as `[[17, 18, 27, 22], [5, 6, 13, 19]]`.
    mutating func intLists(_ name: String, example: String) -> [[Int]]? {
        declare(name, .listOfLists)
        guard let value = self[name] else { return nil }
        guard let outer = value.array, outer.allSatisfy({ $0.array?.allSatisfy { $0.int != nil } == true }) else {
            fail(name, .notAListOfLists(example: example))
            return nil
        }
        return outer.compactMap { $0.array?.compactMap(\.int) }
    }

    /// A table of strings, such as `headers = { Accept = "application/json" }`.
    mutating func stringTable(_ name: String) -> [String: String]? {
        declare(name, .table)
        guard var table = table(name) else { return nil }
        var found: [String: String] = [:]
        for entry in table.table.keys.sorted() { if let value = table.string(entry) { found[entry] = value } }
        problems += table.problems
        return found
    }

    /// A secret given inline (`key`) or as a file (`key_file`), not both.
    mutating func secret(_ name: String, file fileName: String) -> Secret? {
        declare(name, .secret)
        let inline = string(name), file = string(fileName)
        if inline != nil, file != nil { fail(name, .notBoth(name, fileName)) }
        if let file { return .file(file) }
        return inline.map(Secret.value)
    }

    mutating func table(_ name: String) -> TableReader? {
        guard let value = self[name] else { return nil }
        guard let sub = value.table else { fail(name, .notATable(name)); return nil }
        return TableReader(table: sub, path: key(name), index: index, declarations: declarations)
    }

    /// Reads the table `name`, when it is there, with `read`, keeping its problems. A reading
    /// that declares its settings reads an absent table as an empty one, so its keys are declared.
    mutating func section(_ name: String, _ read: (inout TableReader) -> Void) {
        let absent = declarations != nil && self[name] == nil
        guard var table = absent ? TableReader(table: TOMLTable(), path: key(name), index: index, declarations: declarations) : table(name)
        else { return }
        read(&table)
        problems += table.problems
    }

    /// Reads each table of the array `name` (`[[name]]`), with its index, keeping their problems.
    mutating func sections(_ name: String, _ read: (Int, inout TableReader) -> Void) {
        for (index, var table) in (tables(name) ?? []).enumerated() {
            read(index, &table)
            problems += table.problems
        }
    }

    mutating func tables(_ name: String) -> [TableReader]? {
        guard let value = self[name] else { return nil }
        guard let array = value.array else { fail(name, .notTables(name)); return nil }
        var readers: [TableReader] = []
        for (i, element) in array.enumerated() {
            guard let sub = element.table else { fail("\(name)[\(i)]", .notATableEntry); continue }
            readers.append(TableReader(table: sub, path: key("\(name)[\(i)]"), index: index, declarations: declarations))
        }
        return readers
    }

    /// The value of key `name`, which this table now may hold.
    subscript(name: String) -> TOMLValue? {
        mutating get {
            if !asked.contains(name) { asked.append(name) }
            return table[name]
        }
    }

    /// Takes every key of the table as read: for a table already refused as a whole (a source
    /// with no kind), whose other keys are not worth a problem each.
    mutating func askedForAll() {
        for name in table.keys.sorted() where !asked.contains(name) { asked.append(name) }
    }

    /// `a`, `a or b`, `a, b or c`: the names a key could belong to, as a problem says them.
    static func alternatives(_ names: [String]) -> String? {
        guard let last = names.last else { return nil }
        return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " or " + last
    }

    /// Records a problem for every key in the file that this table did not ask for: `owner`
    /// says whose setting it is when it belongs elsewhere ("chain is a hub75 setting; this panel
    /// is max7219"), else the nearest key asked for is suggested.
    mutating func finish(owner: (String) -> String? = { _ in nil }) {
        for name in table.keys.sorted() where !asked.contains(name) {
            if let elsewhere = owner(name) {
                fail(name, .elsewhere(elsewhere))
                continue
            }
            let guess = asked.min { distance(name, $0) < distance(name, $1) }
            fail(name, .unknownKey(suggestion: guess.flatMap { distance(name, $0) <= 3 ? $0 : nil }, known: asked))
        }
    }

    private func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in 1...max(1, b.count) where !b.isEmpty {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }
}

extension TableReader {
    /// A length of time: seconds (`600`) or with a unit (`"30s"`, `"10m"`, `"2h"`, `"1d"`); zero
    /// only where `zero` allows it (a trigger's cooldown).
    mutating func interval(_ name: String, zero: Bool = false) -> Duration? {
        declare(name, .interval)
        guard let value = self[name] else { return nil }
        if let seconds = value.int, seconds > 0 || (zero && seconds == 0) { return .seconds(seconds) }
        if let text = value.string {
            if zero && (text == "0" || text == "0s") { return .zero }
            if let duration = SourceInterval.parse(text) { return duration }
        }
        fail(name, .notAnInterval)
        return nil
    }
}
