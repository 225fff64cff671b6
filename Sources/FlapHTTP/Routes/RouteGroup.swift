import Hummingbird

/// A group of the native API's routes under `/v1`, one per resource, each in a file of its own:
/// a struct holding only what its routes need.
protocol RouteGroup: Sendable {
    func add(to v1: RouterGroup<BasicRequestContext>)
}
