import FlapCore
import FlapMembers
import FlapMessaging
import FlapMetrics
import FlapPresence
import FlapSetup
import FlapTime
import FoundationEssentials

/// The parts of the appliance the native API answers for, as the composition root gives them
/// (each a protocol FlapService implements over the real part, or nil where this board has none),
/// and ``groups``, the one list of the API's route groups built from them.
public struct APIParts: Sendable {
    /// Where messages go.
    public var intake: MessageIntake
    /// The panels: each one's board and state.
    public var panels: any PanelsQuery
    /// The clacks that go with them.
    public var sound: any SoundControl
    /// The board's switches: paused, its transition, clearing every slot.
    public var switches: any BoardSwitches
    /// The offsets of modules that have them.
    public var calibration: any CalibrationControl
    /// Commands to modules that take them.
    public var modules: any ModuleCommands
    /// The metrics `/metrics` shows.
    public var metrics: FlapMetrics
    /// flapd's version.
    public var version: String
    /// The key that may only read the board, its picture and its events (dashboards, widgets, TVs).
    public var viewerKey: String?
    /// The heart-rate sources and their straps, each as its own JSON.
    public var sensors: @Sendable () async -> [any Encodable & Sendable] = { [] }
    /// The Wematch rooms, when this kiosk takes part in them.
    public var rooms: (any RoomAccess)?
    /// Real Vestaboards' writes, when there are such panels.
    public var deliveries: (any DeliveryAccess)?
    /// Plans and resting boards as they happen, for pages watching the boards.
    public var live: LiveBoards?
    /// The connection to the MQTT broker, when there is one, as its own JSON.
    public var mqtt: (@Sendable () -> any Encodable & Sendable)?
    /// Whether timed events may go by the clock, and by which rule.
    public var clock: (@Sendable () -> ClockVerdict)?
    /// Recurring messages.
    public var schedules: (any ScheduleBook)?
    /// Content sources: calendars, feeds, JSON documents, webhooks.
    public var sources: (any SourceDesk)?
    /// Who may use the board: the owner's and members' sessions, members, their links and keys.
    public var access = AccessStore(path: nil)
    /// Who of the household is around; nil: presence is not kept.
    public var presence: PresenceBook?
    /// The board's claim, when it is set up from a phone.
    public var setup: (any ClaimAccess)?
    /// "Find my board": this machine's ports and devices, and a search of them.
    public var hardware: (any HardwareFinder)?
    /// The settings changed from the page.
    public var settings: (any SettingsKeeper)?
    /// Where invitation and pairing links point, with their QR codes.
    public var links = InvitationLinks(machineName: "localhost", httpsPort: { nil }, qrCode: { _ in nil })

    /// The parts every API has; the rest are set as the appliance has them.
    public init(
        intake: MessageIntake, panels: any PanelsQuery, sound: any SoundControl, switches: any BoardSwitches,
        calibration: any CalibrationControl, modules: any ModuleCommands, metrics: FlapMetrics, version: String
    ) {
        self.intake = intake
        self.panels = panels
        self.sound = sound
        self.switches = switches
        self.calibration = calibration
        self.modules = modules
        self.metrics = metrics
        self.version = version
    }

    /// Every group of routes under `/v1`: a new resource is a group here.
    /// `shares`: the ports' connections, which the event stream counts its streams in.
    func groups(started: ContinuousClock.Instant, apiKey: String, shares: ConnectionShares) -> [any RouteGroup] {
        return [
            SessionAPI(apiKey: apiKey, access: access, setup: setup),
            SetupAPI(setup: setup, access: access),
            HardwareAPI(finder: hardware),
            SettingsAPI(keeper: settings),
            MessagesAPI(intake: intake, access: access),
            BoardAPI(panels: panels),
            BoardPictureAPI(panels: panels, renders: PictureRenders()),
            SlotsAPI(intake: intake),
            SchedulesAPI(book: schedules),
            ReceiptsAPI(inbox: intake.inbox),
            StatusAPI(
                version: version, started: started, intake: intake, panels: panels, sound: sound, deliveries: deliveries,
                mqtt: mqtt, clock: clock, sources: sources),
            SourcesAPI(desk: sources, pushes: PushesByKey()),
            SensorsAPI(sensors: sensors),
            RoomAPI(rooms: rooms),
            TemplatesAPI(intake: intake, panels: panels),
            SoundAPI(sound: sound),
            ControlsAPI(switches: switches),
            LayoutPreviewAPI(boardSize: intake.boardSize, flap62: intake.flap62, panels: panels),
            EmojiAPI(),
            EventsAPI(live: live, presence: presence, shares: shares),
            PresenceAPI(book: presence),
            QueueAPI(deliveries: deliveries),
            CalibrationAPI(panels: calibration),
            ModulesAPI(modules: modules),
            NumberingAPI(modules: modules),
            ModuleSearchAPI(modules: modules),
            BladesAPI(modules: modules),
            MembersAPI(access: access, links: links, intake: intake, live: live, presence: presence),
            ViewerLinkAPI(viewerKey: viewerKey, links: links, panels: panels)
        ]
    }
}
