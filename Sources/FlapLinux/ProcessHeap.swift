import CLinuxDevices

/// How the process's heap gives memory back. By default glibc shrinks the heap whenever 128 KiB
/// is free at its top and puts large arrays in mappings of their own, returned when freed: a
/// worst-case plan's arrays (a few hundred KiB) then cost more in page faults, zeroing fresh
/// pages each time, than the planning itself. Here arrays up to 16 MiB stay in the heap, which
/// keeps 2 MiB of slack and gives back what is free beyond 16 MiB: at most that much more
/// resident memory, for plans with no page faults. (At 8 MiB, each plan of a 24×88 wall of 16
/// boards, about 15 MiB of arrays, was given back and faulted in again: 60 % of its time.)
public enum ProcessHeap {
    /// Call once, first thing in main.
    public static func keepSlack() {
        vw_heap_tune(16 << 20, 2 << 20, 16 << 20)
    }
}
