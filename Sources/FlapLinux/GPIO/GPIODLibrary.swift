import CGPIOD

/// Which libgpiod the system has, found when GPIO lines are first asked for: libgpiod 2
/// (`libgpiod.so.3`, Debian 13 and Raspberry Pi OS trixie) before libgpiod 1 (`libgpiod.so.2`,
/// Debian 12 and Raspberry Pi OS bookworm). Their APIs differ; each has a backend of its own.
public enum GPIODLibrary: Int, Sendable, CustomStringConvertible {
    case v1 = 1
    case v2 = 2

    /// The library this system has, nil when it has neither.
    public static let present: GPIODLibrary? = GPIODLibrary(rawValue: Int(vw_gpiod_api()))

    /// Whether this system has the library (it can be opened).
    public var isPresent: Bool {
        switch self {
        case .v1: vw_has_gpiod1() != 0
        case .v2: vw_has_gpiod2() != 0
        }
    }

    /// The library file of this version.
    public var soname: String { self == .v1 ? "libgpiod.so.2" : "libgpiod.so.3" }
    /// The Debian package that installs it.
    public var package: String { self == .v1 ? "libgpiod2" : "libgpiod3" }

    /// The library's own version, such as `2.2.1`; opens it, so only for a present library.
    public var version: String {
        String(cString: self == .v1 ? vw_gpiod1_version_string() : vw_gpiod2_api_version())
    }

    /// `libgpiod 2.2.1 (libgpiod.so.3)`, for the log and `/v1/status`.
    public var description: String { "libgpiod \(version) (\(soname))" }

    /// Why GPIO cannot be used on a system without either library.
    static var missing: String {
        "neither libgpiod.so.3 nor libgpiod.so.2 is installed (install the package libgpiod3 on Debian 13, libgpiod2 on Debian 12)"
    }
}
