import FlapCore
import FlapMessaging
import FlapMetrics
import FlapStorage
import FlapTime
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ServiceLifecycle

/// The native API under `/v1` (bearer key), with `/healthz` and `/metrics` beside it.
public struct NativeAPI: Sendable {
    public let intake: MessageIntake
    public let panels: any BoardQuery
    public let metrics: FlapMetrics
    public let apiKey: String
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
    private let started = ContinuousClock.now
    /// Browsers signed in with the key.
    public let sessions = Sessions()

    public init(intake: MessageIntake, panels: any BoardQuery, metrics: FlapMetrics, apiKey: String, version: String,
                sensors: @escaping @Sendable () async -> [any Encodable & Sendable] = { [] },
                rooms: (any RoomAccess)? = nil, deliveries: (any DeliveryAccess)? = nil, live: LiveBoards? = nil,
                mqtt: (@Sendable () -> any Encodable & Sendable)? = nil, clock: (@Sendable () -> ClockVerdict)? = nil,
                schedules: (any ScheduleBook)? = nil) {
        self.clock = clock
        self.schedules = schedules
        self.live = live
        self.mqtt = mqtt
        self.sensors = sensors
        self.rooms = rooms
        self.deliveries = deliveries
        self.intake = intake
        self.panels = panels
        self.metrics = metrics
        self.apiKey = apiKey
        self.version = version
    }

    /// `?limit=N`: `default` when absent, brought within 1…`maximum`; nil when it is not a whole number.
    /// The `limit` asked for, the default when none; nil (refused) unless a whole number from 1 to `maximum`.
    static func limit(of request: Request, default: Int, maximum: Int) -> Int? {
        guard let text = request.uri.queryParameters["limit"] else { return `default` }
        return Int(text).flatMap { (1...maximum).contains($0) ? $0 : nil }
    }

    static func badLimit(_ request: Request, maximum: Int) -> Response {
        let given = request.uri.queryParameters["limit"].map { String($0) } ?? ""
        return Responses.error(.badRequest, "limit: must be a whole number from 1 to \(maximum), not \(given.debugDescription)")
    }

    public func router() -> Router<BasicRequestContext> {
        let router = Router()
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
        // Signing in and out: the key in a body, answered with the session's cookie.
        router.post("v1/session") { request, _ in try await signIn(request) }
        router.delete("v1/session") { request, _ in
            // Signing out changes something too: another site must not sign a browser out.
            if Sessions.id(in: request) != nil, !Authentication.sameOrigin(request) {
                return Responses.error(.forbidden, "a request from another site is refused: send it from flapd's own page")
            }
            if let id = Sessions.id(in: request) { await sessions.close(id) }
            return Response(status: .noContent, headers: [.setCookie: Sessions.cookie(nil, expires: nil)])
        }
        router.get("v1/session") { request, _ in
            // 200 either way: a page asking whether it is signed in is not an error.
            guard let id = Sessions.id(in: request), let expires = await sessions.expires(id) else {
                return Responses.json(.ok, SessionState(signedIn: false, expiresAt: nil))
            }
            return Responses.json(.ok, SessionState(signedIn: true, expiresAt: expires))
        }
        let v1 = router.group("v1").add(middleware: Authentication(key: apiKey, sessions: sessions))
        v1.post("messages") { request, _ in try await postMessage(request) }
        v1.get("board") { _, _ in await board() }
        v1.get("slots") { _, _ in try await slots() }
        v1.delete("slots/:sender") { _, context in
            let sender = context.parameter("sender")
            guard try await intake.inbox.clearSlot(sender, now: intake.now()) else {
                return Responses.error(.notFound, "no message from sender \(sender)")
            }
            return Response(status: .noContent)
        }
        SchedulesAPI(book: schedules).add(to: v1)
        v1.get("scheduled") { _, _ in
            Responses.json(.ok, ScheduledList(scheduled: try await intake.inbox.scheduled().map(ScheduledMessage.init)))
        }
        v1.delete("messages/:id") { _, context in
            let id = context.parameter("id")
            switch try await intake.inbox.cancel(id, now: intake.now()) {
            case nil:
                return Responses.error(.notFound, "no message with id \(id)")
            case .cancelled:
                return Responses.json(.ok, ["id": id, "status": ReceiptStatus.cancelled.rawValue])
            case let status?:
                return Responses.error(.conflict, "only a message still waiting for its time can be cancelled; \(id) is \(status.rawValue)")
            }
        }
        v1.get("receipts") { request, _ in
            guard let limit = Self.limit(of: request, default: 20, maximum: 500) else { return Self.badLimit(request, maximum: 500) }
            return Responses.json(.ok, ["receipts": try await intake.inbox.recentReceipts(limit: limit)])
        }
        v1.get("receipts/:id") { _, context in
            let id = context.parameter("id")
            guard let receipt = try await intake.inbox.receipt(id: id) else {
                return Responses.error(.notFound, "no message with id \(id)")
            }
            return Responses.json(.ok, receipt)
        }
        v1.get("status") { _, _ in try await status() }
        v1.get("sensors") { _, _ in Responses.json(.ok, SensorsResponse(sensors: await sensors().map(Encoded.init))) }
        v1.get("room") { _, _ in
            guard let rooms else { return Responses.error(.notFound, Self.noRooms) }
            guard let answer = await rooms.current() else { return Responses.error(.notFound, "not in a room; join one with POST /v1/room {\"code\": \"…\"}") }
            return Responses.json(.ok, Encoded(answer))
        }
        v1.post("room") { request, _ in try await roomRequest(request) }
        v1.delete("room") { _, _ in
            guard let rooms else { return Responses.error(.notFound, Self.noRooms) }
            let (left, now) = await rooms.leave()
            guard let left else { return Responses.error(.notFound, "not in a room") }
            return Responses.json(.ok, RoomLeft(left: left, room: now))
        }
        v1.get("room/plot") { _, _ in
            // 204 when there is no room to draw: the page asks every few seconds, and that is no error.
            guard let plot = await rooms?.plot() else { return Response(status: .noContent) }
            return Responses.json(.ok, Encoded(plot))
        }
        v1.get("room/picture") { request, _ in
            guard let rooms else { return Responses.error(.notFound, Self.noRooms) }
            let width = request.uri.queryParameters.get("width", as: Int.self) ?? 80
            let height = request.uri.queryParameters.get("height", as: Int.self) ?? 48
            guard (16...400).contains(width), (8...240).contains(height) else {
                return Responses.error(.badRequest, "width must be 16–400 and height 8–240 pixels, not \(width)×\(height)")
            }
            guard let text = await rooms.picture(width: width, height: height) else { return Responses.error(.notFound, "not in a room") }
            return Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        addTemplates(to: v1)
        addSound(to: v1)
        addLayoutPreview(to: v1)
        v1.get("events") { _, _ in
            guard let live else { return Responses.error(.notFound, "no live boards here") }
            let events = await live.watch()
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                            body: ResponseBody { writer in
                                // Tells EventSource to come back after 2 s if the connection drops.
                                try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
                                // A watching page must not hold flapd up when it stops: the stream ends with the service.
                                try await withGracefulShutdownHandler {
                                    for await event in events { try await writer.write(ByteBuffer(string: event)) }
                                } onGracefulShutdown: {
                                    Task { await live.finishAll() }
                                }
                                try await writer.finish(nil)
                            })
        }
        v1.get("queue") { request, _ in
            guard let limit = Self.limit(of: request, default: 50, maximum: 1000) else { return Self.badLimit(request, maximum: 1000) }
            guard let deliveries else { return Responses.json(.ok, ["deliveries": [Encoded]()]) }
            return Responses.json(.ok, ["deliveries": try await deliveries.deliveries(limit: limit).map(Encoded.init)])
        }
        v1.post("queue/:id/retry") { _, context in
            try await queueAction(context.parameter("id"), "retried", "only a failed or conflicting write can be retried") { try await $0.retry($1) }
        }
        v1.delete("queue/:id") { _, context in
            try await queueAction(context.parameter("id"), "cancelled", "only a write still waiting can be cancelled") { try await $0.cancel($1) }
        }
        v1.get("panels/:id/calibration") { _, context in
            let id = context.parameter("id")
            guard let calibrated = await panels.calibration(panel: id) else {
                return Responses.error(.notFound, "no panel \(id) with modules to calibrate (only spi and gpio panels have offsets here)")
            }
            return Responses.json(.ok, calibrated)
        }
        v1.post("panels/:id/calibration") { request, context in
            try await calibrate(request, panel: context.parameter("id"))
        }
        router.add(middleware: MethodNotAllowed(routes: router.routes))
        return router
    }

    private func queueAction(_ text: String?, _ done: String, _ notNow: String,
                             _ act: (any DeliveryAccess, Int64) async throws -> Bool?) async throws -> Response {
        guard let text, let id = Int64(text) else { return Responses.error(.badRequest, "a write's id is a number (flapctl queue list shows them)") }
        guard let deliveries, let changed = try await act(deliveries, id) else { return Responses.error(.notFound, "no write \(id)") }
        guard changed else { return Responses.error(.conflict, "write \(id): \(notNow)") }
        return Responses.json(.ok, ["id": "\(id)", "status": done])
    }

    /// `{"key": "…"}` opens a session; the key is compared in constant time and never logged.
    private func signIn(_ request: Request) async throws -> Response {
        guard let body = try await Responses.body(of: request, limit: 4096),
              let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any], let given = object["key"] as? String else {
            return Responses.error(.badRequest, "send {\"key\": \"…\"}: the API key (its file's path is in flapd's log)")
        }
        guard secretsMatch(given, apiKey) else { return Responses.error(.unauthorized, "the API key is wrong") }
        let (id, expires) = await sessions.open()
        return Response(status: .ok, headers: [.setCookie: Sessions.cookie(id, expires: expires), .contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(string: "{\"expiresAt\":\"\(ISO8601DateFormatter().string(from: expires))\"}")))
    }

    static let noRooms = "this kiosk takes part in no rooms; start flapd with --room NAME (and --mqtt), or configure [room] or a [[sensor]] with [mqtt]"

    /// `{"code": "K7Q2MX"}` joins the room of that code; `{"create": "pair"}` opens a room for two.
    private func roomRequest(_ request: Request) async throws -> Response {
        guard let rooms else { return Responses.error(.notFound, Self.noRooms) }
        guard let body = try await Responses.body(of: request, limit: 4096) else { return Responses.error(.contentTooLarge, Responses.tooLarge(request, limit: 4096)) }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else {
            return Responses.error(.badRequest, "the body must be a JSON object: {\"code\": \"K7Q2MX\"} or {\"create\": \"pair\"}")
        }
        do {
            if let code = object["code"] {
                guard let code = code as? String else { return Responses.error(.badRequest, "code: must be a string of six letters and digits") }
                return Responses.json(.ok, Encoded(try await rooms.join(code: code)))
            }
            if let create = object["create"] {
                guard create as? String == "pair" else { return Responses.error(.badRequest, "create: the only kind of room to create is \"pair\" (a room for two)") }
                return Responses.json(.created, Encoded(try await rooms.createPair()))
            }
            return Responses.error(.badRequest, "give code (to join a room) or create: \"pair\" (to open a room for two)")
        } catch {
            let status: HTTPResponse.Status = switch error.kind {
            case .badRequest: .badRequest
            case .notFound: .notFound
            case .conflict: .conflict
            case .unavailable: .serviceUnavailable
            }
            return Responses.error(status, error.description)
        }
    }

    /// `{"row": R, "column": C, "offsetSteps": N}` sets a module's offset; `"nudgeTenths": N`
    /// instead moves it by tenths of a flap from where it is.
    private func calibrate(_ request: Request, panel: String) async throws -> Response {
        guard let current = await panels.calibration(panel: panel) else {
            return Responses.error(.notFound, "no panel \(panel) with modules to calibrate (only spi and gpio panels have offsets here)")
        }
        guard let body = try await Responses.body(of: request, limit: 4096),
              let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            return Responses.error(.badRequest, "send {\"row\": R, \"column\": C, \"offsetSteps\": N} or {…, \"nudgeTenths\": N} as JSON")
        }
        guard let row = object["row"] as? Int, let column = object["column"] as? Int,
              (1...current.rows).contains(row), (1...current.columns).contains(column) else {
            return Responses.error(.badRequest, "row must be 1 to \(current.rows) and column 1 to \(current.columns)")
        }
        let index = (row - 1) * current.columns + column - 1
        let offset: Int
        switch (object["offsetSteps"] as? Int, object["nudgeTenths"] as? Int) {
        case (let steps?, nil): offset = steps
        case (nil, let tenths?): offset = current.offsets[index] + Int((Double(tenths) * current.stepsPerFlap / 10).rounded())
        default: return Responses.error(.badRequest, "give offsetSteps or nudgeTenths (one of them)")
        }
        do {
            return Responses.json(.ok, try await panels.calibrate(panel: panel, row: row, column: column, offsetSteps: offset))
        } catch let fault as StorageFault {
            return Responses.error(FailureAnswers.status(of: fault), "the offset is set but could not be saved: \(fault.description)")
        } catch {
            return Responses.error(.internalServerError, "the offset is set but could not be saved: \(error)")
        }
    }

    private func postMessage(_ request: Request) async throws -> Response {
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            metrics.rejected(source: "native-api", reason: "unsupported_type")
            return Responses.error(.unsupportedMediaType, "send the message as JSON, with Content-Type: application/json")
        }
        guard let body = try await Responses.body(of: request, limit: Responses.maximumBody) else {
            metrics.rejected(source: "native-api", reason: "too_large")
            return Responses.error(.contentTooLarge, Responses.tooLarge(request))
        }
        return try await answer(intake.submit(json: body, source: "native-api"), source: "native-api")
    }

    func answer(_ outcome: IntakeOutcome, source: String) -> Response {
        switch outcome {
        case .accepted(let receipt, let warnings):
            metrics.accepted(id: receipt.id, source: source)
            return Responses.json(.accepted, Accepted(id: receipt.id, status: receipt.status, warnings: warnings))
        case .duplicate(let receipt):
            return Responses.json(.ok, Accepted(id: receipt.id, status: receipt.status, warnings: [], duplicate: true))
        case .invalid(let errors):
            metrics.rejected(source: source, reason: "invalid")
            return Responses.error(.badRequest, errors.description,
                                   problems: errors.problems.map { .init(field: $0.field, problem: $0.problem) })
        case .refused(let reason):
            metrics.rejected(source: source, reason: "refused")
            return Responses.error(.forbidden, reason)
        case .rateLimited(let wait):
            metrics.rejected(source: source, reason: "rate_limited")
            let seconds = Int(wait.rounded(.up))
            return Responses.error(.tooManyRequests, "too many messages from this sender; try again in \(seconds) s",
                                   headers: [.retryAfter: String(seconds)])
        }
    }

    struct Accepted: Encodable {
        var id: String
        var status: ReceiptStatus
        var warnings: [String]
        var duplicate: Bool?
    }

    private func board() async -> Response {
        struct View: Encodable {
            var id: String; var rows: Int; var columns: Int; var codes: [[Int]]; var text: [String]; var moving: Bool; var message: String?
        }
        let views = await panels.panels().map {
            View(id: $0.id, rows: $0.board.size.rows, columns: $0.board.size.columns, codes: $0.board.codeRows,
                 text: $0.lines, moving: $0.moving, message: $0.messageId)
        }
        return Responses.json(.ok, ["panels": views])
    }

    private func slots() async throws -> Response {
        struct Slot: Encodable {
            var sender: String; var senderName: String?; var id: String
            /// `text`, `codes` or `pattern`: what the sender sent (the text is the board's for the last two).
            var content: String; var text: [String]
            var createdAt: Date; var expiresAt: Date; var source: String
        }
        let size = intake.boardSize
        let slots = try await intake.inbox.slots().map { message -> Slot in
            let text: [String], content: String
            switch message.content {
            case .text: content = "text"
            case .codes: content = "codes"
            case .pattern: content = "pattern"
            }
            if case .text(let t) = message.content {
                text = t.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
            } else {
                let board = (try? MessageRenderer(size: size).board(for: message)) ?? Board(size: size)
                text = board.rows.map { String($0.map(BoardText.symbol)) }
            }
            return Slot(sender: message.sender.id, senderName: message.sender.name, id: message.id, content: content, text: text,
                        createdAt: message.createdAt, expiresAt: message.expiresAt, source: message.source)
        }
        return Responses.json(.ok, ["slots": slots])
    }

    private func status() async throws -> Response {
        struct Panel: Encodable {
            var id: String; var driver: String; var rows: Int; var columns: Int; var modules: Int
            var drum: String; var moving: Bool; var message: String?; var connected: Bool; var faults: [PanelFault]
            var quietUntil: Date?
        }
        struct Queue: Encodable { var slots: Int; var waiting: Int }
        struct Sound: Encodable { var state: String; var reason: String? }
        struct Status: Encodable {
            var version: String; var uptimeSeconds: Int; var panels: [Panel]; var queue: Queue; var sound: Sound; var receipts: [String: Int]
            var boards: [BoardStatus]
            var mqtt: Encoded?
            var time: TimeStatus?
            var storage: StorageStatus
        }
        /// The clock's verdict, and what waits on it.
        struct TimeStatus: Encodable {
            var rule: ClockVerdict.Rule; var trusted: Bool; var reason: String; var scheduled: Int; var nextScheduled: Date?
        }
        let counts = try await intake.inbox.counts()
        let panelList = await panels.panels().map {
            Panel(id: $0.id, driver: $0.driver, rows: $0.board.size.rows, columns: $0.board.size.columns,
                  modules: $0.board.size.count, drum: $0.drum, moving: $0.moving, message: $0.messageId,
                  connected: $0.connected, faults: $0.faults,
                  quietUntil: $0.quietUntil)
        }
        var timeStatus: TimeStatus?
        if let verdict = clock?() {
            timeStatus = TimeStatus(rule: verdict.rule, trusted: verdict.trusted, reason: verdict.reason, scheduled: counts[.scheduled] ?? 0,
                                    nextScheduled: try await intake.inbox.nextRelease())
        }
        let status = Status(
            version: version, uptimeSeconds: Int(started.duration(to: .now).components.seconds), panels: panelList,
            queue: Queue(slots: try await intake.inbox.slotCount(), waiting: counts[.accepted] ?? 0),
            sound: await { let s = await panels.soundStatus(); return Sound(state: s.state, reason: s.reason) }(),
            receipts: Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, $0.value) }),
            boards: await deliveries?.boards() ?? [], mqtt: mqtt.map { Encoded($0()) },
            time: timeStatus, storage: StorageStatus(inbox: intake.inbox.path, health: intake.inbox.health))
        return Responses.json(.ok, status)
    }
}

/// `GET /v1/sensors`.
struct SensorsResponse: Encodable {
    var sensors: [Encoded]
}

/// `GET /v1/session`'s answer.
struct SessionState: Encodable {
    var signedIn: Bool
    var expiresAt: Date?
}

/// `DELETE /v1/room`'s answer: the room left, and the room the kiosk is in now (its standing room, or none).
struct RoomLeft: Encodable {
    let left: String
    let room: String?
}
