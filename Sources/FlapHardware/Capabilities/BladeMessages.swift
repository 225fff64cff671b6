/// A panel whose modules carry blades that are not board characters (an SBB station module's
/// destinations, hours or minutes), each shown by its label or its index. A capability a panel
/// may have: generic code asks for it with `as? any ShowsBlades`.
public protocol ShowsBlades: Panel {
    /// The label of blade `blade` of the module at `index` (row-major; modules of different
    /// types carry different blades), or its index as text where it has none.
    nonisolated func label(ofBlade blade: Int, module index: Int) -> String
    /// Turns each module to the blade chosen for it (row-major; nil leaves it as it is), between
    /// boards, and answers once every module has landed with the blade each says it shows.
    func show(blades: [BladeChoice?]) async throws(ModuleCommandError) -> [Int]
}

/// One module's blade, as a message names it.
public enum BladeChoice: Sendable, Equatable {
    /// By its index (0 is home).
    case index(Int)
    /// By its label, in any case.
    case label(String)
}
