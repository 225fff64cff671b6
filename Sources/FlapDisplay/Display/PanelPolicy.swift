import FlapMessaging

/// Which message a panel shows (docs/messages.md). When the chosen slot expires or is cleared, the
/// policy picks again: `latest` falls back to the newest remaining slot, `sender` clears the
/// board, `rotate` drops it from the rotation. With no message at all the board is blank.
/// `kiosk` shows no message: the room takes the panel. A temporary message covers the choice
/// while it lasts; a person's message wins over a trigger's and a schedule's.
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
    /// `rotationDue` says the rotation period has passed. A person's message wins over a
    /// trigger's and a schedule's, a trigger's over a schedule's (docs/triggers.md):
    ///
    /// 1. a person's temporary message, while it lasts;
    /// 2. a person's persistent message: `latest` shows the newest person's message even when a
    ///    schedule's is newer; `rotate` takes every persistent message in turn, and a trigger
    ///    does not cover a rotation with a person's message in it;
    /// 3. a trigger's temporary message, while it lasts;
    /// 4. a schedule's message.
    ///
    /// What a temporary message covered comes back when it ends. On a `sender` panel only that
    /// sender's messages count.
    func choose(from slots: [Message], previous: String?, rotationDue: Bool) -> Message? {
        let persistent = slots.filter { $0.duration == nil }
        func temporary(_ priority: Message.Priority) -> Message? {
            slots.last { $0.duration != nil && $0.priority == priority }.flatMap { shows($0) ? $0 : nil }
        }
        if let personal = temporary(.person) { return personal }
        let people = persistent.filter { $0.priority == .person && counts($0) }
        if let trigger = temporary(.trigger), people.isEmpty { return trigger }
        if case .latest = self, !people.isEmpty { return choosePersistent(from: people, previous: previous, rotationDue: rotationDue) }
        return choosePersistent(from: persistent, previous: previous, rotationDue: rotationDue)
    }

    /// Whether this panel would show `message` at all.
    private func counts(_ message: Message) -> Bool {
        if case .sender(let sender) = self { return message.sender.id == sender }
        return self != .kiosk
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
