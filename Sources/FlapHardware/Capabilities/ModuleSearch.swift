/// A panel whose modules are found by asking each address of a range, as an SBB wall's are:
/// they never announce themselves. A capability a panel may have: generic code asks for it with
/// `as? any FindsModules`.
public protocol FindsModules: Panel {
    /// Asks each address from `first` to `last` between boards for its module's serial number,
    /// keeping how far it has come in ``moduleSearch()``. One search at a time.
    func findModules(first: Int, last: Int) async throws(ModuleCommandError) -> ModuleSearch
    /// The search under way, or the last one; nil before the first.
    func moduleSearch() async -> ModuleSearch?
}

/// A search of a bus's addresses: how far it has come and what answered.
public struct ModuleSearch: Sendable, Equatable, Encodable {
    /// The panel searched.
    public var panel: String
    /// The first address asked.
    public var first: Int
    /// The last address to ask.
    public var last: Int
    /// How many addresses were asked so far.
    public var asked: Int
    /// Whether every address was asked (or the search failed).
    public var done: Bool
    /// The modules that answered, by address.
    public var found: [FoundModule]
    /// The panel's places whose configured address is in the range and did not answer, once done.
    public var silent: [SilentPlace]
    /// Why the search ended early (the bus failed), in words.
    public var problem: String?

    /// A search of `first` to `last` on `panel`, nothing asked yet.
    public init(panel: String, first: Int, last: Int) {
        self.panel = panel
        self.first = first
        self.last = last
        asked = 0
        done = false
        found = []
        silent = []
    }
}

/// A module that answered a search.
public struct FoundModule: Sendable, Equatable, Encodable {
    /// Its address.
    public var address: Int
    /// Its serial number.
    public var serial: Int
    /// Where the panel's configuration puts it, 1-based; nil when it gives it no place.
    public var row: Int?
    /// 1-based.
    public var column: Int?

    /// The module at `address` with `serial`, placed at `row`, `column` when configured.
    public init(address: Int, serial: Int, row: Int? = nil, column: Int? = nil) {
        self.address = address
        self.serial = serial
        self.row = row
        self.column = column
    }
}

/// A place of a panel whose module did not answer a search at its configured address.
public struct SilentPlace: Sendable, Equatable, Encodable {
    /// The address the panel's configuration gives it.
    public var address: Int
    /// 1-based.
    public var row: Int
    /// 1-based.
    public var column: Int

    /// The place at `row`, `column`, configured at `address`.
    public init(address: Int, row: Int, column: Int) {
        self.address = address
        self.row = row
        self.column = column
    }
}
