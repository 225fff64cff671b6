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
            throw ServiceError.portTaken(listener: name, address: address, key: key)
        } catch let error as IOError where error.errnoCode == EADDRNOTAVAIL {
            throw ServiceError.addressNotHere(listener: name, address: address)
        } catch {
            throw ServiceError.cannotListen(listener: name, address: address, reason: "\(error)")
        }
    }
}
