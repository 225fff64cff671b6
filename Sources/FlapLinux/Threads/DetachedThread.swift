import CLinuxDevices
import Glibc
import SystemPackage

/// An operating-system thread of its own, for work that blocks in a system call (poll(2), the
/// stepping loop) and must not hold one of Swift's cooperative threads. What Foundation's
/// `Thread` did, on pthreads directly, so flapd does not link Foundation (and ICU) for it.
enum DetachedThread {
    /// Starts `body` on a new detached thread, named `name` (cut to the kernel's 15 bytes) for
    /// `top -H` and debuggers.
    static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                let body = Unmanaged<Body>.fromOpaque(context).takeRetainedValue()
                _ = vw_set_thread_name(body.name)
                body.run()
                return nil
            }, context)
        // Only a system out of threads or memory refuses; flapd cannot carry on without it.
        precondition(result == 0, "cannot start the thread \(name): \(Errno(rawValue: result))")
        // Nobody joins it: its resources go back to the system when it ends.
        pthread_detach(thread)
    }

    private final class Body {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }
}
