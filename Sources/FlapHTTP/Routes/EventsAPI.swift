import FlapEndpoints
import FlapMembers
import FlapPresence
import Hummingbird
import ServiceLifecycle

/// `GET /v1/events`: plans and resting boards as they happen, as server-sent events, for the
/// pages watching the boards. A household member's stream (the owner's too) makes them here while
/// it is open, and also tells them the household's presence as it changes. The viewer key and
/// each member hold at most ``ConnectionShares/streamsPerKey`` streams at once.
struct EventsAPI: RouteGroup {
    let live: LiveBoards?
    let presence: PresenceBook?
    let shares: ConnectionShares?

    func add(to v1: AccessRoutes) {
        v1.on(.events, .onlookers) { request, context in
            guard let live else { throw APIError(.notFound, "no live boards here") }
            if let key = Self.streamKey(of: context.caller), let refusal = shares?.openStream(on: context.connection, key: key) {
                return refusal
            }
            let events = await live.watch(whose: context.watcherTag)
            let (presence, person) = (self.presence, context.person)
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: ResponseBody { writer in
                    // Tells EventSource to come back after 2 s if the connection drops.
                    try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
                    var stream: Int?
                    if let presence, let person { stream = await presence.opened(person) }
                    do {
                        // A client that closes its connection (a browser killed, a script) ends the
                        // stream when it closes, not when a keep-alive later fails to reach it.
                        try await request.body.consumeWithCancellationOnInboundClose { _ in
                            if let presence, let person, let stream {
                                // Its number, for the page to say it is leaving as it closes; then where everyone is.
                                let view = await PresenceView(book: presence, for: person)
                                try await writer.write(ByteBuffer(string: "event: stream\ndata: {\"stream\":\(stream)}\n\n" + view.serverSentEvent))
                            }
                            // A watching page must not hold flapd up when it stops: the stream ends with the service.
                            try await withGracefulShutdownHandler {
                                for await event in events { try await writer.write(ByteBuffer(string: event)) }
                            } onGracefulShutdown: {
                                live.finishAll()
                            }
                        }
                    } catch {
                        if let presence, let person, let stream { await presence.closed(person, stream: stream) }
                        throw error
                    }
                    if let presence, let person, let stream { await presence.closed(person, stream: stream) }
                    try await writer.finish(nil)
                })
        }
    }

    /// Whose share a caller's stream counts in (its kind and whose, never the key itself); nil for
    /// the owner's, which only the port's own limit bounds.
    static func streamKey(of caller: Caller?) -> String? {
        switch caller {
        case .viewer: "viewer"
        case .member(let id, _): "member \(id)"
        default: nil
        }
    }
}
