import FlapJSON
import FlapMessaging
import FlapTime
import FlapVestaboard
import FoundationEssentials
import Logging
import ServiceLifecycle

/// A `[[mirror]]` as one of flapd's services: a board's message, read every interval, into the
/// inbox as its sender's (good for 30 days, so the last one read stays while the board cannot
/// be reached).
struct MirrorRunner: Service {
    let settings: MirrorSettings
    let mirror: BoardMirror<ApplianceClock>

    init(_ settings: MirrorSettings, intake: MessageIntake, time: ApplianceTime, logger: Logger) throws {
        self.settings = settings
        let client = VestaboardClient(api: try settings.board.boardAPI(for: "mirror \(settings.id)"))
        var tagged = logger
        tagged[metadataKey: "mirror"] = "\(settings.id)"
        let logger = tagged
        let sender = settings.sender
        mirror = BoardMirror(client: client, interval: .seconds(settings.intervalSeconds), clock: time.clock, logger: logger) { rows in
            let expires = time.now().addingTimeInterval(30 * 86400).formatted(.iso8601)
            let fields: [String: JSONValue] = [
                "codes": JSONValue(rows: rows), "sender": ["id": .string(sender), "name": "Vestaboard"], "expiresAt": .string(expires)
            ]
            do {
                let outcome = try await intake.submit(fields: fields, source: .mirror)
                if case .invalid(let errors) = outcome { logger.warning("the mirrored board's message cannot be shown: \(errors)") }
            } catch {
                logger.error("the mirrored board's message could not be kept", metadata: ["error": "\(error)"])
            }
        }
    }

    func run() async throws {
        await cancelWhenGracefulShutdown { await mirror.run() }
    }
}
