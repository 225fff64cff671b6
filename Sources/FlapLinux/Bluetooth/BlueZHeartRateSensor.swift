import FlapHardware
import FlapHeartRate
import FoundationEssentials

/// Heart-rate straps over Bluetooth LE, through bluetoothd's D-Bus API: a discovery filter for
/// the Heart Rate service on LE, `Device1.Connect`, and notifications of the Heart Rate
/// Measurement characteristic (0x2A37) as `PropertiesChanged` on its `Value`. No pairing: heart
/// rate straps do not ask for it (a bonded strap works the same).
///
/// It follows the straps named (a Bluetooth address or the name a strap advertises), or every
/// strap that advertises the Heart Rate service. One adapter holds a handful of LE connections
/// (hardware/heart-rate.md says how many); run one sensor per adapter for more straps.
public struct BlueZHeartRateSensor<C: Clock>: HeartRateSensor where C.Duration == Duration, C.Instant: Sendable {
    /// `ble` and the adapter, as the status names it.
    public let name: String
    let adapter: String?
    let follow: [String]
    let busAddress: String?
    let clock: C

    /// Reads through `adapter` (`hci0`; nil: the first there is) the straps in `straps` (empty:
    /// any), over the system bus or the bus at `busAddress`.
    public init(adapter: String? = nil, straps: [String] = [], busAddress: String? = nil, clock: C) throws(HardwareError) {
        if let adapter, adapter.isEmpty || !adapter.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
            throw HardwareError(
                device: "ble \(adapter)", problem: "\(adapter.debugDescription) is not an adapter name",
                remedy: "name it as `bluetoothctl list` or `hciconfig` does, e.g. hci0")
        }
        for strap in straps where strap.allSatisfy(\.isWhitespace) {
            throw HardwareError(
                device: "ble \(adapter ?? "")", problem: "a strap to follow has an empty name",
                remedy: "give its address (C4:7C:8D:6A:12:34) or the name it advertises")
        }
        name = "ble \(adapter ?? "(first adapter)")"
        self.adapter = adapter
        follow = straps
        self.busAddress = busAddress
        self.clock = clock
    }

    /// Finds and follows straps over BlueZ until cancelled, telling `emit` each reading and each strap's state.
    public func run(_ emit: @escaping @Sendable (HeartRateEvent<C.Instant>) -> Void) async {
        var session = BlueZSession(sensor: self, emit: emit)
        var backoff = Backoff()
        emit(.status(HeartRateStatus(strap: nil, .searching)))
        while !Task.isCancelled {
            let started = clock.now
            let ended = await session.run()
            guard !Task.isCancelled else { break }
            session.busEnded(ended)
            if started.duration(to: clock.now) > .seconds(30) { backoff.reset() }
            try? await clock.sleep(for: backoff.delay(), tolerance: nil)
        }
    }
}
