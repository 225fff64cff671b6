import FlapCore
import FlapEndpoints
import Hummingbird

/// `GET /v1/emoji`: the emoji and symbols the board draws as its nearest rendition (a tile,
/// several tiles, a few characters), for the page's emoji picker and for anyone asking.
struct EmojiAPI: RouteGroup {
    func add(to v1: AccessRoutes) {
        v1.on(.emoji, .household) { _, _ in Answer(["emoji": Self.table]) }
    }

    struct Entry: Encodable {
        var emoji: String
        var name: String
        /// The rendition as characters, each tile as its colour in brackets: `:)[red]`.
        var shownAs: String
        var codes: [Int]
    }

    static let table = EmojiTable.entries.map {
        Entry(emoji: $0.emoji, name: $0.name, shownAs: $0.inWords, codes: $0.codes.map { Int($0.rawValue) })
    }
}
