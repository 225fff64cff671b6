import FlapEndpoints
import Hummingbird

/// `GET /v1/sensors`: the heart-rate sources and their straps, as the sources report themselves.
struct SensorsAPI: RouteGroup {
    let sensors: @Sendable () async -> [any Encodable & Sendable]

    func add(to v1: AccessRoutes) {
        v1.on(.sensors, .owner) { _, _ in Answer(SensorsResponse(sensors: await sensors().map(Encoded.init))) }
    }

    struct SensorsResponse: Encodable {
        var sensors: [Encoded]
    }
}
