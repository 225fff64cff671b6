import FlapCore
import FlapPrimitives
import Glibc
import NIOCore
import ServiceLifecycle
import Synchronization

/// An API's server, whose failure to listen says which API, where, and what to change.
struct Listener<App: Service>: Service {
    let name: String
    let address: String
    let key: String
    let app: App

    func run() async throws {
        do {
            try await app.run()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw ServiceError(
                .unavailable,
                "the \(name) cannot listen on \(address): the port is taken (another flapd, or another server); choose another with \(key)")
        } catch let error as IOError where error.errnoCode == EADDRNOTAVAIL {
            throw ServiceError(.unavailable, "the \(name) cannot listen on \(address): no interface of this machine has that address")
        } catch {
            throw ServiceError(.unavailable, "the \(name) cannot listen on \(address): \(error)")
        }
    }
}
