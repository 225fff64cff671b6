import FlapHardware
import Synchronization

/// One end of a simulated serial cable: what one end writes, the other reads, each byte arriving
/// when the line would have carried it (10 bits a byte at the link's baud rate). ``pair(clock:settings:)``
/// makes both ends. Unplugging an end makes both fail as a vanished USB adapter does.
public final class SimulatedSerialPort<C: Clock>: SerialPort where C.Duration == Duration {
    /// Its name.
    public let name: String
    private let clock: C
    private let incoming: Line
    private let outgoing: Line
    private let byteTime: Duration

    /// Both ends of a cable at `settings` (the Chainlink link by default).
    public static func pair(
        clock: C, settings: SerialSettings = .chainlink, names: (String, String) = ("host", "device")
    )
        -> (host: SimulatedSerialPort, device: SimulatedSerialPort)
    {
        let (a, b) = (Line(), Line())
        let byteTime = Duration.seconds(10) / settings.baudRate
        return (
            SimulatedSerialPort(name: names.0, clock: clock, incoming: b, outgoing: a, byteTime: byteTime),
            SimulatedSerialPort(name: names.1, clock: clock, incoming: a, outgoing: b, byteTime: byteTime)
        )
    }

    private init(name: String, clock: C, incoming: Line, outgoing: Line, byteTime: Duration) {
        self.name = name
        self.clock = clock
        self.incoming = incoming
        self.outgoing = outgoing
        self.byteTime = byteTime
    }

    /// Sends `bytes` to the other end, at the port's speed.
    public func write(_ bytes: [UInt8]) async throws {
        let now = clock.now
        let result = outgoing.state.withLock { line -> Result<Void, HardwareError> in
            guard line.connected else { return .failure(unplugged) }
            var arrival = max(now, line.lastArrival ?? now)
            for byte in bytes {
                arrival = arrival.advanced(by: byteTime)
                line.bytes.append((byte, arrival))
            }
            line.lastArrival = arrival
            return .success(())
        }
        try result.get()
    }

    /// Up to `maximum` bytes from the other end, waiting up to `timeout` for the first.
    public func read(maximum: Int, timeout: Duration) async throws -> [UInt8] {
        try await readArrivals(maximum: maximum, timeout: timeout).map(\.byte)
    }

    /// As ``read(maximum:timeout:)``, with the instant each byte arrived: a simulated device
    /// whose task lags behind the clock (it started late on a busy machine) still takes each byte
    /// when the line carried it.
    public func readArrivals(maximum: Int, timeout: Duration) async throws -> [(byte: UInt8, arrival: C.Instant)] {
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let now = clock.now
            let result = incoming.state.withLock { line -> Result<[(byte: UInt8, arrival: C.Instant)], HardwareError> in
                guard line.connected else { return .failure(unplugged) }
                var end = line.head
                while end < line.bytes.count, end - line.head < maximum, line.bytes[end].arrival <= now { end += 1 }
                let taken = Array(line.bytes[line.head..<end])
                line.head = end
                if line.head > 4096 {
                    line.bytes.removeFirst(line.head)
                    line.head = 0
                }
                return .success(taken)
            }
            let bytes = try result.get()
            if !bytes.isEmpty || now >= deadline { return bytes }
            try await clock.sleep(until: min(deadline, now.advanced(by: .milliseconds(1))), tolerance: nil)
        }
    }

    /// When the last byte the other end has written so far arrives here (nil: it wrote nothing):
    /// on a half-duplex line, the other end drives it until then.
    public var incomingEnds: C.Instant? { incoming.state.withLock { $0.lastArrival } }

    /// Holds the line low for `duration` once the bytes written before have crossed it, and
    /// returns when the BREAK ends: the other end sees it in ``breaksEnded(by:)``.
    public func sendBreak(for duration: Duration) async throws {
        let now = clock.now
        let ends = try outgoing.state.withLock { line -> Result<C.Instant, HardwareError> in
            guard line.connected else { return .failure(unplugged) }
            let end = max(now, line.lastArrival ?? now).advanced(by: duration)
            line.breaks.append(end)
            line.lastArrival = end
            return .success(end)
        }.get()
        try await clock.sleep(until: ends, tolerance: nil)
    }

    /// The instants the BREAKs the other end sent ended, up to `instant`, each told once.
    public func breaksEnded(by instant: C.Instant) -> [C.Instant] {
        incoming.state.withLock { line in
            let ended = line.breaks.filter { $0 <= instant }
            line.breaks.removeAll { $0 <= instant }
            return ended
        }
    }

    /// Closes this end.
    public func close() async {
        for line in [incoming, outgoing] { line.state.withLock { $0.connected = false } }
    }

    /// Pulls the cable out (both ends fail until ``reconnect()``), as an unplugged adapter does.
    public func unplug() {
        for line in [incoming, outgoing] {
            line.state.withLock {
                $0.connected = false; $0.bytes.removeAll(); $0.head = 0
            }
        }
    }

    /// Plugs the cable back in.
    public func reconnect() { for line in [incoming, outgoing] { line.state.withLock { $0.connected = true } } }

    private var unplugged: HardwareError { HardwareError(device: name, problem: "the device went away", remedy: "is the cable plugged in?") }

    final class Line: Sendable {
        struct State {
            var bytes: [(byte: UInt8, arrival: C.Instant)] = []
            var head = 0
            var lastArrival: C.Instant?
            var connected = true
            /// When each BREAK the other end sent ends, not yet taken.
            var breaks: [C.Instant] = []
        }
        let state = Mutex(State())
    }
}
