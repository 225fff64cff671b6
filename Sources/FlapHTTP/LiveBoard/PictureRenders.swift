import NIOPosix

/// Board pictures drawn once and kept: the last few by their tag (panel, board and size), the
/// same picture asked for by many at once drawn once for all of them, and one picture drawn at a
/// time, on NIO's thread pool rather than the threads that answer requests. A dashboard or a
/// crowd of viewer-key requests for 4096-pixel pictures then costs one drawing, and `/healthz`
/// and the API are answered meanwhile.
public actor PictureRenders {
    /// How many pictures are kept (a 4096-pixel one is some hundreds of KB).
    public static let kept = 8

    private var pictures: [(tag: String, bytes: [UInt8])] = []
    private var drawing: [String: Task<[UInt8], any Error>] = [:]
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// Pictures drawn since the start (for tests).
    public private(set) var drawn = 0

    public init() {}

    /// The picture tagged `tag`, kept or drawn by `draw`.
    public func picture(tag: String, draw: @escaping @Sendable () throws -> [UInt8]) async throws -> [UInt8] {
        if let kept = pictures.first(where: { $0.tag == tag }) { return kept.bytes }
        if let running = drawing[tag] { return try await running.value }
        let task = Task { try await self.oneAtATime(draw) }
        drawing[tag] = task
        defer { drawing[tag] = nil }
        let bytes = try await task.value
        pictures.append((tag, bytes))
        if pictures.count > Self.kept { pictures.removeFirst() }
        return bytes
    }

    private func oneAtATime(_ draw: @escaping @Sendable () throws -> [UInt8]) async throws -> [UInt8] {
        while busy { await withCheckedContinuation { waiting.append($0) } }
        busy = true
        defer {
            busy = false
            if !waiting.isEmpty { waiting.removeFirst().resume() }
        }
        drawn += 1
        return try await NIOThreadPool.singleton.runIfActive { try draw() }
    }
}
