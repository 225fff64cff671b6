/// A timing curve as CSS defines it: a cubic Bézier from (0, 0) to (1, 1) with two control
/// points; ``progress(at:)`` maps the share of time gone to the share of the way travelled.
public struct CubicBezierEase: Sendable, Equatable {
    public let x1: Double, y1: Double, x2: Double, y2: Double

    /// The curve through (0, 0), (`x1`, `y1`), (`x2`, `y2`) and (1, 1), as CSS's `cubic-bezier()` takes it.
    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        precondition((0...1).contains(x1) && (0...1).contains(x2), "the curve must move forward in time")
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    /// CSS `ease-in-out`: a heart sets off gently and settles gently.
    public static let easeInOut = CubicBezierEase(0.42, 0, 0.58, 1)

    /// The share of the way at `time` (0…1, held there outside).
    public func progress(at time: Double) -> Double {
        guard time > 0 else { return 0 }
        guard time < 1 else { return 1 }
        return Self.coordinate(parameter(for: time), y1, y2)
    }

    /// B(t) on one axis for control values a and b.
    private static func coordinate(_ t: Double, _ a: Double, _ b: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * a + 3 * u * t * t * b + t * t * t
    }

    private static func slope(_ t: Double, _ a: Double, _ b: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * a + 6 * u * t * (b - a) + 3 * t * t * (1 - b)
    }

    /// The curve parameter whose x is `x`: Newton's method, bisection where the slope is flat.
    private func parameter(for x: Double) -> Double {
        var t = x
        for _ in 0..<8 {
            let error = Self.coordinate(t, x1, x2) - x
            if abs(error) < 1e-7 { return t }
            let d = Self.slope(t, x1, x2)
            guard abs(d) > 1e-6 else { break }
            t -= error / d
        }
        var low = 0.0, high = 1.0
        t = x
        for _ in 0..<40 {
            let value = Self.coordinate(t, x1, x2)
            if abs(value - x) < 1e-7 { break }
            if value < x { low = t } else { high = t }
            t = (low + high) / 2
        }
        return t
    }
}
