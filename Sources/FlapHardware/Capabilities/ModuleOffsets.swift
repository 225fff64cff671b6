/// A panel whose modules' offsets are set by hand (the steps from each home sensor's edge to the
/// middle of flap 0): a directly driven board's. A capability a panel may have, asked for with
/// `as? any TakesModuleOffsets`; the offsets are kept by whoever calibrates.
public protocol TakesModuleOffsets: Panel {
    /// Each module's offset in steps, row-major.
    func moduleOffsets() async -> [Int]
    /// The steps that turn a drum by one flap (for nudging by tenths).
    var stepsPerFlap: Double { get }
    /// Sets module `index`'s (row-major) offset; the module homes again.
    func setOffset(_ steps: Int, module index: Int) async
}
