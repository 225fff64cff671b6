import CLinuxDevices

/// How the process's heap gives memory back. By default glibc shrinks the heap whenever 128 KiB
/// is free at its top and puts large arrays in mappings of their own, returned when freed: a
/// worst-case plan's arrays (a few hundred KiB) then cost more in page faults, zeroing fresh
/// pages each time, than the planning itself. Here arrays up to 16 MiB stay in the heap, which
/// keeps 2 MiB of slack and gives back what is free beyond 16 MiB: at most that much more
/// resident memory, for plans with no page faults. (At 8 MiB, each plan of a 24×88 wall of 16
/// boards, about 15 MiB of arrays, was given back and faulted in again: 60 % of its time.)
///
/// That slack is per heap, and glibc makes a heap for each thread that finds the others busy,
/// up to eight per core: over a soak, flapd's dozen threads spread their allocations over about
/// a dozen heaps, each keeping its slack and the free holes between live blocks, and private
/// memory rose 10 MiB an hour with a live heap that never passed 5 MiB (heaptrack). Two heaps,
/// and every free page given back every few minutes (``giveBack()``), keep it flat.
public enum ProcessHeap {
    /// How often a long-running process should call ``giveBack()``.
    public static let giveBackPeriod: Duration = .seconds(300)

    /// Call once, first thing in main.
    public static func keepSlack() {
        vw_heap_tune(16 << 20, 2 << 20, 16 << 20, 2)
    }

    /// Returns every free page of every heap to the kernel, not only the slack at the top: what
    /// freed messages, closed connections and finished plans leave between live blocks.
    public static func giveBack() {
        vw_heap_give_back()
    }
}
