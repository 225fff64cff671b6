import FlapCore
import FlapTime
import FlapVestaboard
import FoundationEssentials
import Logging

/// A `driver = "vestaboard"` panel with `notes`: an array of Vestaboard Notes as one board, each
/// Note written over its own Local API with its own worker of the delivery queue.
extension VestaboardPanelKind {
    /// `notes = [{ url, key_file }, …]` and `arrange`; the array's size follows from them.
    static func readArray(_ reader: inout TableReader, notes: [TableReader], into panel: inout PanelSettings) -> VestaboardSettings {
        var settings = VestaboardSettings()
        if let api = reader.choice("api", of: VestaboardSettings.API.self), api != .local {
            reader.fail(
                "api",
                "the Notes of an array are each written over their own Local API; through the \(api.title) API, "
                    + "leave notes out and give model = \"note\" with the array's size (size = \"3x30\"): the service splits the board")
        }
        for key in ["url", "key_file", "token_file"] where reader.string(key) != nil {
            reader.fail(
                key, .elsewhere("each Note of an array has its own: notes = [{ url = \"http://vestaboard.local:7000\", key_file = \"…\" }, …]"))
        }
        if notes.isEmpty {
            reader.fail(
                "notes",
                .needs("an array", "its Notes: notes = [{ url = \"http://vestaboard.local:7000\", key_file = \"/etc/flapd/note-1-key\" }, …]"))
        }
        for (index, var note) in notes.enumerated() {
            let url = note.string("url"), key = note.string("key_file")
            if let url, !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
                note.fail("url", .notAnHTTPAddress(url))
            } else if url == nil {
                note.fail(
                    "url",
                    .isNeeded("the Note's Local API address", example: "url = \"http://vestaboard\(index == 0 ? "" : "-\(index + 1)").local:7000\""))
            }
            if key == nil { note.fail("key_file", .isNeeded("the Note's Local API key", example: "key_file = \"/etc/flapd/note-\(index + 1)-key\"")) }
            note.finish()
            reader.problems += note.problems
            if let url, let key { settings.notes.append(.init(url: url, keyFile: key)) }
        }
        settings.arrange = reader.choice("arrange", of: NoteArrangement.self) ?? .row
        let size = settings.arrange.size(of: max(1, notes.count))
        if panel.model == .flagship {
            reader.fail("model", "an array's boards are Notes: leave model out, or model = \"note\"")
        } else if let given = panel.size, given != size, !(given == .note && panel.model == .note) {
            reader.fail(
                "size",
                "\(notes.count) Notes in a \(settings.arrange.rawValue) are \(size.rows)×\(size.columns), not \(given.rows)×\(given.columns): leave size out"
            )
        }
        panel.model = .note
        panel.size = size
        return settings
    }

    /// One worker a Note, sharing the queue; the panel sends each its part.
    static func makeArray(_ configuration: PanelSettings, _ settings: VestaboardSettings, with context: PanelContext) async throws -> PanelDriver {
        var logger = context.logger
        logger[metadataKey: "panel"] = "\(configuration.id)"
        let queue = try context.outbox()
        let regions = settings.arrange.regions(of: settings.notes.count)
        var parts: [VestaboardPanel<ApplianceClock>.Part] = []
        var workers: [Task<Void, Never>] = []
        for (index, note) in settings.notes.enumerated() {
            let owner = "panel \(configuration.id), Note \(index + 1)"
            guard let address = URL(string: note.url) else { throw ServiceError.boardAddressInvalid(owner: owner) }
            let key = try Secret.file(note.keyFile).read(purpose: "\(owner): its Local API key")
            let delivery = BoardDelivery(
                panel: configuration.id, note: index + 1, client: VestaboardClient(api: .local(address, key: key)), queue: queue,
                clock: context.time.clock, now: context.time.now, onConflict: settings.onConflict, logger: logger)
            workers.append(Task { await delivery.run() })
            parts.append(.init(delivery: delivery, region: regions[index]))
        }
        let size = settings.arrange.size(of: settings.notes.count)
        let (settled, info, positions) = configuration.settled(size: size, saved: context.saved)
        // Vestaboard's arrays take no transitions: each Note flips as it does.
        let panel = VestaboardPanel(
            info: info, parts: parts, clock: context.time.clock, strategy: settings.strategy, takesTransitions: false, positions: positions)
        await panel.start()
        let addresses = settings.notes.map(\.url).joined(separator: ", ")
        context.logger.info(
            "\(configuration.id): \(settings.notes.count) Vestaboard Notes in a \(settings.arrange.rawValue), \(size), each through its Local API (\(addresses)), writes \(settings.strategy.rawValue)"
        )
        let running = workers
        return PanelDriver(panel: panel, configuration: settled, snapshots: nil) {
            for worker in running { worker.cancel() }
        }
    }
}
