import FlapCore
import FlapStorage
import FoundationEssentials
import Glibc

/// A problem that stops flapd from starting, said so the person can fix it, and of a kind that
/// tells systemd (through the exit status) whether starting again can help.
public struct ServiceError: Error, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// A setting is wrong or missing; only changing the configuration helps. Exit status 78
        /// (`EX_CONFIG`), which the unit does not restart (`RestartPreventExitStatus=78`).
        case configuration
        /// A port, an address, a device or a peer flapd needs is taken or not there yet (a USB
        /// sensor not plugged in, an address DHCP has not given): it may come good by itself.
        /// Exit status 69 (`EX_UNAVAILABLE`): restarted.
        case unavailable
        /// The state directory or a file in it cannot be created, read or written. Exit status
        /// 73 (`EX_CANTCREAT`): restarted (a disk mounted late).
        case files
    }

    public var code: Code
    public var description: String

    public init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    /// The sysexits.h status flapd ends with.
    public var exitStatus: Int32 {
        switch code {
        case .configuration: 78
        case .unavailable: 69
        case .files: 73
        }
    }
}
