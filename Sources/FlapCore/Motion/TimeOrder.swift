/// The order of a plan's clacks in time, for thousands of them at once: a stable least-
/// significant-digit radix sort on their times. Comparison sorting them was half of a plan's
/// instructions; this is linear, and stable, so equal times keep the order the modules were
/// planned in.
enum TimeOrder {
    /// The widest digit a pass sorts on (2 048 buckets still fit in the first-level cache).
    static let widestDigit = 11

    /// The indices of `times` from the earliest time to the latest, equal times in index order.
    static func indices(_ times: [Int64]) -> [Int] {
        let count = times.count
        guard count > 1 else { return Array(0..<count) }
        var low = times[0], high = times[0], remainders: Int64 = 0
        for time in times {
            low = min(low, time)
            high = max(high, time)
            remainders |= time % 1_000_000  // no branch, so the loop vectorises
        }
        let wholeMilliseconds = remainders == 0
        let (span, overflow) = high.subtractingReportingOverflow(low)
        guard !overflow else {
            return (0..<count).sorted { times[$0] != times[$1] ? times[$0] < times[$1] : $0 < $1 }
        }
        // Plans made of whole milliseconds (every flap period and transition step is) are sorted
        // on milliseconds: a span of seconds then takes two narrow passes instead of three wide ones.
        // (Divided by the constant, not by a variable unit: a division instruction per clack costs more than the pass.)
        let keys = wholeMilliseconds ? times.map { UInt64(bitPattern: ($0 &- low) / 1_000_000) } : times.map { UInt64(bitPattern: $0 &- low) }
        let bits = 64 - (wholeMilliseconds ? span / 1_000_000 : span).leadingZeroBitCount
        let passes = max(1, (bits + widestDigit - 1) / widestDigit)
        let digitBits = (bits + passes - 1) / passes
        return sorted(keys, digitBits: max(1, digitBits), passes: passes)
    }

    /// Indices of `keys` in ascending key order, stable: `passes` counting sorts on `digitBits` each.
    private static func sorted(_ keys: [UInt64], digitBits: Int, passes: Int) -> [Int] {
        let count = keys.count
        let buckets = 1 << digitBits
        let mask = UInt64(buckets - 1)
        var order = Array(0..<count)
        var next = [Int](repeating: 0, count: count)
        var starts = [Int](repeating: 0, count: buckets)
        keys.withUnsafeBufferPointer { keys in
            starts.withUnsafeMutableBufferPointer { starts in
                var shift: UInt64 = 0
                for _ in 0..<passes {
                    order.withUnsafeMutableBufferPointer { order in
                        next.withUnsafeMutableBufferPointer { next in
                            starts.update(repeating: 0)
                            for key in keys { starts[Int(truncatingIfNeeded: (key &>> shift) & mask)] &+= 1 }
                            var total = 0
                            for b in 0..<buckets {
                                let n = starts[b]
                                starts[b] = total
                                total &+= n
                            }
                            for index in order {
                                let b = Int(truncatingIfNeeded: (keys[index] &>> shift) & mask)
                                next[starts[b]] = index
                                starts[b] &+= 1
                            }
                        }
                    }
                    swap(&order, &next)
                    shift &+= UInt64(digitBits)
                }
            }
        }
        return order
    }
}
