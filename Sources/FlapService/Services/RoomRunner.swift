import FlapCore
import FlapHTTP
import FlapHeartRate
import FlapKiosk
import FlapMQTT
import FlapRooms
import Logging
import ServiceLifecycle
import Wematch

/// The Wematch room as one of flapd's services.
struct RoomRunner: Service {
    let room: RoomService<ContinuousClock>

    /// The room service over the broker `mqtt` names: in the standing room `settings` names,
    /// or (for a kiosk with heart-rate sensors) in none until asked. Nil for a kiosk with
    /// neither, or without MQTT.
    static func room(
        _ settings: RoomSettings?, mqtt: MQTTSettings?, password: String?, hub: HeartRateHub?, logger: Logger
    ) throws -> RoomService<ContinuousClock>? {
        guard settings != nil || (hub != nil && mqtt != nil) else { return nil }
        guard let mqtt else { throw ServiceError.roomWithoutMQTT(room: settings?.name ?? "") }
        do {
            return try RoomService(settings: settings, kiosk: settings?.kiosk ?? mqtt.deviceID, hub: hub, logger: logger) { clientID in
                mqtt.options(clientID: clientID, password: password)
            }
        } catch {
            throw ServiceError.roomsUnavailable(reason: "\(error)")
        }
    }

    /// The room's summary for Home Assistant, when flapd is on MQTT.
    let summary: RetainedRoom?

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await room.run() }
                if let summary { group.addTask { await Self.publishSummaries(of: room, to: summary) } }
            }
        }
    }

    /// How often the room's summary is looked at for Home Assistant.
    static let summaryInterval = Duration.seconds(5)

    /// The member count and synced pairs, published when they change (never a heart rate).
    static func publishSummaries(of room: RoomService<ContinuousClock>, to summary: RetainedRoom) async {
        var last: (String?, Int, Int)?
        while !Task.isCancelled {
            let state = await room.state()
            let now = (state?.room, state?.members.count ?? 0, state?.synced.count ?? 0)
            if last.map({ $0 != now }) ?? true {
                summary.publish(name: now.0, members: now.1, syncedPairs: now.2)
                last = now
            }
            guard (try? await Task.sleep(for: summaryInterval)) != nil else { return }
        }
    }
}
