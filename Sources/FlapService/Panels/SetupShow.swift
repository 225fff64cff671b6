import FlapCore
import FlapDisplay
import FlapSetup
import FlapTime
import Logging
import Synchronization

/// Until someone claims the board, each panel shows its setup code in place of messages. Reading
/// it off the board is the proof of being in front of it, so no answer may carry it: while the
/// code is shown the panel is veiled, and the APIs report it blank. Once claimed, the panel goes
/// blank still veiled (so the first message's plan does not start from the code), and then shows
/// messages as before.
struct SetupShow: Sendable {
    let claim: BoardClaim<ApplianceClock>

    /// Shows each code as the board gets it until the board is claimed, or until cancelled.
    func show(on stage: PanelStage, veil: PanelVeil) async {
        var codes = claim.codes().makeAsyncIterator()
        var code: SetupCode? = try? await claim.code()
        guard code != nil else { return }
        veil.isOn = true
        while let shown = code, !Task.isCancelled {
            do { try await stage.motion.show(Self.board(for: shown, size: stage.size), token: nil) } catch {
                stage.logger.warning("the setup code cannot be shown on this panel", metadata: ["problem": "\(error)"])
            }
            guard let next = await codes.next() else { return }
            code = next
        }
        guard !Task.isCancelled else { return }
        try? await stage.motion.show(Board(size: stage.size), token: nil)
        while await stage.motion.isMoving, !Task.isCancelled { try? await stage.clock.sleep(for: .milliseconds(100)) }
        veil.isOn = false
    }

    /// The code as the panel shows it: with words when they fit, the digits alone on a small one.
    static func board(for code: SetupCode, size: BoardSize) -> Board {
        let spaced = "\(code)"
        let candidates = [
            "SET UP THIS BOARD\nFROM A PHONE:\nOPEN ITS PAGE AND\nTYPE THIS CODE\n\n\(spaced)",
            "SETUP CODE\n\(spaced)", spaced, code.digits
        ]
        var options = LayoutOptions(size: size)
        options.align = .center
        options.valign = .middle
        for text in candidates {
            guard let laid = try? TextLayout.encodeText(text, options: options), laid.warnings.isEmpty,
                let board = try? Board(size: size, codes: laid.codes)
            else { continue }
            return board
        }
        return Board(size: size)
    }
}

/// Whether a panel's board is kept from the APIs (while it shows the setup code).
final class PanelVeil: Sendable {
    private let state = Mutex(false)

    var isOn: Bool {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}
