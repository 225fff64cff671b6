import FlapMessaging
import FlapMetrics

extension FlapMetrics {
    /// Counts one of the intake's verdicts, labelled as `/metrics` has always labelled them.
    func count(_ verdict: IntakeVerdict) {
        switch verdict {
        case .accepted(let id, let source): accepted(id: id, source: source.rawValue)
        case .rejected(let source, let reason): rejected(source: source.rawValue, reason: reason.rawValue)
        }
    }
}
