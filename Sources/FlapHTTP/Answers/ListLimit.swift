import Hummingbird

/// `?limit=N` on the routes that list (receipts, the Vestaboard queue).
enum ListLimit {
    /// The `limit` asked for, the default when none; refused unless a whole number from 1 to `maximum`.
    static func of(_ request: Request, default: Int, maximum: Int) throws(APIError) -> Int {
        guard let text = request.uri.queryParameters["limit"] else { return `default` }
        guard let limit = Int(text), (1...maximum).contains(limit) else {
            throw APIError(.badRequest, "limit: must be a whole number from 1 to \(maximum), not \(String(text).debugDescription)")
        }
        return limit
    }
}
