import FlapDisplay
import FlapHTTP
import FlapHeartRate
import FlapMQTT
import FlapMembers
import FlapMessaging
import FlapMetrics
import FlapPresence
import FlapQR
import FlapRooms
import FlapSetup
import FlapTLS
import FlapTime
import FlapVestaboard
import FlapWeb
import FoundationEssentials
import Hummingbird
import HummingbirdTLS
import Logging
import ServiceLifecycle

/// What the APIs are made over.
struct ApplianceParts {
    let intake: MessageIntake
    let boards: ApplianceBoards
    let metrics: FlapMetrics
    let heartRate: HeartRateHub?
    let room: RoomService<ContinuousClock>?
    let outbox: DeliveryQueue?
    let deliveryWorkers: [BoardDelivery<ApplianceClock>]
    let live: LiveBoards
    let mqtt: MQTTBridge?
    let clockTrust: ClockTrust
    let schedules: ScheduleRunner<ApplianceClock>
    let sources: ApplianceSources?
    /// Who may use the board, and who of them is around.
    let access: AccessStore
    let presence: PresenceBook
    /// Whether the board has an owner, and its setup code until it has.
    let setup: BoardClaim<ApplianceClock>
    /// The appliance's time.
    let time: ApplianceTime
    /// The settings changed from the page, when flapd keeps them.
    var settings: (any SettingsKeeper)?
}
