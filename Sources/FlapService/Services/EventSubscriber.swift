import ServiceLifecycle

/// One subscriber of a stream of events, run as a service: it takes each event as it comes,
/// in order, until flapd stops. What shows or counts what happens (the page, MQTT, the
/// metrics) is one of these, so what publishes knows none of them, and a new output is one
/// more subscriber rather than a field in the publisher.
struct EventSubscriber<Event: Sendable>: Service {
    let events: AsyncStream<Event>
    let take: @Sendable (Event) async -> Void

    func run() async throws {
        await cancelWhenGracefulShutdown {
            for await event in events { await take(event) }
        }
    }
}
