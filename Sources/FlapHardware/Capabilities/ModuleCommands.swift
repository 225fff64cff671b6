/// A command of a module's own firmware, for panels whose modules take them one by one: how an
/// owner calibrates a wall from flapctl and the page.
public enum ModuleCommand: Sendable, Equatable {
    /// Find home (the blank flap).
    case home
    /// Measure the steps of a revolution (the module then homes).
    case measure
    /// The steps from the magnet to flap 0.
    case offset(Int)
    /// Turn on this many steps, added to the offset.
    case nudge(Int)
    /// The flap named by its character on the reel shows at this step.
    case store(flap: String, step: Int)
    /// What the module keeps: its offset, revolution and stored positions.
    case dump
    /// The module's new ID.
    case setID(Int)
    /// Home at power-up, or not.
    case autoHome(Bool)
    /// Forget the stored positions.
    case erase
}

/// What a module said to a command, as the API answers it.
public struct ModuleReply: Sendable, Encodable, Equatable {
    public var panel: String
    public var row: Int
    public var column: Int
    /// The module's ID (its new one after `setID`).
    public var id: Int
    /// The frame sent, without its newlines (`m05h`).
    public var sent: String
    /// The revolution it measured, in steps.
    public var revolution: Int?
    /// Its offset, revolution and stored positions (by flap character), from a dump.
    public var offset: Int?
    public var steps: Int?
    public var positions: [String: Int]?
    /// What the owner should do next, when there is something (`ids` in flapd.toml after a new ID).
    public var note: String?

    public init(panel: String, row: Int, column: Int, id: Int, sent: String) {
        self.panel = panel
        self.row = row
        self.column = column
        self.id = id
        self.sent = sent
    }
}

/// Why a module command could not be sent.
public enum ModuleCommandError: Error, Sendable, Equatable {
    /// The panel has no modules that take commands, or there is no such panel.
    case noModules(panel: String)
    /// The row or column is off the board.
    case offTheBoard(rows: Int, columns: Int)
    /// A value the command takes is wrong, said in words.
    case invalid(String)
    /// The module did not answer in time, or the bus failed.
    case noAnswer(String)
}

/// A panel whose modules take commands of their own firmware, one module at a time (an RS-485
/// wall's). A capability a panel may have: generic code asks for it with
/// `as? any TakesModuleCommands`, as Hummingbird asks a context for what it can do.
public protocol TakesModuleCommands: Panel {
    /// Sends `command` to the module at `row`, `column` (1-based), between boards, and waits for
    /// its answer when it gives one.
    func send(_ command: ModuleCommand, row: Int, column: Int) async throws(ModuleCommandError) -> ModuleReply
}
