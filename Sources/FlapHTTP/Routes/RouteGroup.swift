import Hummingbird

/// A group of the native API's routes under `/v1`, one per resource, each in a file of its own:
/// a struct holding only what its routes need, declaring who may call each route as it adds it.
protocol RouteGroup: Sendable {
    func add(to v1: AccessRoutes)
}
