import FlapClocks
import TestSupport
import Testing
import Wematch

@testable import FlapKiosk

@Suite struct EaseAndGlideTests {
    @Test func easeInOutStartsAndEndsGentlyAndIsSymmetric() {
        let ease = CubicBezierEase.easeInOut
        #expect(ease.progress(at: 0) == 0 && ease.progress(at: 1) == 1)
        #expect(ease.progress(at: -1) == 0 && ease.progress(at: 2) == 1)
        #expect(abs(ease.progress(at: 0.5) - 0.5) < 1e-6)
        for t in stride(from: 0.05, through: 0.45, by: 0.05) {
            #expect(abs(ease.progress(at: t) + ease.progress(at: 1 - t) - 1) < 1e-6)
        }
        // Slow at the ends: the first tenth of the time covers much less than a tenth of the way.
        #expect(ease.progress(at: 0.1) < 0.03)
        var last = 0.0
        for step in 1...100 {
            let p = ease.progress(at: Double(step) / 100)
            #expect(p >= last)
            last = p
        }
    }

    @Test func theCSSEaseCurveMatchesItsKnownValues() {
        // CSS `ease` (0.25, 0.1, 0.25, 1) at half time is about 0.8024 of the way.
        #expect(abs(CubicBezierEase(0.25, 0.1, 0.25, 1).progress(at: 0.5) - 0.8024) < 0.001)
    }

    @Test func aNewSampleGlidesTheHeartFromWhereItIsToItsNewPoint() {
        let clock = ManualClock()
        let t0 = clock.now
        var glides = HeartGlides<ManualClock.Instant>(duration: .milliseconds(800))
        let first = HeartPoint(previous: 70, current: 70), second = HeartPoint(previous: 70, current: 90)
        glides.follow([heart("a", first, seq: 1)], at: t0)
        #expect(glides.position(of: "a", at: t0) == first)
        #expect(!glides.isMoving(at: t0))
        glides.follow([heart("a", second, seq: 2)], at: t0.advanced(by: .seconds(1)))
        let start = t0.advanced(by: .seconds(1))
        #expect(glides.position(of: "a", at: start) == first)
        #expect(abs(glides.position(of: "a", at: start.advanced(by: .milliseconds(400)))!.current - 80) < 1e-6)
        #expect(glides.position(of: "a", at: start.advanced(by: .milliseconds(800))) == second)
        #expect(glides.isMoving(at: start.advanced(by: .milliseconds(100))))
        // Interrupted half-way: the next glide starts where the heart is, not where it was going.
        glides.follow([heart("a", HeartPoint(previous: 90, current: 60), seq: 3)], at: start.advanced(by: .milliseconds(400)))
        #expect(abs(glides.position(of: "a", at: start.advanced(by: .milliseconds(400)))!.current - 80) < 1e-6)
        // Gone from the room: forgotten.
        glides.follow([], at: start.advanced(by: .seconds(2)))
        #expect(glides.position(of: "a", at: start.advanced(by: .seconds(2))) == nil)
    }

    func heart(_ id: MemberID, _ point: HeartPoint, seq: Int) -> RoomPlot.Heart {
        RoomPlot.Heart(id: id, colour: "#ff0000", point: point, stale: false, seq: seq)
    }
}
