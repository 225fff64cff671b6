#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A descriptor's bytes handed out a line at a time, read in large blocks: `readLine` made a
/// String of every line, which a hundred thousand `--jsonl` requests felt.
enum InputLines {
    /// Calls `body` with each line's bytes (valid only during the call), without its "\n" or
    /// "\r\n", as `readLine(strippingNewline: true)` gives them; a last line with no newline counts.
    static func forEach(descriptor: Int32 = 0, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var start = 0, filled = 0
        /// A line that ended at a newline at `end` (its "\r" before it dropped), or at the end of input.
        func line(_ all: UnsafeMutableBufferPointer<UInt8>, _ from: Int, _ end: Int, newline: Bool = true) {
            let trimmed = newline && end > from && all[end - 1] == 0x0D ? end - 1 : end
            body(UnsafeBufferPointer(rebasing: all[from..<trimmed]))
        }
        while true {
            if filled == buffer.count {
                if start > 0 {
                    buffer.withUnsafeMutableBufferPointer { all in
                        guard let base = all.baseAddress else { return }
                        base.update(from: base + start, count: filled - start)
                    }
                    filled -= start
                    start = 0
                } else {
                    // A line longer than the buffer: make room for it.
                    buffer.append(contentsOf: repeatElement(0, count: buffer.count))
                }
            }
            let count = buffer.withUnsafeMutableBufferPointer { all in
                all.baseAddress.map { read(descriptor, $0 + filled, all.count - filled) } ?? 0
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                if filled > start { buffer.withUnsafeMutableBufferPointer { line($0, start, filled, newline: false) } }
                return
            }
            buffer.withUnsafeMutableBufferPointer { all in
                guard let base = all.baseAddress else { return }
                var scan = filled
                let end = filled + count
                while scan < end, let newline = memchr(base + scan, 0x0A, end - scan) {
                    let at = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                    line(all, start, at)
                    start = at + 1
                    scan = at + 1
                }
            }
            filled += count
        }
    }
}
