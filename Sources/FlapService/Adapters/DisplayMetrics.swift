import FlapCore
import FlapMetrics

extension FlapMetrics {
    /// A panel's plans and displayed boards, counted as they happen.
    @Sendable func take(_ event: PanelEvent) {
        switch event {
        case .planStarted(_, let messageId, _): planStarted(messageId: messageId)
        case .displayed(let panel, _, let messageId, let flaps): displayed(messageId: messageId, panel: panel, flaps: flaps)
        case .resting, .planPlaying: break
        }
    }
}
