/// A panel whose hardware is reached through a system library that depends on the system it
/// runs on (GPIO through libgpiod 1 or 2): named in the log and in `/v1/status`, so an owner can
/// tell which one was found. A capability a panel may have, asked for with
/// `as? any ReachedThroughLibrary`.
public protocol ReachedThroughLibrary: Panel {
    /// The library and its version, `libgpiod 2.2.1 (libgpiod.so.3)`; nil when the hardware is
    /// reached without one (a simulated bus, SPI).
    nonisolated var systemLibrary: String? { get }
}
