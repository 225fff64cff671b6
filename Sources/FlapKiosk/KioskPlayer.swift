import FlapCore
import Wematch

/// The room's plot, live on a pixel display: a frame at the panel's frame rate, each drawn
/// from the room as it stands and the hearts' glides, handed to `show`. A frame that is late
/// (a loaded machine) is skipped rather than queued, so the picture never lags the room.
public actor KioskPlayer<C: Clock<Duration>> where C: Sendable {
    private let picture: KioskPicture
    private let clock: C
    private let interval: Duration
    private let plot: @Sendable () async -> RoomPlot?
    private let show: @Sendable (PixelFrame) async throws -> Void
    private var glides: HeartGlides<C.Instant>
    /// Frames shown, for tests and benchmarks.
    public private(set) var framesShown = 0

    /// Plays on a display of `width` × `height` pixels at `framesPerSecond`; `plot` gives the
    /// room (nil: not yet known, nothing drawn) and `show` puts a frame on the display.
    public init(
        width: Int, height: Int, monochrome: Bool = false, framesPerSecond: Int, clock: C,
        plot: @escaping @Sendable () async -> RoomPlot?, show: @escaping @Sendable (PixelFrame) async throws -> Void
    ) {
        picture = KioskPicture(width: width, height: height, monochrome: monochrome)
        self.clock = clock
        interval = .seconds(1) / max(1, min(60, framesPerSecond))
        self.plot = plot
        self.show = show
        glides = HeartGlides()
    }

    /// Draws until cancelled.
    public func run() async {
        var next = clock.now
        while !Task.isCancelled {
            await frame(at: clock.now)
            next = next.advanced(by: interval)
            if next < clock.now { next = clock.now.advanced(by: interval) }
            guard (try? await clock.sleep(until: next, tolerance: nil)) != nil else { return }
        }
    }

    /// Draws and shows the frame for `now`.
    public func frame(at now: C.Instant) async {
        guard let plot = await plot() else { return }
        glides.follow(plot.hearts, at: now)
        var positions: [MemberID: HeartPoint] = [:]
        for heart in plot.hearts { positions[heart.id] = glides.position(of: heart.id, at: now) }
        // A display that fails says so through its panel's notices; the next frame tries again.
        guard (try? await show(picture.draw(plot, positions: positions))) != nil else { return }
        framesShown += 1
    }
}
