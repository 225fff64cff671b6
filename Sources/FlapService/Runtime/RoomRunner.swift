import FlapHeartRate
import FlapMQTT
import FlapRooms
import Logging
import ServiceLifecycle

/// The Wematch room as one of flapd's services.
struct RoomRunner: Service {
    let room: RoomService

    /// The room service for `settings`, over the broker `mqtt` names; nil without a room.
    static func room(_ settings: RoomSettings?, mqtt: MQTTSettings?, password: String?, hub: HeartRateHub?, logger: Logger) throws -> RoomService? {
        guard let settings else { return nil }
        guard let mqtt else { throw ServiceError("room \(settings.name): a room is shared over MQTT; give --mqtt or [mqtt]") }
        do {
            return try RoomService(settings: settings, kiosk: settings.kiosk ?? mqtt.deviceID, hub: hub, logger: logger) { clientID in
                mqtt.options(clientID: clientID, password: password)
            }
        } catch {
            throw ServiceError("room \(settings.name): \(error)")
        }
    }

    func run() async throws {
        await cancelWhenGracefulShutdown { await room.run() }
    }
}
