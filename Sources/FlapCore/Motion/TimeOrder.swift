/// The order of a plan's clacks in time, for thousands of them at once: a stable least-
/// significant-digit radix sort on their times, 11 bits a pass. Comparison sorting them was
/// half of a plan's instructions; this is linear, and stable, so equal times keep the order
/// the modules were planned in.
enum TimeOrder {
    static let digitBits = 11

    /// The indices of `times` from the earliest time to the latest, equal times in index order.
    static func indices(_ times: [Int64]) -> [Int] {
        let count = times.count
        guard count > 1, let low = times.min(), let high = times.max() else { return Array(0..<count) }
        let (span, overflow) = high.subtractingReportingOverflow(low)
        guard !overflow else {
            return (0..<count).sorted { times[$0] != times[$1] ? times[$0] < times[$1] : $0 < $1 }
        }
        let bits = 64 - span.leadingZeroBitCount
        let buckets = 1 << digitBits
        let mask = UInt64(buckets - 1)
        let keys = times.map { UInt64(bitPattern: $0 &- low) }
        var order = Array(0..<count)
        var next = [Int](repeating: 0, count: count)
        var starts = [Int](repeating: 0, count: buckets)
        keys.withUnsafeBufferPointer { keys in
            starts.withUnsafeMutableBufferPointer { starts in
                var shift: UInt64 = 0
                while shift < UInt64(bits) {
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
