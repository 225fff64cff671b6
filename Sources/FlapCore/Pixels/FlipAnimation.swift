/// When the frames of an animation fall.
public enum FlipAnimation {
    /// The highest frame rate drawn: more is not seen, and costs a Pi's CPU.
    public static let maximumFramesPerSecond = 60

    /// Frame times from 0 at `framesPerSecond` (at most 60) while before `duration`, then
    /// `duration` itself, so the last frame is exactly the final board.
    public static func frameTimes(duration: Duration, framesPerSecond: Int) -> [Duration] {
        let fps = max(1, min(maximumFramesPerSecond, framesPerSecond))
        var times: [Duration] = []
        var k = 0
        while true {
            let t = Duration.seconds(1) * k / fps
            guard t < duration else { break }
            times.append(t)
            k += 1
        }
        return times + [duration]
    }
}
