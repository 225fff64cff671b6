import FlapCore
import FlapDisplay
import FlapHardware
import FlapKiosk
import FlapLinux
import FlapRooms
import FlapSimulated
import FlapTime
import Logging
import ServiceLifecycle
import Wematch

/// Rings for each new synced pair in the room a panel shows: the chime through the sound
/// device (mixed with the clacks, silent in quiet hours or when muted) and a pulse of the
/// buzzer, if there is one.
struct KioskBell: Service {
    let room: RoomService<ContinuousClock>
    let sound: ClackPlayer<ApplianceClock>?
    let buzzer: Buzzer<ContinuousClock>?
    /// The appliance's clock, which the chime plays on.
    let clock: ApplianceClock
    let logger: Logger
    /// How often the room is looked at: a chime within a tenth of a second of the sync.
    static var interval: Duration { .milliseconds(100) }

    /// The bell for `settings`, or nil when there is nothing to ring.
    static func make(
        _ settings: RoomSettings?, room: RoomService<ContinuousClock>, sound: ClackPlayer<ApplianceClock>?, clock: ApplianceClock, logger: Logger
    ) throws -> KioskBell? {
        var buzzer: Buzzer<ContinuousClock>?
        guard let settings else { return sound.map { KioskBell(room: room, sound: $0, buzzer: nil, clock: clock, logger: logger) } }
        if settings.buzzer == "simulated" {
            buzzer = Buzzer(lines: SimulatedOutputLine(), clock: ContinuousClock())
        } else if let (chip, line) = settings.buzzerLine {
            do {
                buzzer = Buzzer(
                    lines: try LinuxGPIOLines(chip: chip, outputs: [line], inputs: [], consumer: "flapd buzzer"), clock: ContinuousClock())
            } catch {
                throw ServiceError.buzzerUnavailable(room: settings.name, reason: "\(error)")
            }
        }
        let chime = settings.chime ? sound : nil
        guard chime != nil || buzzer != nil else { return nil }
        return KioskBell(room: room, sound: chime, buzzer: buzzer, clock: clock, logger: logger)
    }

    func run() async throws {
        let sample = Chime.sample()
        var bell = SyncBell()
        // The buzzer's pulses run beside the loop (a pulse lasts longer than a chime takes to
        // start), in a group that waits for the last one before the buzzer is released.
        await withDiscardingTaskGroup { pulses in
            while !Task.isShuttingDownGracefully && !Task.isCancelled {
                let now = clock.now
                let plot = await room.plot()
                let pairs = plot.map { bell.newPairs(in: $0) } ?? 0
                if let plot, pairs > 0 {
                    logger.info("room \(plot.state.room): \(pairs == 1 ? "a new synced pair" : "\(pairs) new synced pairs")")
                    await sound?.chime(sample, at: now)
                    if let buzzer {
                        pulses.addTask { [logger] in
                            do { try await buzzer.pulse() } catch { logger.warning("the buzzer failed", metadata: ["error": "\(error)"]) }
                        }
                    }
                }
                try? await cancelWhenGracefulShutdown { try await clock.sleep(for: Self.interval) }
            }
        }
        await buzzer?.release()
    }
}
