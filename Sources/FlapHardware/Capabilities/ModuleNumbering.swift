/// Where the numbering of a wall's modules stands: which place answers to its ID, and the
/// modules heard by their serial numbers that have no place yet.
public struct ModuleNumbering: Sendable, Equatable, Encodable {
    /// A module known by its serial number that has no place yet.
    public struct Module: Sendable, Equatable, Encodable {
        /// Its serial number, as it says it.
        public var serial: String
        /// Whether it shows the mark now (the one to tap the place of).
        public var marked: Bool

        /// The module `serial`.
        public init(serial: String, marked: Bool = false) {
            self.serial = serial
            self.marked = marked
        }
    }

    /// One place of the wall.
    public struct Place: Sendable, Equatable, Encodable {
        /// Its row, 1-based.
        public var row: Int
        /// Its column, 1-based.
        public var column: Int
        /// The ID its module answers to.
        public var id: Int
        /// Whether a module answers to it: one heard by its ID, or numbered here.
        public var answered: Bool
        /// That module's serial number, when it said one (firmware v7's modules have none).
        public var serial: String?

        /// The place at `row`, `column`, for the module `id`.
        public init(row: Int, column: Int, id: Int, answered: Bool, serial: String? = nil) {
            self.row = row
            self.column = column
            self.id = id
            self.answered = answered
            self.serial = serial
        }
    }

    /// The panel's ID.
    public var panel: String
    /// The wall's rows.
    public var rows: Int
    /// The wall's columns.
    public var columns: Int
    /// Every place, row by row.
    public var places: [Place]
    /// Modules heard with no place: announcing themselves for want of an ID, or given a
    /// temporary one to show their mark.
    public var unplaced: [Module]
    /// Whether every place answers: the wall is numbered.
    public var complete: Bool { places.allSatisfy(\.answered) }

    /// The state of `panel`'s numbering.
    public init(panel: String, rows: Int, columns: Int, places: [Place], unplaced: [Module]) {
        self.panel = panel
        self.rows = rows
        self.columns = columns
        self.places = places
        self.unplaced = unplaced
    }

    private enum CodingKeys: String, CodingKey { case panel, rows, columns, places, unplaced, complete }

    /// Its fields, and whether it is complete.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(panel, forKey: .panel)
        try container.encode(rows, forKey: .rows)
        try container.encode(columns, forKey: .columns)
        try container.encode(places, forKey: .places)
        try container.encode(unplaced, forKey: .unplaced)
        try container.encode(complete, forKey: .complete)
    }
}

/// A panel whose modules are numbered from where they hang (Universal Firmware's, which announce
/// their serial numbers until given an ID): a module is made to show a mark, the owner says
/// where it hangs, and it takes that place's ID. A capability a panel may have, asked for with
/// `as? any NumbersModules`.
public protocol NumbersModules: Panel {
    /// Where the numbering stands; `asking` first asks each place's ID who answers (a moment a
    /// place), as a numbering begins.
    func numbering(asking: Bool) async -> ModuleNumbering
    /// Makes the module `serial` show the mark (and the one marked before show blank again).
    func mark(serial: String) async throws(ModuleCommandError) -> ModuleNumbering
    /// Gives the module `serial` the ID of the place at `row`, `column` (1-based); a module that
    /// answered to that ID before is given a temporary one, to be placed again.
    func place(serial: String, row: Int, column: Int) async throws(ModuleCommandError) -> ModuleNumbering
}
