import FlapControl
import Foundation
import Wematch

/// `flapbench --rooms`: the Wematch engine's update (who is synced, clusters, chains, stars)
/// for rooms of 20, 200 and 2 000 members, each member's heart rate wandering between updates.
struct WematchBench {
    let seconds: Double
    let output: StandardStream

    func run() {
        for count in [20, 200, 2000] {
            var room = Room<ContinuousClock.Instant>(name: "bench", capacity: count)
            let start = ContinuousClock.now
            var rates = (0..<count).map { 40 + Double(($0 * 7919) % 160) }
            for i in 0..<count {
                room.join(
                    "m\(i)", MemberRecord(name: "m\(i)", colour: Palette.colours[i % 20], joinedAt: Date(timeIntervalSince1970: Double(i))),
                    now: start)
            }
            var times: [Duration] = []
            var seq = 0
            let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
            var clusters = 0, chain = 0, pairs = 0
            while ContinuousClock.now < end || times.count < 5 {
                seq += 1
                let now = ContinuousClock.now
                for i in 0..<count {
                    let previous = rates[i]
                    rates[i] = min(200, max(40, previous + Double((i * 31 + seq * 17) % 7) - 3))
                    room.receive(HeartSample(previous: previous, current: rates[i], seq: seq), from: "m\(i)", now: now)
                }
                let began = ContinuousClock.now
                let state = room.update(now: began)
                times.append(began.duration(to: .now))
                clusters = state.clusters.count
                chain = state.longestChain
                pairs = state.synced.count
            }
            times.sort()
            write(
                "update, \(count) members (\(pairs) synced pairs, \(clusters) clusters, chain \(chain))",
                "median \(Self.microseconds(times[times.count / 2]))  p99 \(Self.microseconds(times[min(times.count - 1, times.count * 99 / 100)]))  (\(times.count) updates)"
            )
        }
    }

    static func microseconds(_ d: Duration) -> String {
        let us = Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12
        return us < 1000 ? String(format: "%.1f µs", us) : String(format: "%.2f ms", us / 1000)
    }

    private func write(_ name: String, _ value: String) {
        output.write("\(name.padding(toLength: 64, withPad: " ", startingAt: 0)) \(value)\n")
        output.flush()
    }
}
