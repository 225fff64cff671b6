import FlapCore
import FlapHTTP
import FlapHeartRate
import FlapKiosk
import FlapMQTT
import FlapRooms
import Logging
import ServiceLifecycle
import Wematch

/// The room service as the API reaches it.
struct RoomAccessAdapter: RoomAccess {
    let service: RoomService<ContinuousClock>

    func current() async -> (any Encodable & Sendable)? {
        guard let (listing, code) = await service.room(), let state = await service.state() else { return nil }
        return RoomAnswer(state: state, listing: listing, code: code)
    }

    func plot() async -> (any Encodable & Sendable)? { await service.plot().map(RoomPlotView.init) }

    func picture(width: Int, height: Int) async -> String? {
        guard let plot = await service.plot() else { return nil }
        return HalfBlockText.text(KioskPicture(width: width, height: height).draw(plot, positions: [:]), maximumColumns: 400)
    }

    func join(code: String) async throws(RoomRefusal) -> any Encodable & Sendable {
        do {
            let (listing, code) = try await service.join(code: code)
            return await answer(listing, code)
        } catch {
            throw Self.refusal(error)
        }
    }

    func createPair() async throws(RoomRefusal) -> any Encodable & Sendable {
        do {
            let (listing, code) = try await service.createPair()
            return await answer(listing, code)
        } catch {
            throw Self.refusal(error)
        }
    }

    func leave() async -> (left: String?, now: String?) { await service.leave() }

    private func answer(_ listing: RoomListing, _ code: RoomCode) async -> RoomAnswer {
        let state = await service.state() ?? RoomState(room: listing.room)
        return RoomAnswer(state: state, listing: listing, code: code)
    }

    private static func refusal(_ error: RoomRequestError) -> RoomRefusal {
        switch error.kind {
        case .badRequest: RoomRefusal(.badRequest, error.description)
        case .notFound: RoomRefusal(.notFound, error.description)
        case .conflict: RoomRefusal(.conflict, error.description)
        case .unavailable: RoomRefusal(.unavailable, error.description)
        }
    }
}
