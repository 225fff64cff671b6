import FlapCore
import Wematch

/// One frame of the room's plot: the axes and the diagonal of a steady heart rate, every
/// member's heart in its colour where its glide has brought it (stale hearts dimmed), a ring
/// around each cluster (solid when every pair in it is synced, dashed when only connected)
/// with its chain length beside it, the stars, and on the right, if there is room, the legend:
/// the room, who is here and how many are synced. No BPM is ever written on it.
public struct KioskPicture: Sendable {
    /// The sizes of what it draws, for its width and height.
    public let geometry: PlotGeometry
    /// Whether the display shows one colour only (hearts then differ by nothing but place).
    public let monochrome: Bool

    static let axisColour = RGB(110, 110, 120)
    static let diagonalColour = RGB(55, 55, 80)
    static let ringColour = RGB(235, 235, 235)
    static let starColour = RGB(255, 230, 140)

    /// A picture of `width` by `height` pixels; `monochrome` for a panel of one colour.
    public init(width: Int, height: Int, monochrome: Bool = false) {
        geometry = PlotGeometry(width: width, height: height)
        self.monochrome = monochrome
    }

    /// The frame for `plot`, hearts at `positions` (members missing there are drawn at their point).
    public func draw(_ plot: RoomPlot, positions: [MemberID: HeartPoint]) -> PixelFrame {
        var painter = PixelPainter(width: geometry.width, height: geometry.height)
        axes(&painter)
        let places = Dictionary(
            uniqueKeysWithValues: plot.hearts.map { heart in
                (heart.id, geometry.pixel(positions[heart.id] ?? heart.point))
            })
        for star in plot.stars {
            let (x, y) = geometry.pixel(star.position)
            painter.sparkle(
                x, y, size: max(1, geometry.heartRadius * 2 / 3), thickness: max(1, geometry.heartRadius / 6), Self.starColour, alpha: star.opacity)
        }
        for cluster in plot.state.clusters { ring(cluster, places: places, &painter) }
        for heart in plot.hearts {
            guard let (x, y) = places[heart.id] else { continue }
            var colour = monochrome ? RGB.white : Palette.rgb(heart.colour).map { RGB($0.0, $0.1, $0.2) } ?? .white
            if heart.stale { colour = colour.scaled(by: 0.3) }
            painter.heart(x, y, radius: geometry.heartRadius, colour)
        }
        legend(plot.state, &painter)
        return painter.frame
    }

    private func axes(_ painter: inout PixelPainter) {
        let low = HeartPoint(previous: 40, current: 40), high = HeartPoint(previous: 200, current: 200)
        let origin = geometry.pixel(low), end = geometry.pixel(high)
        let stroke = geometry.stroke
        painter.line(from: geometry.pixel(HeartPoint(previous: 40, current: 40)), to: (origin.x, end.y), Self.axisColour, thickness: stroke)
        painter.line(from: origin, to: (end.x, origin.y), Self.axisColour, thickness: stroke)
        painter.line(
            from: origin, to: end, Self.diagonalColour, thickness: stroke, dash: geometry.side >= 120 ? (Double(4 * stroke), Double(4 * stroke)) : nil
        )
        // Ticks every 20 BPM; labels at 40, 120 and 200 where the display is large enough.
        let tick = max(1, geometry.heartRadius / 2)
        for bpm in stride(from: 60.0, through: 200, by: 20) {
            let x = geometry.pixel(HeartPoint(previous: bpm, current: 40)).x, y = geometry.pixel(HeartPoint(previous: 40, current: bpm)).y
            painter.line(from: (x, origin.y), to: (x, origin.y + Double(tick)), Self.axisColour, thickness: stroke)
            painter.line(from: (origin.x - Double(tick), y), to: (origin.x, y), Self.axisColour, thickness: stroke)
        }
        guard geometry.margin > 1 else { return }
        let scale = geometry.textScale
        for bpm in [40.0, 120, 200] {
            let label = "\(Int(bpm))"
            let x = geometry.pixel(HeartPoint(previous: bpm, current: 40)).x, y = geometry.pixel(HeartPoint(previous: 40, current: bpm)).y
            painter.text(
                label, x: Int(x) - PixelPainter.textWidth(label, scale: scale) / 2, y: Int(origin.y) + tick + 2 * scale, scale: scale, Self.axisColour
            )
            if bpm > 40 {
                painter.text(
                    label, x: max(0, Int(origin.x) - tick - scale - PixelPainter.textWidth(label, scale: scale)), y: Int(y) - 7 * scale / 2,
                    scale: scale, Self.axisColour)
            }
        }
    }

    private func ring(_ cluster: RoomState.Cluster, places: [MemberID: (x: Double, y: Double)], _ painter: inout PixelPainter) {
        let points = cluster.members.compactMap { places[$0] }
        guard !points.isEmpty else { return }
        let centre = (x: points.map(\.x).reduce(0, +) / Double(points.count), y: points.map(\.y).reduce(0, +) / Double(points.count))
        let reach =
            points.map { (point: (x: Double, y: Double)) -> Double in
                let dx = point.x - centre.x, dy = point.y - centre.y
                return (dx * dx + dy * dy).squareRoot()
            }.max() ?? 0
        let radius = reach + Double(geometry.heartRadius) + Double(max(2, geometry.heartRadius / 2))
        let stroke = geometry.stroke
        let dash = cluster.kind == "hard" ? nil : (on: Double(max(2, 3 * stroke)), off: Double(max(2, 3 * stroke)))
        painter.ring(centre: centre, radius: radius, Self.ringColour, thickness: stroke, dash: dash)
        // The chain length, just outside the ring's upper right.
        let label = "\(cluster.chain)"
        let scale = geometry.textScale
        painter.text(label, x: Int(centre.x + radius * 0.72) + scale, y: Int(centre.y - radius * 0.72) - 7 * scale, scale: scale, Self.ringColour)
    }

    private func legend(_ state: RoomState, _ painter: inout PixelPainter) {
        guard let (left, width) = geometry.legend else { return }
        let scale = geometry.textScale
        let line = 9 * scale
        var y = geometry.top + scale
        let letters = max(1, width / (6 * scale))
        func write(_ text: String, _ colour: RGB) {
            guard y + 7 * scale <= geometry.height else { return }
            painter.text(String(text.prefix(letters)), x: left, y: y, scale: scale, colour)
            y += line
        }
        guard geometry.side >= 120 else {
            // A small matrix has room for five letters: the counts in short.
            write("\(state.members.count) IN", Self.axisColour)
            write("\(state.syncedCount) SYN", Self.axisColour)
            if state.longestChain > 0 { write("CH \(state.longestChain)", Self.axisColour) }
            return
        }
        write(state.room, .white)
        write("\(state.members.count) HERE", Self.axisColour)
        write("\(state.syncedCount) SYNCED", Self.axisColour)
        if state.longestChain > 0 { write("CHAIN \(state.longestChain)", Self.axisColour) }
        y += line / 2
        for member in state.members {
            guard y + 7 * scale <= geometry.height else { break }
            let colour = Palette.rgb(member.colour).map { RGB($0.0, $0.1, $0.2) } ?? .white
            painter.rectangle(x: left, y: y, width: 5 * scale, height: 7 * scale, member.stale ? colour.scaled(by: 0.3) : colour)
            painter.text(
                String(member.name.prefix(max(0, letters - 2))), x: left + 8 * scale, y: y, scale: scale, member.stale ? Self.axisColour : .white)
            y += line
        }
    }
}
