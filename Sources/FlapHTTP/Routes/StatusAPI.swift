import FlapCore
import FlapEndpoints
import FlapMessaging
import FlapTime
import FoundationEssentials
import Hummingbird

/// `GET /v1/status`: the version, the panels and their faulty modules, the inbox's queue and
/// receipts, sound, real Vestaboards, MQTT, the clock's trust, the storage and the content
/// sources' health, in one answer.
struct StatusAPI: RouteGroup {
    let version: String
    let started: ContinuousClock.Instant
    let intake: MessageIntake
    let panels: any PanelsQuery
    let sound: any SoundControl
    let deliveries: (any DeliveryAccess)?
    let mqtt: (@Sendable () -> any Encodable & Sendable)?
    let clock: (@Sendable () -> ClockVerdict)?
    let sources: (any SourceDesk)?

    func add(to v1: AccessRoutes) {
        v1.on(.status, .household) { _, context in try await status(forMember: context.member != nil) }
    }

    struct Panel: Encodable {
        var id: String; var driver: String; var rows: Int; var columns: Int; var modules: Int
        var drum: String; var moving: Bool; var message: String?; var connected: Bool; var faults: [PanelFault]
        var quietUntil: Date?
        var library: String?
    }
    struct Queue: Encodable { var slots: Int; var waiting: Int }
    struct Sound: Encodable { var state: String; var reason: String? }
    struct Status: Encodable {
        var version: String; var uptimeSeconds: Int; var panels: [Panel]; var queue: Queue; var sound: Sound; var receipts: [String: Int]
        var boards: [BoardStatus]
        var mqtt: Encoded?
        var time: TimeStatus?
        var storage: StorageStatus
        /// Each content source's health (`/v1/sources` has their values too).
        var sources: [Encoded]
    }
    /// The clock's verdict, and what waits on it.
    struct TimeStatus: Encodable {
        var rule: ClockVerdict.Rule; var trusted: Bool; var reason: String; var scheduled: Int; var nextScheduled: Date?
    }

    /// For a member, without what is the owner's: when the next of anyone's messages sent for
    /// later is due, and where the state directory is.
    private func status(forMember: Bool) async throws -> Answer<StatusAPI.Status> {
        let counts = try await intake.inbox.counts()
        let panelList = await panels.panels().map {
            Panel(
                id: $0.id, driver: $0.driver, rows: $0.board.size.rows, columns: $0.board.size.columns,
                modules: $0.board.size.count, drum: $0.drum, moving: $0.moving, message: $0.messageId,
                connected: $0.connected, faults: $0.faults, quietUntil: $0.quietUntil, library: $0.library)
        }
        var timeStatus: TimeStatus?
        if let verdict = clock?() {
            timeStatus = TimeStatus(
                rule: verdict.rule, trusted: verdict.trusted, reason: verdict.reason, scheduled: counts[.scheduled] ?? 0,
                nextScheduled: forMember ? nil : try await intake.inbox.nextRelease())
        }
        let soundState = await sound.soundStatus()
        let storage = StorageStatus(inbox: intake.inbox.path, health: intake.inbox.health)
        let status = Status(
            version: version, uptimeSeconds: Int(started.duration(to: .now).components.seconds), panels: panelList,
            queue: Queue(slots: try await intake.inbox.slotCount(), waiting: counts[.accepted] ?? 0),
            sound: Sound(state: soundState.state, reason: soundState.reason),
            receipts: Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, $0.value) }),
            boards: await deliveries?.boards() ?? [], mqtt: mqtt.map { Encoded($0()) },
            time: timeStatus, storage: forMember ? storage.forMember : storage,
            sources: (sources?.health() ?? []).map(Encoded.init))
        return Answer(status)
    }
}
