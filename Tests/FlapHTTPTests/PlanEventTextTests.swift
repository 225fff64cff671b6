import FlapCore
import Foundation
import Testing

@testable import FlapHTTP

/// The plan event, written straight into bytes, says what the encoder said before it.
@Suite struct PlanEventTextTests {
    /// The event's data as it was encoded through `Codable`, sorted keys and all.
    struct EncodedPlan: Encodable {
        struct Module: Encodable {
            var start: Double
            var landings: [Double]
            var path: [Int]
            var gains: [Double]?
        }
        var panel: String
        var startedAt: Double
        var rows: Int
        var columns: Int
        var duration: Double
        var volume: Double?
        var modules: [Module]
    }

    func plan() throws -> FlipPlan {
        let to = try Board(rows: TextLayout.encodeText("SPLIT FLAP\n20°C ON A WALL", options: LayoutOptions(size: .flagship)).rows)
        return try FlipPlanner(motion: .shortestWay).plan(from: Board(size: .flagship), to: to)
    }

    func encoded(_ plan: FlipPlan, panel: String, startedAt: Double, volume: Double?, gains: [[Double]]?) throws -> String {
        let body = EncodedPlan(
            panel: panel, startedAt: startedAt, rows: plan.size.rows, columns: plan.size.columns,
            duration: plan.duration / .milliseconds(1), volume: volume,
            modules: plan.modules.enumerated().map { index, module in
                EncodedPlan.Module(
                    start: module.start / .milliseconds(1), landings: module.landings.map { $0 / .milliseconds(1) },
                    path: module.path.map { Int(plan.drum.codes[$0].rawValue) }, gains: gains?[index])
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(body), as: UTF8.self)
    }

    @Test func aPlanIsWrittenAsTheEncoderWroteIt() throws {
        let plan = try plan()
        let startedAt = 1_795_916_886_959.404
        #expect(
            PlanEventText.json(panel: "main", plan: plan, startedAt: startedAt, duration: plan.duration / .milliseconds(1), volume: nil, gains: nil)
                == (try encoded(plan, panel: "main", startedAt: startedAt, volume: nil, gains: nil)))
    }

    @Test func volumeGainsAndAPanelNameThatNeedsEscapingToo() throws {
        let plan = try plan()
        let gains = plan.modules.indices.map { index in index % 3 == 0 ? [0.125, 1, 0.3] : [] }
        let panel = "hall \"north\"\\\u{1}"
        let written = PlanEventText.json(
            panel: panel, plan: plan, startedAt: 12.5, duration: plan.duration / .milliseconds(1), volume: 0.7, gains: gains)
        #expect(written == (try encoded(plan, panel: panel, startedAt: 12.5, volume: 0.7, gains: gains)))
        // And it reads back as JSON, the name as it was.
        let object = try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String: Any]
        #expect(object?["panel"] as? String == panel)
    }
}
