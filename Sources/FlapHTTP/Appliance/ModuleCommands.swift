import FlapHardware

/// Sends panels' modules the commands their drivers declare.
public protocol ModuleCommands: Sendable {
    /// The commands `panel`'s modules take; nil when there is no such panel or its modules take none.
    func moduleCommands(panel: String) async -> [ModuleCommandDeclaration]?
    /// Sends `call` to the module at `row`, `column` (1-based) of `panel`, between boards, and
    /// waits for its answer when it gives one.
    func send(_ call: ModuleCommandCall, panel: String, row: Int, column: Int) async throws(ModuleCommandError) -> ModuleReply
}

extension ModuleCommands {
    /// Panels whose modules take no commands.
    public func moduleCommands(panel: String) async -> [ModuleCommandDeclaration]? { nil }

    /// Panels whose modules take no commands.
    public func send(_ call: ModuleCommandCall, panel: String, row: Int, column: Int) async throws(ModuleCommandError) -> ModuleReply {
        throw .noModules(panel: panel)
    }
}
