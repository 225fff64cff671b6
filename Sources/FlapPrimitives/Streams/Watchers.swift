import Synchronization

/// The streams of everyone watching something: each gets every element yielded from when it
/// began to watch, and leaves by itself when its consumer stops. The set is under a lock of its
/// own, so a stream that ends takes itself out at once, from whatever thread ends it, with no
/// task sent back into an actor to do it.
public final class Watchers<Element: Sendable>: Sendable {
    private struct State {
        var next = 0
        var streams: [Int: AsyncStream<Element>.Continuation] = [:]
        var tags: [Int: String] = [:]
        /// Streams owned elsewhere (``forward(to:)``): never finished from here.
        var forwarded: Set<Int> = []
    }

    private let state = Mutex(State())

    /// Nobody watching yet.
    public init() {}

    /// A new watcher's stream, `first` already in it.
    /// `tag`: whose it is, so ``finish(tagged:last:)`` can end theirs.
    public func watch(
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded, first: [Element] = [],
        tag: String? = nil
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: bufferingPolicy)
        for element in first { continuation.yield(element) }
        let id = state.withLock { state in
            state.next += 1
            state.streams[state.next] = continuation
            state.tags[state.next] = tag
            return state.next
        }
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return stream
    }

    /// How many are watching.
    public var count: Int { state.withLock { $0.streams.count } }

    /// Whether nobody is watching.
    public var isEmpty: Bool { count == 0 }

    /// Gives every element to `continuation` too, until it ends: a stream of its owner's that
    /// several sources feed, without a task between (each would be one more thread to wake).
    public func forward(to continuation: AsyncStream<Element>.Continuation) {
        state.withLock { state in
            state.next += 1
            state.streams[state.next] = continuation
            state.forwarded.insert(state.next)
        }
    }

    /// Gives `element` to every watcher.
    public func yield(_ element: Element) {
        // In the order they began to watch: the panels, say, in the order they are configured.
        let streams = state.withLock { $0.streams.sorted { $0.key < $1.key } }
        for (id, stream) in streams {
            // A forwarded stream has no termination handler of ours: it leaves when found ended.
            if case .terminated = stream.yield(element) { remove(id) }
        }
    }

    /// Gives `element` to the watchers tagged `tag` only.
    public func yield(_ element: Element, tagged tag: String) {
        let streams = state.withLock { state in state.tags.filter { $0.value == tag }.compactMap { state.streams[$0.key] } }
        for stream in streams { stream.yield(element) }
    }

    /// Ends every watcher's stream.
    public func finishAll() {
        // Taken out first: finishing a stream calls its termination handler, which takes the lock.
        let streams = state.withLock { state in
            defer { state.streams = [:]; state.tags = [:]; state.forwarded = [] }
            return state.streams.filter { !state.forwarded.contains($0.key) }.map(\.value)
        }
        for stream in streams { stream.finish() }
    }

    /// Gives `last` to the watchers tagged `tag`, then ends their streams.
    public func finish(tagged tag: String, last: Element) {
        let streams = state.withLock { state in
            let ids = state.tags.filter { $0.value == tag }.map(\.key)
            defer { for id in ids { state.streams[id] = nil; state.tags[id] = nil } }
            return ids.compactMap { state.streams[$0] }
        }
        for stream in streams {
            stream.yield(last)
            stream.finish()
        }
    }

    private func remove(_ id: Int) {
        state.withLock { state in
            state.streams[id] = nil
            state.tags[id] = nil
            state.forwarded.remove(id)
        }
    }
}
