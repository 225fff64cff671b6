import FlapHTTP
import FlapHardwareSearch
import FlapHeartRate
import FlapLinux

/// "Find my board" on this machine: its ports opened as the serial drivers open them, on the
/// real clock, with the ports this board's panels and sensors use left alone.
struct ApplianceHardware: HardwareFinder {
    let search: HardwareSearch<ContinuousClock>
    /// Each configured device (as flapd.toml names it) → what uses it.
    let inUse: [String: String]

    init(_ configuration: FlapdConfiguration) {
        search = HardwareSearch(devices: configuration.devices, clock: ContinuousClock()) { path, settings in
            try LinuxSerialPort(path: path, settings: settings)
        }
        var inUse: [String: String] = [:]
        for panel in configuration.panels { if let device = panel.device { inUse[device] = "panel \(panel.id)" } }
        for sensor in configuration.sensors { if let device = sensor.device { inUse[device] = "heart-rate sensor \(sensor.driver)" } }
        self.inUse = inUse
    }

    /// `GET /v1/hardware`'s answer.
    struct Listing: Encodable, Sendable {
        /// Now, nothing written.
        var listed: FoundHardware
        /// What a search under way is doing.
        var searching: String?
        /// What the last search found.
        var lastSearch: FoundHardware?
    }

    func hardware() async -> any Encodable & Sendable {
        Listing(listed: await search.listed(inUse: inUse), searching: await search.doing, lastSearch: await search.found)
    }

    func search(ids: ClosedRange<Int>) async -> (any Encodable & Sendable)? {
        await search.search(ids: ids, inUse: inUse)
    }
}
