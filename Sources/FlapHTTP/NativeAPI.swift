import FlapCore
import FlapMCP
import FlapMembers
import FlapMessaging
import FlapMetrics
import FlapStorage
import FlapTime
import FoundationEssentials
import HTTPTypes
import Hummingbird
import Logging

/// The native API under `/v1` (bearer key), with `/healthz` and `/metrics` beside it: the
/// appliance's parts it answers for, and its routes, one group per resource, each in its own file.
public struct NativeAPI: Sendable {
    public let intake: MessageIntake
    public let panels: any BoardQuery
    public let metrics: FlapMetrics
    public let apiKey: String
    /// The key that may only read the board, its picture and its events (dashboards, widgets).
    public let viewerKey: String?
    public let version: String
    /// The heart-rate sources and their straps, each as its own JSON.
    public let sensors: @Sendable () async -> [any Encodable & Sendable]
    /// The Wematch rooms, when this kiosk takes part in them.
    public let rooms: (any RoomAccess)?
    /// Real Vestaboards' writes, when there are such panels.
    public let deliveries: (any DeliveryAccess)?
    /// Plans and resting boards as they happen, for pages watching the boards.
    public let live: LiveBoards?
    /// The connection to the MQTT broker, when there is one, as its own JSON.
    public let mqtt: (@Sendable () -> any Encodable & Sendable)?
    /// Whether timed events may go by the clock, and by which rule.
    public let clock: (@Sendable () -> ClockVerdict)?
    /// Recurring messages.
    public let schedules: (any ScheduleBook)?
    /// Content sources: calendars, feeds, JSON documents, webhooks.
    public let sources: (any SourceDesk)?
    private let started = ContinuousClock.now
    /// Who may use the board: the owner's and members' sessions, members, their links and keys.
    public let access: AccessStore
    /// Where invitation and pairing links point, with their QR codes.
    public let links: InvitationLinks
    /// The names a request to `/mcp` may give as its Host.
    public let mcpHosts: MCPHosts
    /// Board pictures drawn and kept (`/v1/board.png`).
    let pictures = PictureRenders()
    /// Webhook pushes by key, held to their rate.
    let pushes = PushesByKey()
    /// Assistants connected to `/mcp`.
    public let mcpSessions = MCPSessions(clock: ContinuousClock())
    /// The connections of the ports this API is served on, shared by role: give the same to
    /// their ``ConnectionLimits/server(_:shares:)``.
    public let connections = ConnectionShares()

    public init(intake: MessageIntake, panels: any BoardQuery, metrics: FlapMetrics, apiKey: String, viewerKey: String? = nil, version: String,
                sensors: @escaping @Sendable () async -> [any Encodable & Sendable] = { [] },
                rooms: (any RoomAccess)? = nil, deliveries: (any DeliveryAccess)? = nil, live: LiveBoards? = nil,
                mqtt: (@Sendable () -> any Encodable & Sendable)? = nil, clock: (@Sendable () -> ClockVerdict)? = nil,
                schedules: (any ScheduleBook)? = nil, sources: (any SourceDesk)? = nil, access: AccessStore = AccessStore(path: nil),
                links: InvitationLinks = InvitationLinks(machineName: "localhost", httpsPort: { nil }, qrCode: { _ in nil }),
                mcpHosts: MCPHosts = MCPHosts(listen: "127.0.0.1", machineName: nil, allowed: [])) {
        self.mcpHosts = mcpHosts
        self.access = access
        self.links = links
        self.clock = clock
        self.schedules = schedules
        self.sources = sources
        self.live = live
        self.mqtt = mqtt
        self.sensors = sensors
        self.rooms = rooms
        self.deliveries = deliveries
        self.intake = intake
        self.panels = panels
        self.metrics = metrics
        self.apiKey = apiKey
        self.viewerKey = viewerKey
        self.version = version
    }

    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: ResponseCompression())
        addRoutes(to: router)
        // The MCP server's tools go through the API's own routes (a router of their own, without /mcp).
        let api = Router()
        addRoutes(to: api)
        MCPEndpoint(server: MCPServer(version: version, subscriptions: live != nil), key: apiKey, hosts: mcpHosts, sessions: mcpSessions,
                    api: api.buildResponder(), live: live).add(to: router)
        router.add(middleware: MethodNotAllowed(routes: router.routes))
        return router
    }

    private func addRoutes(to router: Router<BasicRequestContext>) {
        router.add(middleware: FailureAnswers(answer: { Responses.error($0, $1) }, logger: Logger(label: "flapd.http")))
        router.get("healthz") { _, _ in Responses.json(.ok, ["status": "ok"]) }
        // The description of this API (OpenAPI 3.1), kept in Sources/FlapHTTP/OpenAPI and held
        // against this router by a test; public, as tools read it before they have a key.
        router.get("v1/openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: PackageResources.openapi_json)))
        }
        router.get("metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(string: metrics.exposition())))
        }
        SessionAPI(apiKey: apiKey, access: access).add(to: router)
        let v1 = router.group("v1").add(middleware: Authentication(key: apiKey, viewerKey: viewerKey, access: access,
                                                                          webhookKey: { [sources] key, name in sources?.isKey(key, of: name) ?? false },
                                                                          shares: connections))
        let answers = IntakeAnswers(metrics: metrics)
        MessagesAPI(intake: intake, access: access, metrics: metrics, answers: answers).add(to: v1)
        BoardAPI(panels: panels).add(to: v1)
        BoardPictureAPI(panels: panels, renders: pictures).add(to: v1)
        SlotsAPI(intake: intake).add(to: v1)
        SchedulesAPI(book: schedules).add(to: v1)
        ReceiptsAPI(inbox: intake.inbox).add(to: v1)
        StatusAPI(version: version, started: started, intake: intake, panels: panels, sound: panels, deliveries: deliveries,
                  mqtt: mqtt, clock: clock, sources: sources).add(to: v1)
        SourcesAPI(desk: sources, pushes: pushes).add(to: v1)
        SensorsAPI(sensors: sensors).add(to: v1)
        RoomAPI(rooms: rooms).add(to: v1)
        TemplatesAPI(intake: intake, answers: answers).add(to: v1)
        SoundAPI(sound: panels).add(to: v1)
        ControlsAPI(switches: panels).add(to: v1)
        LayoutPreviewAPI(boardSize: intake.boardSize, panels: panels).add(to: v1)
        EmojiAPI().add(to: v1)
        EventsAPI(live: live).add(to: v1)
        QueueAPI(deliveries: deliveries).add(to: v1)
        CalibrationAPI(panels: panels).add(to: v1)
        MembersAPI(access: access, links: links, intake: intake, live: live).add(to: v1)
        ViewerLinkAPI(viewerKey: viewerKey, links: links, panels: panels).add(to: v1)
    }
}
