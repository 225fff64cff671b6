import Hummingbird

/// `?limit=N` on the routes that list (receipts, the Vestaboard queue).
enum ListLimit {
    /// The `limit` asked for, the default when none; nil (refused) unless a whole number from 1 to `maximum`.
    static func of(_ request: Request, default: Int, maximum: Int) -> Int? {
        guard let text = request.uri.queryParameters["limit"] else { return `default` }
        return Int(text).flatMap { (1...maximum).contains($0) ? $0 : nil }
    }

    static func refusal(_ request: Request, maximum: Int) -> Response {
        let given = request.uri.queryParameters["limit"].map { String($0) } ?? ""
        return Responses.error(.badRequest, "limit: must be a whole number from 1 to \(maximum), not \(given.debugDescription)")
    }
}
