import FlapMQTTClient
import FlapPrimitives
import Wematch

/// The codes people join rooms by, as the broker holds them: every retained listing under
/// `wematch/codes/`, read as they come, and this kiosk's own announced or cleared.
public actor RoomDirectory<C: Clock<Duration>> {
    private let reader: TopicReader
    private let clock: C
    private var listings: [RoomCode: RoomListing] = [:]
    /// Told each time a listing comes or goes, for those waiting for one.
    private let changes = Watchers<Void>()

    /// A directory read over a connection made with `options`, keeping time by `clock`.
    public init(options: MQTTOptions, clock: C) throws(MQTTError) {
        reader = try TopicReader(options: options)
        self.clock = clock
    }

    /// Reads the listings until cancelled.
    public func run() async {
        await reader.read(RoomMessages.codesFilter) { message in
            if let code = RoomMessages.code(of: message.topic) { take(code, message.payload) }
        }
    }

    private func take(_ code: RoomCode, _ payload: [UInt8]) {
        listings[code] = payload.isEmpty ? nil : try? RoomMessages.listing(payload)
        changes.yield(())
    }

    /// The room `code` stands for, waiting up to `patience` (on the clock) for the broker to
    /// tell (its retained listings come just after connecting): answered as the listing
    /// arrives, not at the next look, so a slow broker and a fast clock cannot miss each other.
    public func listing(for code: RoomCode, patience: Duration = .seconds(3)) async -> RoomListing? {
        if let listing = listings[code] { return listing }
        // Watched from the same turn of the actor as the look above: nothing comes between.
        let changed = changes.watch(bufferingPolicy: .bufferingNewest(1))
        let deadline = clock.now.advanced(by: patience)
        return await withTaskGroup(of: RoomListing?.self) { group in
            group.addTask {
                for await _ in changed { if let listing = await self.listings[code] { return listing } }
                return nil
            }
            group.addTask { [clock] in
                try? await clock.sleep(until: deadline, tolerance: nil)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// The code listing `room`, if one is known.
    public func code(of room: String) -> RoomCode? {
        listings.first { $0.value.room == room }?.key
    }

    /// Announces `listing` under `code`, retained.
    public func announce(_ listing: RoomListing, as code: RoomCode) throws(MQTTError) {
        listings[code] = listing
        try reader.publish(RoomMessages.codeTopic(code), RoomMessages.encode(listing), retain: true)
    }

    /// Clears `code`: its room has ended.
    public func clear(_ code: RoomCode) throws(MQTTError) {
        listings[code] = nil
        try reader.publish(RoomMessages.codeTopic(code), [], retain: true)
    }

    /// Whether `code` is listed now.
    public func isListed(_ code: RoomCode) -> Bool { listings[code] != nil }
}
