import FlapCore
import FlapHardware
import FlapVestaboard
import FoundationEssentials
import Logging

extension PanelDriver {
    /// A real Vestaboard through one of its APIs: its credential read from its file, its writes
    /// through the boards' delivery queue (`outbox.sqlite` in the state directory).
    static func vestaboard(_ configuration: PanelConfiguration, saved: [CharacterCode]?, outbox queue: DeliveryQueue, logger: Logger) async throws -> PanelDriver {
        let settings = configuration.vestaboard
        let api = try settings.boardAPI(for: "panel \(configuration.id)")
        var panelLogger = logger
        panelLogger[metadataKey: "panel"] = "\(configuration.id)"
        let delivery = BoardDelivery(panel: configuration.id, client: VestaboardClient(api: api), queue: queue, clock: ContinuousClock(),
                                     now: { Date() }, onConflict: settings.onConflict, logger: panelLogger)
        let running = Task { await delivery.run() }
        var settled = configuration
        let size = configuration.size ?? .flagship
        settled.size = size
        let info = PanelInfo(id: configuration.id, size: size, drum: configuration.drum, motion: .forwardOnly, driver: PanelDriverKind.vestaboard.rawValue)
        let positions = saved.flatMap { $0.count == size.count ? $0.map { configuration.drum.flap(for: $0).index } : nil }
        let panel = VestaboardPanel(info: info, delivery: delivery, clock: ContinuousClock(),
                                    strategy: settings.strategy, takesTransitions: settings.api == .local, positions: positions)
        await panel.start()
        logger.info("\(configuration.id): a Vestaboard through its \(settings.api.title) API at \(api.address), writes \(settings.strategy.rawValue)")
        var driver = PanelDriver(panel: panel, configuration: settled, snapshots: nil, stepper: nil, commandInterval: nil) { running.cancel() }
        driver.delivery = delivery
        return driver
    }
}

extension VestaboardSettings {
    /// The API these settings name, with the credential read from its file.
    func boardAPI(for owner: String) throws -> VestaboardAPI {
        let what = api.credential
        guard let file = credentialFile else { throw ServiceError(.configuration, "\(owner): the \(what) file is not configured") }
        let credential = try resolve(.file(file), purpose: what)
        switch api {
        case .cloud: return .cloud(url.flatMap(URL.init(string:)) ?? VestaboardAPI.cloudURL, token: credential)
        case .rw: return .readWrite(url.flatMap(URL.init(string:)) ?? VestaboardAPI.readWriteURL, key: credential)
        case .local:
            guard let address = url.flatMap(URL.init(string:)) else { throw ServiceError(.configuration, "\(owner): the board's url is not an address") }
            return .local(address, key: credential)
        }
    }
}
