import FoundationEssentials
import Glibc

/// Whole small files (settings, calibration, certificates) written so a power cut leaves the old
/// file or the new one, never half of either.
public enum DurableFile {
    /// Writes `data` beside `path` with `mode`, syncs it, then renames it over `path`. A full,
    /// read-only or failing disk is thrown as a ``StorageFault`` naming `path`.
    public static func write(_ data: Data, to path: String, mode: mode_t = 0o600) throws {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".new").path
        do {
            try writeSynced(data, to: temporary, mode: mode)
        } catch {
            unlink(temporary)
            throw StorageFault(error, path: path) ?? error
        }
        guard rename(temporary, path) == 0 else {
            let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            unlink(temporary)
            throw StorageFault(error, path: path) ?? error
        }
    }

    private static func writeSynced(_ data: Data, to path: String, mode: mode_t) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        // The mode of a file that was left behind by a crash is not what open would give a new one.
        fchmod(descriptor, mode)
        try data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                offset += written
            }
        }
        guard fsync(descriptor) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }
}
