import FlapCore
import FlapStorage
import FoundationEssentials
import Glibc
import SystemPackage

/// flapd's state directory: the inbox database, keys, panel state. Made with mode 0700.
public struct StateDirectory: Sendable {
    /// The directory.
    public let path: String

    /// `explicit`, else `$STATE_DIRECTORY` (systemd's StateDirectory=), else
    /// `$XDG_STATE_HOME/flapd`, else `~/.local/state/flapd`.
    public init(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let chosen = Self.path(explicit: explicit, environment: environment)
        do {
            try FileManager.default.createDirectory(atPath: chosen, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ServiceError.stateDirectoryUncreatable(path: chosen, reason: Self.reason(error))
        }
        path = chosen
        Self.keepPrivate(chosen)
    }

    /// Where the state directory is, made or not: `explicit`, else systemd's, else XDG's.
    static func path(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit { return explicit }
        if let systemd = environment["STATE_DIRECTORY"]?.split(separator: ":").first { return String(systemd) }
        if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty { return xdg + "/flapd" }
        return (environment["HOME"] ?? homeDirectory()) + "/.local/state/flapd"
    }

    /// Makes the folder 0700 and the files directly in it 0600: an inbox written by an earlier
    /// version was 0644 (its messages and sender names readable by every user), its keys 0600.
    static func keepPrivate(_ folder: String) {
        chmod(folder, 0o700)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            var info = stat()
            let path = folder + "/" + name
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_mode & 0o077 != 0 else { continue }
            chmod(path, 0o600)
        }
    }

    /// The largest key file read: a key is a line of text, and reading a file of megabytes at
    /// every start (or a wrong key's every check) is a mistake to name, not a key to take.
    static let largestKeyFile = SmallFile.largestKeyFile

    /// The size of the file at `path`, or nil when there is none.
    static func size(of path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }

    /// The path of `name` inside it.
    public func file(_ name: String) -> String { path + "/" + name }

    /// The secret in file `name`, made (random, 256 bits) and stored with mode 0600 if absent.
    /// `created` says whether it was just made, so the caller can say where it is.
    public func secret(_ name: String) throws -> (value: String, created: Bool) {
        let path = file(name)
        let kept: Data?
        do { kept = try SmallFile.read(path, largest: Self.largestKeyFile) } catch SmallFile.Failure.tooLarge {
            throw ServiceError.stateKeyTooLarge(path: path, largest: Self.largestKeyFile)
        } catch { kept = nil }
        if let existing = kept.map({ String(decoding: $0, as: UTF8.self).trimmed }), !existing.isEmpty {
            return (existing, false)
        }
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let value = Data(bytes).base64EncodedString().replacing("+", with: "-")
            .replacing("/", with: "_").replacing("=", with: "")
        let created = FileManager.default.createFile(atPath: path, contents: Data((value + "\n").utf8), attributes: [.posixPermissions: 0o600])
        guard created else { throw ServiceError.stateFileUnwritable(path: path) }
        return (value, true)
    }

    /// What went wrong, as the system says it ("Permission denied"), not as a Swift value.
    static func reason(_ error: any Error) -> String {
        let posix = (error as? POSIXError) ?? ((error as? CocoaError)?.userInfo["NSUnderlyingError"] as? POSIXError)
        return posix.map { Errno(rawValue: $0.code.rawValue).description } ?? "\(error)"
    }

    /// The user's home directory from the password database (for a service without HOME).
    static func homeDirectory() -> String {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return "/" }
        return String(cString: directory)
    }
}
