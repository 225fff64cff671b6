import FlapCore
import FlapHTTP
import FlapHardwareSearch
import FlapHeartRate
import FlapLinux
import FlapStorage
import FlapVestaboard
import FoundationEssentials
import Synchronization

/// "Find my board" on this machine: its ports opened as the serial drivers open them, on the
/// real clock, with the ports this board's panels and sensors use left alone; Vestaboards asked
/// for on the network, their Local API keys kept in `state_dir/vestaboards` (0600, never shown).
struct ApplianceHardware: HardwareFinder {
    let search: HardwareSearch<ContinuousClock>
    /// Each configured device (as flapd.toml names it) → what uses it.
    let inUse: [String: String]
    /// Where Vestaboards' Local API keys are kept.
    let keys: String
    let vestaboards = VestaboardFinder()
    /// Whether this board reads straps itself over Bluetooth (its adapter is then taken).
    let readsStraps: Bool
    /// One listening for straps at a time.
    let listening = ListeningFlag()

    init(_ configuration: FlapdConfiguration, state: StateDirectory) {
        search = HardwareSearch(devices: configuration.devices, clock: ContinuousClock()) { path, settings in
            try LinuxSerialPort(path: path, settings: settings)
        }
        var inUse: [String: String] = [:]
        for panel in configuration.panels { if let device = panel.device { inUse[device] = "panel \(panel.id)" } }
        for sensor in configuration.sensors { if let device = sensor.device { inUse[device] = "heart-rate sensor \(sensor.driver)" } }
        self.inUse = inUse
        keys = state.file("vestaboards")
        readsStraps = configuration.sensors.contains { $0.driver.rawValue == "ble" }
    }

    /// `GET /v1/hardware`'s answer.
    struct Listing: Encodable, Sendable {
        /// Now, nothing written.
        var listed: FoundHardware
        /// What a search under way is doing.
        var searching: String?
        /// What the last search found.
        var lastSearch: FoundHardware?
        /// The Vestaboards whose Local API key is kept, by their key files.
        var vestaboardKeys: [String]
    }

    func hardware() async -> any Encodable & Sendable {
        let kept = ((try? FileManager.default.contentsOfDirectory(atPath: keys)) ?? []).filter { $0.hasSuffix(".key") }.sorted()
        return Listing(
            listed: await search.listed(inUse: inUse), searching: await search.doing, lastSearch: await search.found,
            vestaboardKeys: kept.map { keys + "/" + $0 })
    }

    func search(ids: ClosedRange<Int>) async -> (any Encodable & Sendable)? {
        await search.search(ids: ids, inUse: inUse)
    }

    /// `POST /v1/hardware/vestaboard`'s answer.
    struct VestaboardFound: Encodable, Sendable {
        /// The Local API's address as flapd reaches it.
        var address: String
        /// Whether a Vestaboard answered there.
        var vestaboard: Bool
        /// What answered, in words.
        var said: String
        /// Where its Local API key is kept, once it is.
        var keyFile: String?
    }

    func vestaboard(at address: String, enablementToken token: String?) async throws(HardwareRefusal) -> any Encodable & Sendable {
        let base: URL
        switch VestaboardFinder.baseURL(address) {
        case .success(let url): base = url
        case .failure(let problem): throw HardwareRefusal(.badRequest, problem.description)
        }
        let host = (base.host ?? "board").filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == ":" }
        let keyFile = keys + "/" + String(host.map { $0 == ":" ? "_" : $0 }) + "-\(base.port ?? VestaboardFinder.localAPIPort).key"
        let kept = FileManager.default.fileExists(atPath: keyFile) ? keyFile : nil
        var found = VestaboardFound(address: base.absoluteString, vestaboard: false, said: "", keyFile: kept)
        switch await vestaboards.ask(base) {
        case .vestaboard:
            found.vestaboard = true
            found.said = "a Vestaboard answered (its Local API refuses requests without its key)"
        case .otherServer(let status):
            found.said = "a server that is not a Vestaboard answered (\(status))"
        case .nothing(let why):
            found.said = why
        }
        guard let token, !token.trimmed.isEmpty else { return found }
        guard found.vestaboard else { throw HardwareRefusal(.deviceRefused, "no Vestaboard at \(base.absoluteString) to enable: \(found.said)") }
        let key: String
        do {
            key = try await vestaboards.enable(base, token: token.trimmed)
        } catch {
            throw HardwareRefusal(.deviceRefused, "the Local API was not turned on: \(error)")
        }
        do {
            try FileManager.default.createDirectory(atPath: keys, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try DurableFile.write(Data(key.utf8), to: keyFile, mode: 0o600)
        } catch {
            throw HardwareRefusal(.failed, "the board gave its key, but flapd could not keep it in \(keyFile): \(error)")
        }
        found.keyFile = keyFile
        found.said = "a Vestaboard answered, and its Local API is on: its key is kept in \(keyFile)"
        return found
    }

    func straps(listening window: Duration) async throws(HardwareRefusal) -> any Encodable & Sendable {
        guard !readsStraps else {
            throw HardwareRefusal(
                .busy, "this board's own heart-rate sensor (driver = \"ble\") uses the adapter: the straps it hears are in GET /v1/sensors")
        }
        guard listening.start() else { throw HardwareRefusal(.busy, "already listening for straps") }
        defer { listening.stop() }
        let sensor: BlueZHeartRateSensor<ContinuousClock>
        do {
            sensor = try BlueZHeartRateSensor(clock: ContinuousClock())
        } catch {
            throw HardwareRefusal(.failed, "\(error)")
        }
        return await StrapListening.straps(sensor, clock: ContinuousClock(), window: window)
    }
}

/// Whether something runs now: one at a time.
final class ListeningFlag: Sendable {
    private let running = Mutex(false)

    /// Starts it unless it runs; whether it started.
    func start() -> Bool {
        running.withLock { was in
            defer { was = true }; return !was
        }
    }
    func stop() { running.withLock { $0 = false } }
}
