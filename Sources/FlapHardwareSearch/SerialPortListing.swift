import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The serial ports of this machine by the names that last: every link in `/dev/serial/by-id`
/// (a USB adapter by its maker, model and serial number), the Pi's UART aliases (`serial0`,
/// `serial1`), then any USB or UART device no stable name leads to.
public struct SerialPortListing: Sendable {
    /// Where the devices are: `/dev`, or a folder a test made.
    public var devices: String

    /// The ports under `devices`.
    public init(devices: String = "/dev") { self.devices = devices }

    /// Each port once, by its most lasting name, in that order; a name whose device is gone is left out.
    public func ports() -> [(path: String, device: String)] {
        var found: [(path: String, device: String)] = []
        var seen = Set<String>()
        func add(_ path: String) {
            guard let device = Self.resolved(path), !seen.contains(device) else { return }
            seen.insert(device)
            found.append((path, device))
        }
        let byID = devices + "/serial/by-id"
        for name in Self.names(in: byID).sorted() { add(byID + "/" + name) }
        for alias in ["serial0", "serial1"] { add(devices + "/" + alias) }
        let kernelNames = Self.names(in: devices).filter { name in ["ttyUSB", "ttyACM", "ttyAMA"].contains { name.hasPrefix($0) } }
        for name in kernelNames.sorted() { add(devices + "/" + name) }
        return found
    }

    static func names(in folder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    }

    /// The device a path leads to, links followed, or nil when there is none.
    static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }
}
