import FlapEndpoints
import FlapJSON
import FoundationEssentials
import HTTPTypes
import Hummingbird

/// `/v1/room`: the Wematch room this kiosk is in (never anyone's heart rate), joined by code,
/// opened for two, left; its plot for the page and as a picture in text.
struct RoomAPI: RouteGroup {
    let rooms: (any RoomAccess)?

    static let noRooms =
        "this kiosk takes part in no rooms; start flapd with --room NAME (and --mqtt), or configure [room] or a [[sensor]] with [mqtt]"

    func add(to v1: AccessRoutes) {
        v1.on(.room, .owner) { _, _ in
            guard let rooms else { throw APIError(.notFound, Self.noRooms) }
            guard let answer = await rooms.current() else {
                throw APIError(.notFound, "not in a room; join one with \(Endpoint.joinRoom) {\"code\": \"…\"}")
            }
            return Answer(Encoded(answer))
        }
        v1.on(.joinRoom, .owner) { request, _ in try await roomRequest(request) }
        v1.on(.leaveRoom, .owner) { _, _ in
            guard let rooms else { throw APIError(.notFound, Self.noRooms) }
            let (left, now) = await rooms.leave()
            guard let left else { throw APIError(.notFound, "not in a room") }
            return Answer(RoomLeft(left: left, room: now))
        }
        v1.on(.roomPlot, .owner) { _, _ in
            // 204 when there is no room to draw: the page asks every few seconds, and that is no error.
            guard let plot = await rooms?.plot() else { return Response(status: .noContent) }
            return Answer(Encoded(plot)).response
        }
        v1.on(.roomPicture, .owner) { request, _ in
            guard let rooms else { throw APIError(.notFound, Self.noRooms) }
            let width = request.uri.queryParameters.get("width", as: Int.self) ?? 80
            let height = request.uri.queryParameters.get("height", as: Int.self) ?? 48
            guard (16...400).contains(width), (8...240).contains(height) else {
                throw APIError(.badRequest, "width must be 16–400 and height 8–240 pixels, not \(width)×\(height)")
            }
            guard let text = await rooms.picture(width: width, height: height) else { throw APIError(.notFound, "not in a room") }
            return Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
        }
    }

    /// `{"code": "K7Q2MX"}` joins the room of that code; `{"create": "pair"}` opens a room for two.
    private func roomRequest(_ request: Request) async throws -> Answer<Encoded> {
        guard let rooms else { throw APIError(.notFound, Self.noRooms) }
        guard let body = try await Responses.body(of: request, limit: 4096) else {
            throw APIError(.contentTooLarge, Responses.tooLarge(request, limit: 4096))
        }
        guard let object = (try? JSONValue(parsing: body))?.object else {
            throw APIError(.badRequest, "the body must be a JSON object: {\"code\": \"K7Q2MX\"} or {\"create\": \"pair\"}")
        }
        do {
            if let code = object["code"] {
                guard let code = code.string else { throw APIError(.badRequest, "code: must be a string of six letters and digits") }
                return Answer(Encoded(try await rooms.join(code: code)))
            }
            if let create = object["create"] {
                guard create.string == "pair" else {
                    throw APIError(.badRequest, "create: the only kind of room to create is \"pair\" (a room for two)")
                }
                return Answer(status: .created, Encoded(try await rooms.createPair()))
            }
            throw APIError(.badRequest, "give code (to join a room) or create: \"pair\" (to open a room for two)")
        } catch let error as RoomRefusal {
            let status: HTTPResponse.Status =
                switch error.kind {
                case .badRequest: .badRequest
                case .notFound: .notFound
                case .conflict: .conflict
                case .unavailable: .serviceUnavailable
                }
            throw APIError(status, error.description)
        }
    }

    /// `DELETE /v1/room`'s answer: the room left, and the room the kiosk is in now (its standing room, or none).
    struct RoomLeft: Encodable {
        let left: String
        let room: String?
    }
}
