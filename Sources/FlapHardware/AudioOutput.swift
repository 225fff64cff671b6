/// Where the clack track is played: ALSA on the device, a recorder in tests.
///
/// Implementation requirements:
/// - ``write(_:)`` queues interleaved signed 16-bit frames and returns once they are queued;
///   it recovers from underruns itself.
/// - ``delay()`` is the time from now until a frame written now is heard (the output delay),
///   so the player can start the track that much earlier.
/// - A missing or busy device throws a ``HardwareError``; sound is optional, callers carry on.
/// - ``close()`` drains nothing: it stops at once and releases the device.
public protocol AudioOutput: Sendable {
    var name: String { get }
    /// Frames a second.
    var sampleRate: Int { get }
    var channels: Int { get }
    func write(_ frames: [Int16]) async throws
    func delay() async throws -> Duration
    func close() async
}
