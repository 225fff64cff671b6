import FlapCore
import FlapPrimitives
import Glibc
import NIOCore
import ServiceLifecycle
import Synchronization

/// A port number set once it is known.
final class CurrentPort: Sendable {
    private let port = Mutex<Int?>(nil)
    var value: Int? { port.withLock { $0 } }
    func set(_ value: Int?) { port.withLock { $0 = value } }
}
