import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The Python side of the tests: a virtual environment with the pinned peer packages
/// (Tests/Peers/requirements.txt), made on first use and reused, and scripts run in it.
public enum PythonPeer {
    /// The package root, found from this file's place in it.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Tests/Peers, where the peer scripts live.
    public static let peersDirectory = packageRoot.appendingPathComponent("Tests/Peers")

    /// The venv's python, creating or updating the venv when the requirements changed.
    /// `VESTAWIDGET_TEST_VENV` names the venv's folder; the default is .build/test-venv.
    public static func python() async throws -> String { try await venv.value }

    /// The venv, made once per test process: every caller awaits this one task. Only it takes
    /// the file lock, a blocking call; several tests blocked in it at once held every thread
    /// Swift's tasks share, and the one making the venv could never resume.
    private static let venv = Task { try await makeVenv() }

    private static func makeVenv() async throws -> String {
        let venv =
            ProcessInfo.processInfo.environment["VESTAWIDGET_TEST_VENV"]
            ?? packageRoot.appendingPathComponent(".build/test-venv").path
        let python = venv + "/bin/python"
        let requirements = peersDirectory.appendingPathComponent("requirements.txt").path
        let withoutDependencies = peersDirectory.appendingPathComponent("requirements-nodeps.txt").path
        let wanted = try String(contentsOfFile: requirements, encoding: .utf8) + String(contentsOfFile: withoutDependencies, encoding: .utf8)
        let stamp = venv + "/requirements.installed"

        try FileManager.default.createDirectory(atPath: venv, withIntermediateDirectories: true)
        // Test processes may run side by side: one makes the venv, the others wait for it.
        let lock = open(venv + ".lock", O_CREAT | O_RDWR, 0o644)
        guard lock >= 0 else { throw PeerError("cannot open \(venv).lock: errno \(errno)") }
        defer { close(lock) }
        flock(lock, LOCK_EX)
        defer { flock(lock, LOCK_UN) }

        if (try? String(contentsOfFile: stamp, encoding: .utf8)) == wanted,
            FileManager.default.isExecutableFile(atPath: python)
        {
            return python
        }
        try await run("/usr/bin/env", ["python3", "-m", "venv", venv])
        try await run(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", requirements])
        try await run(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "-r", withoutDependencies])
        try wanted.write(toFile: stamp, atomically: true, encoding: .utf8)
        return python
    }

    /// Runs `script` (a file in Tests/Peers) in the venv with `input` on stdin; returns stdout.
    public static func runScript(_ script: String, arguments: [String] = [], input: Data) async throws -> Data {
        try await run(try await python(), [peersDirectory.appendingPathComponent(script).path] + arguments, input: input)
    }

    /// Runs a program to completion with `input` on stdin; returns stdout, throws on failure.
    @discardableResult
    public static func run(_ program: String, _ arguments: [String], input: Data = Data()) async throws -> Data {
        let result = try await ProcessRunner.run(program, arguments, input: input)
        guard result.status == 0 else {
            throw PeerError(
                "\(program) \(arguments.joined(separator: " ")) exited \(result.status): \(String(decoding: result.stderr, as: UTF8.self))")
        }
        return result.stdout
    }
}

/// A test peer that could not be set up or failed.
public struct PeerError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
