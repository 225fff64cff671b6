/// One reader of outside bytes as a fuzz target: its name (its folder in `Fuzz/`), the reader
/// it fuzzes, and how the bytes are handed to it.
public struct FuzzTarget: Sendable {
    /// Its name on flapfuzz's command line.
    public let name: String
    /// The reader's type, as Swift names it (`Feed`, `ANTFrameReader`).
    public let reader: String
    /// Reads one input as the reader does, throwing nothing and never crashing.
    public let read: @Sendable ([UInt8]) -> Void

    init(_ name: String, reads reader: Any.Type, _ read: @escaping @Sendable ([UInt8]) -> Void) {
        self.name = name
        self.reader = String(describing: reader)
        self.read = read
    }
}
