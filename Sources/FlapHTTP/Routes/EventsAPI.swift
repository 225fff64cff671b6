import Hummingbird
import ServiceLifecycle

/// `GET /v1/events`: plans and resting boards as they happen, as server-sent events, for the
/// pages watching the boards.
struct EventsAPI: RouteGroup {
    let live: LiveBoards?

    func add(to v1: AccessRoutes) {
        v1.get("events", .onlookers) { request, context in
            guard let live else { throw APIError(.notFound, "no live boards here") }
            let events = await live.watch(whose: context.member.map { "member \($0.id)" })
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: ResponseBody { writer in
                    // Tells EventSource to come back after 2 s if the connection drops.
                    try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
                    // A watching page must not hold flapd up when it stops: the stream ends with the service.
                    try await withGracefulShutdownHandler {
                        for await event in events { try await writer.write(ByteBuffer(string: event)) }
                    } onGracefulShutdown: {
                        live.finishAll()
                    }
                    try await writer.finish(nil)
                })
        }
    }
}
