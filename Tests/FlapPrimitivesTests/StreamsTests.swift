import FlapPrimitives
import Testing

/// Watchers and WakeSignal: what they promise callers on other threads and in cancellation handlers.
@Suite struct StreamsTests {
    @Test func aWatcherGetsItsFirstElementsThenEverythingYieldedAndLeavesWhenDropped() async {
        let watchers = Watchers<Int>()
        var stream: AsyncStream<Int>? = watchers.watch(first: [1, 2])
        watchers.yield(3)
        var iterator = stream!.makeAsyncIterator()
        #expect(await [iterator.next(), iterator.next(), iterator.next()] == [1, 2, 3])
        #expect(watchers.count == 1)
        // Dropped: it takes itself out at once, no task to wait for.
        stream = nil
        iterator = AsyncStream<Int> { $0.finish() }.makeAsyncIterator()
        #expect(watchers.isEmpty)
    }

    @Test func finishingAllEndsEveryStreamAndEmptiesTheSet() async {
        let watchers = Watchers<String>()
        let streams = [watchers.watch(), watchers.watch()]
        watchers.yield("last")
        watchers.finishAll()
        for stream in streams {
            var seen: [String] = []
            for await element in stream { seen.append(element) }
            #expect(seen == ["last"])
        }
        #expect(watchers.isEmpty)
    }

    @Test func aWakeBeforeTheWaitIsKeptForIt() async {
        let signal = WakeSignal()
        signal.wake()
        await signal.wait()  // at once: the wake was kept
    }

    @Test func aWaitEndsAtAWakeFromAnotherTaskOrWhenCancelled() async {
        let signal = WakeSignal()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await signal.wait() }
            group.addTask { signal.wake() }
            await group.waitForAll()
        }
        let cancelled = Task { await signal.wait() }
        cancelled.cancel()
        await cancelled.value
    }

    @Test func aWaiterIsAnsweredByItsKeyOrWithItsFallbackWhenCancelled() async {
        let waiters = Waiters<Int, String>()
        #expect(!waiters.answer(1, with: "nobody waits"))
        let answered = Task { await waiters.wait(for: 1, cancelled: "cancelled") }
        while !waiters.answer(1, with: "one") { await Task.yield() }
        #expect(await answered.value == "one")
        let cancelled = Task { await waiters.wait(for: 2, cancelled: "cancelled") }
        cancelled.cancel()
        #expect(await cancelled.value == "cancelled")
    }
}
