extension TOMLParser {
    // MARK: Building the tables

    /// Puts `value` at `path`; the keys after the first `dottedFrom` are a dotted key, whose
    /// tables are made by it and closed to later headers.
    mutating func set(_ value: TOMLValue, at path: [String], dottedFrom: Int) throws(TOMLSyntaxError) {
        let parent = Array(path.dropLast())
        try refuseAddingToWholeValues(path, upTo: parent.count)
        for depth in dottedFrom..<parent.count {
            let prefix = Array(parent.prefix(depth + 1))
            if defined.contains(prefix) { throw error("the table [\(dotted(prefix))] is already defined; a dotted key cannot add to it") }
            if isListOfTables(prefix) { throw error("\(dotted(prefix)) is a list of tables ([[\(dotted(prefix))]]); a dotted key cannot add to it") }
        }
        let name = path[path.count - 1], shown = dotted(path)
        try withTable(at: parent) { (table: inout TOMLTable) throws(TOMLSyntaxError) in
            guard table[name] == nil else { throw TOMLSyntaxError(line: 0, column: 0, message: "\(shown) is given twice") }
            table[name] = value
        }
        for depth in dottedFrom..<parent.count { closed.insert(Array(parent.prefix(depth + 1))) }
        if case .table = value { closed.insert(path) }
        switch value {
        case .table, .array: frozen.insert(path)
        default: break
        }
    }

    /// Refuses a header or key that would add to an inline table or an array given whole with
    /// `=` (the first `depth` keys of `path` are where it would go).
    func refuseAddingToWholeValues(_ path: [String], upTo depth: Int) throws(TOMLSyntaxError) {
        for length in stride(from: 1, through: min(depth, path.count), by: 1) where frozen.contains(Array(path.prefix(length))) {
            let whole = dotted(Array(path.prefix(length)))
            throw error("\(whole) was given whole as an inline table or array; nothing can be added to it later")
        }
    }

    /// Refuses a control character written as itself in a string (tabs, and in a multi-line
    /// string its line breaks, are the exceptions).
    func refuseControl(_ scalar: Unicode.Scalar, multiline: Bool = false) throws(TOMLSyntaxError) {
        if multiline, scalar == "\n" || (scalar == "\r" && peek(at: 1) == "\n") { return }
        guard Self.isControl(scalar) else { return }
        throw error("a control character (U+\(Self.hex(scalar))) in a string: write it as \\u\(Self.hex(scalar))")
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool { (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F }

    static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    mutating func appendTable(at path: [String]) throws(TOMLSyntaxError) {
        let parent = Array(path.dropLast())
        let name = path[path.count - 1], shown = dotted(path)
        try withTable(at: parent) { (table: inout TOMLTable) throws(TOMLSyntaxError) in
            switch table[name] {
            case nil: table[name] = .array([.table(TOMLTable())])
            case .array(var elements) where elements.allSatisfy({ $0.table != nil }) && !elements.isEmpty:
                elements.append(.table(TOMLTable()))
                table[name] = .array(elements)
            default: throw TOMLSyntaxError(line: 0, column: 0, message: "[[\(shown)]] names something that is not a list of tables")
            }
        }
        // A new element: the tables defined under the previous one may be defined again.
        defined = defined.filter { !$0.starts(with: path) || $0.count <= path.count }
        closed = closed.filter { !$0.starts(with: path) || $0.count <= path.count }
        frozen = frozen.filter { !$0.starts(with: path) || $0.count <= path.count }
    }

    /// Whether `path` holds a list of tables ([[path]]).
    func isListOfTables(_ path: [String]) -> Bool {
        var table = root
        for name in path.dropLast() {
            switch table[name] {
            case .table(let sub): table = sub
            case .array(let elements): guard let last = elements.last?.table else { return false }; table = last
            default: return false
            }
        }
        if case .array = table[path[path.count - 1]] { return true }
        return false
    }

    /// Runs `body` on the table at `path` (made when missing; the last element of a list of tables).
    mutating func withTable(at path: [String], _ body: (inout TOMLTable) throws(TOMLSyntaxError) -> Void) throws(TOMLSyntaxError) {
        do {
            try Self.descend(&root, path[...], body)
        } catch let problem {
            throw problem.line == 0 ? error(problem.message) : problem
        }
    }

    static func descend(
        _ table: inout TOMLTable, _ path: ArraySlice<String>, _ body: (inout TOMLTable) throws(TOMLSyntaxError) -> Void
    ) throws(TOMLSyntaxError) {
        guard let name = path.first else { return try body(&table) }
        switch table[name] {
        case nil:
            var fresh = TOMLTable()
            try descend(&fresh, path.dropFirst(), body)
            table[name] = .table(fresh)
        case .table(var sub):
            try descend(&sub, path.dropFirst(), body)
            table[name] = .table(sub)
        case .array(var elements) where elements.last?.table != nil:
            guard case .table(var last) = elements[elements.count - 1] else { return }
            try descend(&last, path.dropFirst(), body)
            elements[elements.count - 1] = .table(last)
            table[name] = .array(elements)
        default:
            throw TOMLSyntaxError(line: 0, column: 0, message: "\(name) is a value, not a table")
        }
    }
}
