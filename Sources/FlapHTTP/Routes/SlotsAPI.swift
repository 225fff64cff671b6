import FlapCore
import FlapEndpoints
import FlapMessaging
import FoundationEssentials
import Hummingbird

/// `/v1/slots`: each sender's latest message and the temporary message (what the board chooses
/// from); a sender's slot cleared; the temporary message ended early.
struct SlotsAPI: RouteGroup {
    let intake: MessageIntake

    func add(to v1: AccessRoutes) {
        v1.on(.slots, .household) { _, _ in try await slots() }
        v1.on(.clearSlot, .household) { request, context in
            let sender = context.parameter("sender")
            if let member = context.member, member.sender != sender {
                throw APIError(.forbidden, "a member clears only their own slot (\(member.sender)), not \(sender)'s")
            }
            guard try await intake.inbox.clearSlot(sender, now: intake.now()) else {
                throw APIError(.notFound, "no message from sender \(sender)")
            }
            return Response(status: .noContent)
        }
        // The temporary message ended early (the door closed): the board goes back at once.
        v1.on(.endTemporary, .household) { request, context in
            // A person's covers a trigger's, so it is the one showing.
            let temporaries = try await intake.inbox.slots().filter { $0.duration != nil }
            guard let temporary = temporaries.first(where: { $0.priority == .person }) ?? temporaries.first else {
                throw APIError(.notFound, "no temporary message is showing")
            }
            if let member = context.member, member.sender != temporary.sender.id {
                throw APIError(.forbidden, "a member ends only their own temporary message, not \(temporary.sender.id)'s")
            }
            _ = try await intake.inbox.clearSlot(temporary.slotKey, now: intake.now())
            return Response(status: .noContent)
        }
    }

    /// One sender's slot as `GET /v1/slots` lists it.
    struct Slot: Encodable, Sendable {
        var sender: String; var senderName: String?; var id: String
        /// `text`, `codes` or `pattern`: what the sender sent (the text is the board's for the last two).
        var content: String; var text: [String]
        /// The board as the first panel would show it, so a view can draw it as the flaps do.
        var codes: [[Int]]
        var createdAt: Date; var expiresAt: Date; var source: MessageSource
        /// A temporary message's seconds: it covers the others until `expiresAt`.
        var duration: Int?
    }

    private func slots() async throws -> Answer<[String: [Slot]]> {
        let size = intake.boardSize
        let slots = try await intake.inbox.slots().map { message -> Slot in
            let text: [String], content: String
            switch message.content {
            case .text: content = "text"
            case .codes: content = "codes"
            case .pattern: content = "pattern"
            case .vbml: content = "vbml"
            }
            let board = (try? MessageRenderer(size: size, flap62: intake.flap62).board(for: message)) ?? Board(size: size, flap62: intake.flap62)
            if case .text(let t) = message.content {
                text = t.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
            } else {
                text = board.lines
            }
            return Slot(
                sender: message.sender.id, senderName: message.sender.name, id: message.id, content: content, text: text, codes: board.codeRows,
                createdAt: message.createdAt, expiresAt: message.expiresAt, source: message.source, duration: message.duration)
        }
        return Answer(["slots": slots])
    }
}
