import FlapCore

/// A panel as a message is laid out for it: its size, what its flap 62 shows, and its modules'
/// flaps, whose lacks are warned about (``Drum/shown(_:)``).
public struct PanelFlaps: Sendable, Equatable {
    public var id: String
    public var size: BoardSize
    public var flap62: Flap62
    public var drum: Drum

    public init(id: String, size: BoardSize, flap62: Flap62, drum: Drum) {
        self.id = id
        self.size = size
        self.flap62 = flap62
        self.drum = drum
    }
}
