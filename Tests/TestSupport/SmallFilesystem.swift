import Foundation

/// A real ext4 filesystem of a few MiB on a loop device, mounted for one test with
/// `errors=remount-ro` as a Raspberry Pi mounts its SD card, to fill up or to fail into
/// read-only as the card does. Mounting needs root: ``canMount`` says whether this machine allows it.
public final class SmallFilesystem: Sendable {
    public let path: String
    private let image: String
    private var filler: String { path + "/.filler" }

    /// Whether the tests run with the right to mount (root, as on CI and the developers' machines).
    public static var canMount: Bool {
        geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/bin/mount")
            && FileManager.default.isExecutableFile(atPath: "/sbin/mkfs.ext4")
    }

    private init(path: String, image: String) {
        self.path = path
        self.image = image
    }

    /// Makes and mounts an ext4 filesystem of `mebibytes` at a new directory.
    public static func mount(mebibytes: Int) async throws -> SmallFilesystem {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("small-fs-\(UUID().uuidString)").path
        let image = base + ".img", path = base
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: image, contents: nil) else { throw PeerError("cannot make \(image)") }
        try FileHandle(forWritingAtPath: image).map {
            try $0.truncate(atOffset: UInt64(mebibytes) << 20); try $0.close()
        }
        // No blocks reserved for root: the tests (and flapd under them) run as root.
        try await run("/sbin/mkfs.ext4", ["-q", "-m", "0", image])
        try await run("/bin/mount", ["-o", "loop,errors=remount-ro", image, path])
        return SmallFilesystem(path: path, image: image)
    }

    /// Fills what is left with one file, until the filesystem says no space is left. The file is
    /// opened close-on-exec: a child another test starts meanwhile must not keep it open, or
    /// deleting it would give no space back.
    public func fill() throws {
        let descriptor = open(filler, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw PeerError("cannot write \(filler): errno \(errno)") }
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0x55, count: 4096)
        while block.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        fsync(descriptor)
    }

    /// Gives the space back, the delete committed to the journal before the test goes on.
    public func free() throws {
        try FileManager.default.removeItem(atPath: filler)
        let directory = open(path, O_RDONLY | O_DIRECTORY)
        guard directory >= 0 else { throw PeerError("cannot open \(path)") }
        defer { close(directory) }
        guard fsync(directory) == 0 else { throw PeerError("cannot sync \(path): errno \(errno)") }
    }

    /// Makes the filesystem report an error, as a failing card does: the kernel remounts it
    /// read-only at once, files open for writing or not.
    public func failIntoReadOnly() async throws {
        let device = try await Self.output("/bin/findmnt", ["-n", "-o", "SOURCE", path])
        let name = (device as NSString).lastPathComponent
        try Data("1".utf8).write(to: URL(fileURLWithPath: "/sys/fs/ext4/\(name)/trigger_fs_error"))
    }

    /// Remounts it read-only (its files must not be open for writing), or read-write again.
    public func remount(readOnly: Bool) async throws {
        try await Self.run("/bin/mount", ["-o", "remount,\(readOnly ? "ro" : "rw")", path])
    }

    public func unmount() async {
        _ = try? await ProcessRunner.run("/bin/umount", ["-l", path])
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.removeItem(atPath: image)
    }

    private static func run(_ program: String, _ arguments: [String]) async throws {
        _ = try await output(program, arguments)
    }

    private static func output(_ program: String, _ arguments: [String]) async throws -> String {
        let result = try await ProcessRunner.run(program, arguments)
        guard result.status == 0 else { throw PeerError("\(program) \(arguments.joined(separator: " ")): \(result.stderrText)") }
        return result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// `PRAGMA integrity_check` of a SQLite file, by Python's sqlite3 (an independent reader).
public func sqliteIntegrity(_ path: String) async throws -> String {
    let script = "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('PRAGMA integrity_check').fetchone()[0])"
    let result = try await ProcessRunner.run("/usr/bin/python3", ["-c", script, path])
    return (result.stdoutText + result.stderrText).trimmingCharacters(in: .whitespacesAndNewlines)
}
