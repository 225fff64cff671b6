import Glibc
import SystemPackage

/// A device that failed, with what the person at the device can do about it.
public struct HardwareError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The device, as the person knows it (`/dev/ttyUSB0`, `/dev/spidev0.0`, `gpiochip0 line 17`).
    public var device: String
    /// What went wrong.
    public var problem: String
    /// The system's error behind it, when a call failed with one (`EACCES`): said after the
    /// problem, and there for a caller that acts on it.
    public var errno: Errno?
    /// What to do, when there is something to do (`add the flapd user to the dialout group`).
    public var remedy: String?

    /// An error of `device`, with the system's `errno` and a `remedy` when there are.
    public init(device: String, problem: String, errno: Errno? = nil, remedy: String? = nil) {
        self.device = device
        self.problem = problem
        self.errno = errno
        self.remedy = remedy
    }

    /// `device: problem: errno (remedy)`.
    public var description: String {
        "\(device): \(problem)" + (errno.map { ": \($0)" } ?? "") + (remedy.map { " (\($0))" } ?? "")
    }
}

extension Errno {
    /// The calling thread's `errno`, read right after the call that failed.
    public static var last: Errno { Errno(rawValue: Glibc.errno) }
}
