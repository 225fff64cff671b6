import FlapHardware

/// Sends panels' modules their firmware's commands.
public protocol ModuleCommands: Sendable {
    /// Sends `command` to the module at `row`, `column` (1-based) of `panel`, between boards, and
    /// waits for its answer when it gives one.
    func send(_ command: ModuleCommand, panel: String, row: Int, column: Int) async throws(ModuleCommandError) -> ModuleReply
}

extension ModuleCommands {
    /// Panels whose modules take no commands.
    public func send(_ command: ModuleCommand, panel: String, row: Int, column: Int) async throws(ModuleCommandError) -> ModuleReply {
        throw .noModules(panel: panel)
    }
}
