import BenchmarkCorpus
import FlapCore
import Foundation

// One workload, run a given number of times, with nothing else in the process: under
// valgrind's callgrind its instruction count is the same whatever the machine is doing, so a
// regression shows even on a loaded machine (`scripts/instruction-counts` runs it).
//
// Usage: instruction-counts WORKLOAD [TIMES]
//   plan-6x22    the worst-case 6×22 plan (every module travels 65 flaps)
//   plan-24x88   the same for a 24×88 wall of 16 boards
//   layout       encodeText over the benchmarks' typical texts, one each time
//   frame        one frame of a 6×22 cascade on a 1280×720 screen, drawn as a panel draws it
//                (only the rows that changed since the frame before)
//   frame-whole  the same frames each drawn whole, as before panels drew only what changed
//   nothing      start-up alone, to subtract

/// The work, returning something the optimizer cannot drop.
func workload(_ name: String) -> ((Int) -> Int)? {
    switch name {
    case "plan-6x22": return worstPlan(.flagship)
    case "plan-24x88": return worstPlan(BoardSize(rows: 24, columns: 88))
    case "layout":
        let texts = BenchmarkTexts.typical, options = LayoutOptions()
        return { i in (try? TextLayout.encodeText(texts[i % texts.count], options: options))?.rowCount ?? 0 }
    case "frame": return cascadeFrames(whole: false)
    case "frame-whole": return cascadeFrames(whole: true)
    case "nothing": return { $0 }
    default: return nil
    }
}

/// Every module one flap past home: each travels 65 flaps, the longest way.
func worstPlan(_ size: BoardSize) -> (Int) -> Int {
    let planner = try! FlipPlanner()
    let from = Board(size: size, fill: (CharacterCode(1) ?? .blank))
    let to = Board(size: size)
    return { _ in (try? planner.plan(from: from, to: to))?.clackEvents.count ?? 0 }
}

/// The frames of a cascade of the whole 6×22 board on a 1280×720 screen, one after another; the
/// first (the whole screen) drawn before counting starts.
func cascadeFrames(whole: Bool) -> (Int) -> Int {
    let planner = try! FlipPlanner(motion: .shortestWay)
    let plan = try! planner.plan(
        from: Board(size: .flagship, fill: (CharacterCode(1) ?? .blank)), to: Board(size: .flagship, fill: (CharacterCode(36) ?? .blank)))
    let times = FlipAnimation.frameTimes(duration: plan.duration, framesPerSecond: 60)
    var drawing = BoardFrame(renderer: try! BoardRenderer(size: .flagship, width: 1280, height: 720, style: .screen))
    _ = drawing.draw(plan, at: times[0])
    guard !whole else {
        let renderer = drawing.renderer
        return { i in
            var frame = PixelFrame(width: 1280, height: 720)
            renderer.draw(plan, at: times[1 + i % (times.count - 1)], into: &frame)
            return Int(frame[640, 360].red)
        }
    }
    return { i in drawing.draw(plan, at: times[1 + i % (times.count - 1)]).count }
}

let arguments = CommandLine.arguments
let name = arguments.count > 1 ? arguments[1] : "nothing"
let times = arguments.count > 2 ? Int(arguments[2]) ?? 1 : 1
guard let run = workload(name) else {
    FileHandle.standardError.write(Data("unknown workload \(name): plan-6x22, plan-24x88, layout, frame, frame-whole or nothing\n".utf8))
    exit(2)
}
var sink = 0
for i in 0..<times { sink &+= run(i) }
print("\(name) × \(times): checksum \(sink % 1000)")
