import FlapHardware

/// Sends panels' modules the commands their drivers declare.
public protocol ModuleCommands: Sendable {
    /// The commands `panel`'s modules take; nil when there is no such panel or its modules take none.
    func moduleCommands(panel: String) async -> [ModuleCommandDeclaration]?
    /// Sends `call` to the module at `row`, `column` (1-based) of `panel`, between boards, and
    /// waits for its answer when it gives one.
    func send(_ call: ModuleCommandCall, panel: String, row: Int, column: Int) async throws(ModuleCommandError) -> ModuleReply
    /// Where the numbering of `panel`'s modules stands; `asking` asks each place first.
    func numbering(panel: String, asking: Bool) async throws(ModuleCommandError) -> ModuleNumbering
    /// Makes the module `serial` of `panel` show the mark.
    func mark(serial: String, panel: String) async throws(ModuleCommandError) -> ModuleNumbering
    /// Gives the module `serial` the ID of `panel`'s place at `row`, `column`; the wall shows
    /// READY once every place answers.
    func place(serial: String, panel: String, row: Int, column: Int) async throws(ModuleCommandError) -> ModuleNumbering
    /// The search of `panel`'s addresses under way, or its last; nil before the first.
    func moduleSearch(panel: String) async throws(ModuleCommandError) -> ModuleSearch?
    /// Asks each of `panel`'s addresses from `first` to `last` for its module.
    func findModules(panel: String, first: Int, last: Int) async throws(ModuleCommandError) -> ModuleSearch
    /// Turns each of `panel`'s modules to the blade chosen for it (row-major; nil: as it is), and
    /// says the blade each shows once it rests, with its label.
    func showBlades(panel: String, _ choices: [BladeChoice?]) async throws(ModuleCommandError) -> (blades: [Int], labels: [String])
}

extension ModuleCommands {
    /// Panels whose modules take no commands.
    public func moduleCommands(panel: String) async -> [ModuleCommandDeclaration]? { nil }

    /// Panels whose modules take no commands.
    public func send(_ call: ModuleCommandCall, panel: String, row: Int, column: Int) async throws(ModuleCommandError) -> ModuleReply {
        throw .noModules(panel: panel)
    }

    /// Panels whose modules are not numbered by where they hang.
    public func numbering(panel: String, asking: Bool) async throws(ModuleCommandError) -> ModuleNumbering {
        throw .noModules(panel: panel)
    }

    /// Panels whose modules are not numbered by where they hang.
    public func mark(serial: String, panel: String) async throws(ModuleCommandError) -> ModuleNumbering { throw .noModules(panel: panel) }

    /// Panels whose modules are not numbered by where they hang.
    public func place(serial: String, panel: String, row: Int, column: Int) async throws(ModuleCommandError) -> ModuleNumbering {
        throw .noModules(panel: panel)
    }

    /// Panels whose modules are not found by address.
    public func moduleSearch(panel: String) async throws(ModuleCommandError) -> ModuleSearch? { throw .noModules(panel: panel) }

    /// Panels whose modules are not found by address.
    public func findModules(panel: String, first: Int, last: Int) async throws(ModuleCommandError) -> ModuleSearch {
        throw .noModules(panel: panel)
    }

    /// Panels whose modules carry no labelled blades.
    public func showBlades(panel: String, _ choices: [BladeChoice?]) async throws(ModuleCommandError) -> (blades: [Int], labels: [String]) {
        throw .noModules(panel: panel)
    }
}
