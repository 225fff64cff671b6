import FlapMessaging

/// Which message a panel shows (docs/messages.md). When the chosen slot expires or is cleared, the
/// policy picks again: `latest` falls back to the newest remaining slot, `sender` clears the
/// board, `rotate` drops it from the rotation. With no message at all the board is blank.
/// `kiosk` shows no message: the room takes the panel. A temporary message covers the choice
/// while it lasts.
public enum PanelPolicy: Sendable, Equatable {
    /// The newest message of any sender.
    case latest
    /// Only this sender's message.
    case sender(String)
    /// Each live slot in turn, for this long each (oldest slot first).
    case rotate(every: Duration)
    /// The Wematch room instead of messages: its plot on pixels, its summary in flaps.
    case kiosk

    /// The message to show from `slots` (oldest first); `previous` is the id shown before, and
    /// `rotationDue` says the rotation period has passed. A temporary message shows over the
    /// rest while it lasts (on a `sender` panel, only that sender's), and what it covered comes
    /// back when it ends.
    func choose(from slots: [Message], previous: String?, rotationDue: Bool) -> Message? {
        let persistent = slots.filter { $0.duration == nil }
        if let temporary = slots.last(where: { $0.duration != nil }), shows(temporary) { return temporary }
        return choosePersistent(from: persistent, previous: previous, rotationDue: rotationDue)
    }

    private func shows(_ temporary: Message) -> Bool {
        switch self {
        case .latest, .rotate: true
        case .sender(let sender): temporary.sender.id == sender
        case .kiosk: false
        }
    }

    private func choosePersistent(from slots: [Message], previous: String?, rotationDue: Bool) -> Message? {
        switch self {
        case .latest:
            return slots.max { $0.showsFrom < $1.showsFrom }
        case .sender(let sender):
            return slots.first { $0.sender.id == sender }
        case .kiosk:
            return nil
        case .rotate:
            guard !slots.isEmpty else { return nil }
            guard let previous, let index = slots.firstIndex(where: { $0.id == previous }) else {
                // The previous one is gone (or none yet): the slot that took its place, else the first.
                return slots.first
            }
            return rotationDue ? slots[(index + 1) % slots.count] : slots[index]
        }
    }
}
