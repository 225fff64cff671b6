import FlapJSON
import Logging

extension MessageIntake {
    /// Sends a message flapd's own automation makes (a schedule's, a trigger's): a quick
    /// message's kept fields filled in under those given, its text's `{{name}}` filled from the
    /// board's date and time and the sources' values, and its outcome logged naming the
    /// `kind` and `name` that sent it. Whether it was taken (a copy counts as taken).
    public func sendAutomated(
        _ fields: [String: JSONValue], quickMessage: String?, source: MessageSource, sender: String,
        kind: String, name: String, logger: Logger
    ) async -> Bool {
        var fields = fields
        if let quickMessage {
            guard let kept = (try? await inbox.template(quickMessage))??.fields else {
                logger.error("a \(kind) names a quick message that does not exist", metadata: [kind: "\(name)", "quickMessage": "\(quickMessage)"])
                return false
            }
            for key in QuickMessage.keptFields where fields[key] == nil { fields[key] = kept[key] }
        }
        do {
            switch try await submit(fields: fields, source: source, defaultSender: sender, placeholders: [:]) {
            case .accepted(let receipt, _):
                logger.info("\(kind) fired", metadata: [kind: "\(name)", "message": "\(receipt.id)"])
                return true
            case .duplicate, .replayed, .keyReused:
                return true
            case .invalid(let errors):
                logger.error("a \(kind)'s message cannot be shown", metadata: [kind: "\(name)", "problems": "\(errors)"])
            case .refused(let reason):
                logger.warning("a \(kind)'s message was refused", metadata: [kind: "\(name)", "reason": "\(reason)"])
            case .rateLimited:
                logger.warning("a \(kind)'s message was over its sender's rate", metadata: [kind: "\(name)"])
            }
        } catch {
            logger.error("could not commit a \(kind)'s message", metadata: [kind: "\(name)", "error": "\(error)"])
        }
        return false
    }
}
