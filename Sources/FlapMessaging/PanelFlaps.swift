import FlapCore

/// A panel as a message is laid out for it: its size, what its flap 62 shows, and its modules'
/// flaps, whose lacks are warned about (``Drum/shown(_:)``).
public struct PanelFlaps: Sendable, Equatable {
    /// The panel's id, as warnings name it.
    public var id: String
    /// Its rows and columns.
    public var size: BoardSize
    /// What its flap 62 shows.
    public var flap62: Flap62
    /// The flaps its modules carry.
    public var drum: Drum
    /// Each module's own flaps, row-major, where some differ from ``drum``.
    public var moduleDrums: [Drum]? = nil

    /// Panel `id` of `size`, whose modules carry `drum`.
    public init(id: String, size: BoardSize, flap62: Flap62, drum: Drum) {
        self.id = id
        self.size = size
        self.flap62 = flap62
        self.drum = drum
    }
}
