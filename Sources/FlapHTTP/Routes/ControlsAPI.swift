import FlapCore
import FlapEndpoints
import FlapJSON
import FlapMessaging
import FlapStorage
import Hummingbird

/// "Quiet now" and the transition of messages that ask for none, as the API reaches them
/// (FlapService fills it in, and tells Home Assistant of each change).
public protocol BoardSwitches: Sendable {
    func switches() async -> SwitchesView
    /// Changes what is given (nil: as it is), kept across restarts.
    func setSwitches(paused: Bool?, transition: TransitionStrategy?) async throws -> SwitchesView
    /// Empties every slot, the temporary message's too: how many held a message.
    func clearEverySlot() async throws -> Int
}

/// `GET /v1/controls`.
public struct SwitchesView: Sendable, Encodable, Equatable {
    /// The board holds still and messages wait until this is false again.
    public var paused: Bool
    /// The transition of messages that do not ask for one.
    public var transition: String

    /// The switches as given.
    public init(paused: Bool, transition: String) {
        self.paused = paused
        self.transition = transition
    }
}

/// `/v1/controls` (pause, transition) and `DELETE /v1/slots` (the whole board cleared): the
/// owner's, as Home Assistant's switch, select and button are.
struct ControlsAPI: RouteGroup {
    let switches: any BoardSwitches

    func add(to v1: AccessRoutes) {
        v1.on(.controls, .owner) { _, _ in Answer(await switches.switches()) }
        v1.on(.setControls, .owner) { request, _ in try await change(request) }
        v1.on(.clearEverySlot, .owner) { request, _ in
            do {
                return Answer(["cleared": try await switches.clearEverySlot()])
            } catch let fault as StorageFault {
                throw APIError(fault.answerStatus, fault.description)
            }
        }
    }

    /// `{"paused": true}`, `{"transition": "diagonal"}`, or both.
    private func change(_ request: Request) async throws -> Answer<SwitchesView> {
        guard let body = try await Responses.body(of: request, limit: 4096) else {
            throw APIError(.contentTooLarge, Responses.tooLarge(request, limit: 4096))
        }
        guard let object = (try? JSONValue(parsing: body))?.object else {
            throw APIError(.badRequest, "send a JSON object such as {\"paused\": true, \"transition\": \"diagonal\"}")
        }
        var reader = FieldReader(fields: object)
        // null is no setting: refused, as the description says, not taken for "unchanged".
        if object["paused"]?.isNull == true { reader.fail("paused", "must be true or false, not null") }
        if object["transition"]?.isNull == true { reader.fail("transition", "must be a transition's name, not null") }
        let paused = reader.bool("paused")
        var transition: TransitionStrategy?
        if let name = reader.string("transition") {
            transition = TransitionStrategy(rawValue: name)
            if transition == nil {
                reader.fail(
                    "transition", "\(name.debugDescription) is not one of \(TransitionStrategy.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
        guard reader.problems.isEmpty else {
            throw APIError(
                .badRequest, reader.problems.map(\.description).joined(separator: "; "),
                problems: reader.problems.map { .init(field: $0.field, problem: $0.problem) })
        }
        do {
            return Answer(try await switches.setSwitches(paused: paused, transition: transition))
        } catch let fault as StorageFault {
            throw APIError(fault.answerStatus, "set, but not saved for a restart: \(fault.description)")
        }
    }
}
