import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Why a file flapd keeps could not be written or read: the fault an SD card brings, named for
/// the person who has to do something about it.
public struct StorageFault: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of fault.
    public enum Kind: String, Sendable, Codable {
        /// No space left on the filesystem: freeing some is enough, flapd resumes by itself.
        case full
        /// The filesystem is mounted read-only (an SD card is, after errors).
        case readOnly = "read-only"
        /// The file is not a database, or fails its integrity check.
        case damaged
        /// Any other input/output error from the storage.
        case failing
    }

    /// Its kind.
    public var kind: Kind
    /// The file (or directory) concerned.
    public var path: String
    /// Bytes free on its filesystem when the fault was seen, when they could be told.
    public var freeBytes: Int64?
    /// What the underlying call said, for the log.
    public var detail: String

    /// A fault of `kind` at `path`.
    public init(kind: Kind, path: String, freeBytes: Int64? = nil, detail: String) {
        self.kind = kind
        self.path = path
        self.freeBytes = freeBytes
        self.detail = detail
    }

    /// The fault behind `error` met on `path`, or nil when `error` is not a storage fault (a
    /// constraint, a programming error, a bad value).
    public init?(_ error: any Error, path: String) {
        if let fault = error as? StorageFault {
            self = fault
            return
        }
        let space = FilesystemSpace(path: path)
        guard let kind = Self.kind(of: error, path: path, space: space) else { return nil }
        self.init(kind: kind, path: path, freeBytes: space?.freeBytes, detail: "\(error)")
    }

    /// One sentence: what is wrong and what to do.
    public var description: String {
        switch kind {
        case .full:
            let free = freeBytes.map { "\(Self.bytes($0)) free" } ?? "no space left"
            return "the disk is full: \(path) cannot be written (\(free)); free some space on it and flapd carries on by itself"
        case .readOnly:
            return
                "the disk is read-only: \(path) cannot be written; an SD card is remounted read-only after errors: check it (dmesg), then remount it read-write or replace it"
        case .damaged:
            return "\(path) is damaged (\(detail))"
        case .failing:
            return "\(path) cannot be written or read (\(detail)); the storage may be failing: check it (dmesg)"
        }
    }

    /// A size in the units a person reads: 512 B, 3.2 KiB, 1.5 MiB.
    public static func bytes(_ count: Int64) -> String {
        if count < 1024 { return "\(count) B" }
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(count) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return value >= 100 ? "\(Int(value)) \(units[unit])" : "\((value * 10).rounded() / 10) \(units[unit])"
    }

    private static func kind(of error: any Error, path: String, space: FilesystemSpace?) -> Kind? {
        if let database = error as? SQLiteError {
            switch database.code {
            case .full: return .full
            case .readOnly: return .readOnly
            case .corrupt, .notADatabase: return .damaged
            case .ioError, .cantOpen, .protocol:
                // SQLite reports a failed write or fsync as an I/O error without its errno: a
                // write beside the file tells why (ext4's emergency read-only after errors does
                // not show in statvfs's flags, only in what a write answers).
                if space?.readOnly == true { return .readOnly }
                switch WriteProbe.errno(beside: path) {
                case EROFS: return .readOnly
                case ENOSPC, EDQUOT: return .full
                default: break
                }
                if let free = space?.freeBytes, free < FilesystemSpace.nearlyFull { return .full }
                return .failing
            default: return nil
            }
        }
        let code: Int32?
        if let posix = error as? POSIXError {
            code = posix.code.rawValue
        } else if let cocoa = error as? CocoaError, let underlying = cocoa.userInfo["NSUnderlyingError"] as? POSIXError {
            // What FileManager throws carries the errno it met underneath.
            code = underlying.code.rawValue
        } else if let cocoa = error as? CocoaError {
            switch cocoa.code {
            case .fileWriteOutOfSpace: return .full
            case .fileWriteVolumeReadOnly: return .readOnly
            default: code = nil
            }
        } else {
            code = nil
        }
        switch code {
        case ENOSPC, EDQUOT: return .full
        case EROFS: return .readOnly
        case EIO: return .failing
        default: return nil
        }
    }
}

/// The space and mode of the filesystem a path is on (statvfs).
public struct FilesystemSpace: Sendable, Equatable {
    /// Bytes free to flapd.
    public var freeBytes: Int64
    /// Bytes in all.
    public var totalBytes: Int64
    /// Whether it is mounted read-only.
    public var readOnly: Bool

    /// The directory `path` is in ("." for a bare name, "/" for the root).
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Below this, an I/O error on a write is taken for a full disk (SQLite needs a few pages).
    static let nearlyFull: Int64 = 64 * 1024

    /// The filesystem of `path`, or of the nearest existing directory above it; nil when none can be read.
    public init?(path: String) {
        var candidate = path
        var info = statvfs()
        while statvfs(candidate, &info) != 0 {
            let parent = Self.parent(of: candidate)
            guard !parent.isEmpty, parent != candidate else { return nil }
            candidate = parent
        }
        // f_bavail: what an unprivileged writer may still use, which is what flapd can use.
        freeBytes = Int64(info.f_bavail) * Int64(info.f_frsize)
        totalBytes = Int64(info.f_blocks) * Int64(info.f_frsize)
        readOnly = info.f_flag & UInt(ST_RDONLY) != 0
    }
}

/// A one-byte write, synced, beside a file: what the filesystem answers a writer now.
enum WriteProbe {
    /// The errno of the failed step, or nil when the write went through.
    static func errno(beside path: String) -> Int32? {
        let probe = FilesystemSpace.parent(of: path) + "/.flapd-write-probe"
        let descriptor = open(probe, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        guard descriptor >= 0 else { return Glibc.errno }
        defer {
            close(descriptor)
            unlink(probe)
        }
        var byte: UInt8 = 0
        guard write(descriptor, &byte, 1) == 1, fsync(descriptor) == 0 else { return Glibc.errno }
        return nil
    }
}
