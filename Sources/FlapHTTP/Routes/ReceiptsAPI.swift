import FlapEndpoints
import FlapMessaging
import Hummingbird

/// `/v1/receipts`: what became of each message, newest first (all, or one sender's), or of one by its id.
struct ReceiptsAPI: RouteGroup {
    let inbox: Inbox

    func add(to v1: AccessRoutes) {
        v1.on(.receipts, .household) { request, context in
            let limit = try ListLimit.of(request, default: 20, maximum: 500)
            var sender: String? = request.uri.queryParameters.get("sender").map { String($0) }
            if let sender, !(1...64).contains(sender.count) {
                throw APIError(.badRequest, "sender: a sender id is 1 to 64 characters")
            }
            if let member = context.member {
                if let sender, sender != member.sender {
                    throw APIError(.forbidden, "a member reads only their own receipts (sender \(member.sender))")
                }
                sender = member.sender
            }
            return Answer(["receipts": try await inbox.recentReceipts(limit: limit, sender: sender)])
        }
        v1.on(.receipt, .household) { request, context in
            let id = context.parameter("id")
            // Another sender's message is, to a member, no message at all.
            let found = if let member = context.member { try await inbox.receipt(id: id, of: member.sender) } else { try await inbox.receipt(id: id) }
            guard let receipt = found else { throw APIError(.notFound, "no message with id \(id)") }
            return Answer(receipt)
        }
    }
}
