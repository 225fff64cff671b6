import FlapCore
import FlapHardware
import FlapPrimitives
import FlapTime
import FlapVestaboard
import FoundationEssentials
import Logging

/// `driver = "vestaboard"`: a real Vestaboard through one of its APIs: its credential read
/// from its file, its writes through the boards' delivery queue (`outbox.sqlite` in the state
/// directory).
struct VestaboardPanelKind: PanelKind {
    var name: String { "vestaboard" }

    /// The keys of a `driver = "vestaboard"` panel: which API, where, with what credential (or
    /// the Notes of an array, each with its own), and how writes are delivered.
    func read(_ reader: inout TableReader, into panel: inout PanelSettings) {
        var settings: VestaboardSettings
        if let notes = reader.tables("notes") {
            settings = Self.readArray(&reader, notes: notes, into: &panel)
        } else {
            settings = ConfigurationParser.parseBoardAccess(&reader)
            if reader.string("arrange") != nil {
                reader.fail("arrange", .onlyFor("arrange", "an array of Notes: notes = [{ url = …, key_file = … }, …]"))
            }
        }
        settings.strategy = reader.choice("strategy") ?? settings.strategy
        settings.onConflict = reader.choice("on_conflict") ?? settings.onConflict
        panel.options = settings
    }

    func make(_ configuration: PanelSettings, with context: PanelContext) async throws -> PanelDriver {
        let settings = configuration.options(VestaboardSettings.self) ?? VestaboardSettings()
        if !settings.notes.isEmpty { return try await Self.makeArray(configuration, settings, with: context) }
        let api = try settings.boardAPI(for: "panel \(configuration.id)")
        var panelLogger = context.logger
        panelLogger[metadataKey: "panel"] = "\(configuration.id)"
        let delivery = BoardDelivery(
            panel: configuration.id, client: VestaboardClient(api: api), queue: try context.outbox(),
            clock: context.time.clock, now: context.time.now, onConflict: settings.onConflict, logger: panelLogger)
        let running = Task { await delivery.run() }
        let size = await Self.boardSize(configuration, api: api, saved: context.saved, logger: panelLogger)
        let (settled, info, positions) = configuration.settled(size: size, saved: context.saved)
        let panel = VestaboardPanel(
            info: info, delivery: delivery, clock: context.time.clock,
            strategy: settings.strategy, takesTransitions: settings.api == .local, positions: positions)
        await panel.start()
        context.logger.info(
            "\(configuration.id): a Vestaboard through its \(settings.api.title) API at \(api.address), writes \(settings.strategy.rawValue)")
        return PanelDriver(panel: panel, configuration: settled, snapshots: nil) { running.cancel() }
    }

    /// The board's size: as configured (`model`, `size`), else as the board answers (a Note's
    /// layout has 3 rows of 15), else as it was when flapd last stopped, else a Flagship.
    private static func boardSize(_ configuration: PanelSettings, api: VestaboardAPI, saved: [CharacterCode]?, logger: Logger) async -> BoardSize {
        if let size = configuration.size { return size }
        let asked = VestaboardClient(api: api, timeout: .seconds(3))
        do {
            if let rows = try await asked.read(), let columns = rows.first?.count, columns > 0, rows.allSatisfy({ $0.count == columns }) {
                let size = BoardSize(rows: rows.count, columns: columns)
                logger.info("the board is \(size.model == .note ? "a Note" : "a Flagship"), \(size): its size as it answered")
                return size
            }
        } catch {
            logger.warning("could not ask the board its size (\(error)); set model = \"note\" or \"flagship\" to say it")
        }
        return [BoardSize.note, .flagship].first { $0.count == saved?.count } ?? .flagship
    }
}

extension VestaboardSettings: PanelOptions {
    /// The API these settings name, with the credential read from its file.
    func boardAPI(for owner: String) throws -> VestaboardAPI {
        let what = api.credential
        guard let file = credentialFile else { throw ServiceError.credentialNotConfigured(owner: owner, what: what) }
        let credential = try Secret.file(file).read(purpose: what)
        switch api {
        case .cloud: return .cloud(url.flatMap(URL.init(string:)) ?? VestaboardAPI.cloudURL, token: credential)
        case .rw: return .readWrite(url.flatMap(URL.init(string:)) ?? VestaboardAPI.readWriteURL, key: credential)
        case .local:
            guard let address = url.flatMap(URL.init(string:)) else {
                throw ServiceError.boardAddressInvalid(owner: owner)
            }
            return .local(address, key: credential)
        }
    }
}
