/// What common emoji and symbols from a phone's keyboard become on the board: a colour tile,
/// several tiles, or a few characters (`:)`), each the nearest rendition the flaps have. The
/// table is the documentation too: `docs/emoji.md` lists it, and the web page offers it.
public enum EmojiTable {
    /// One emoji and what the board shows for it.
    public struct Entry: Sendable, Equatable {
        /// The emoji as a phone sends it (with its presentation selector, where it has one).
        public var emoji: String
        /// What it is, in words, for the page's button and for screen readers.
        public var name: String
        /// What the board shows: text with `{nn}` code escapes.
        public var shownAs: String

        /// The codes it becomes.
        public var codes: [CharacterCode] {
            // The entries are checked by a test: every one encodes.
            (try? TextLayout.encode(shownAs, substitutions: false).codes) ?? []
        }

        /// What it becomes, for people: characters as they are, each tile as its colour in
        /// brackets (`:)[red]`).
        public var inWords: String {
            codes.map { code in code.colour.map { "[\($0.name)]" } ?? code.character.map(String.init) ?? "?" }.joined()
        }

        /// The scalar the table is looked up by (the first; a selector after it is consumed).
        var key: Unicode.Scalar { emoji.unicodeScalars.first ?? " " }
    }

    /// The red heart on a Vestaboard Note, whose code 62 is a heart (on a flagship it is °).
    public static let noteHeart = CharacterCode(unchecked: 62)

    /// The red heart, which a Note shows as its own heart flap.
    public static let redHeart: Unicode.Scalar = "\u{2764}"

    /// The hearts a Note shows as its heart flap, as VBML does there: the red one and its colour
    /// variants (🧡 💛 💚 💙 💜 🖤 🤍 🤎), and the card suit's ♥.
    public static let noteHearts: Set<Unicode.Scalar> = [
        redHeart, "\u{1F9E1}", "\u{1F49B}", "\u{1F49A}", "\u{1F499}", "\u{1F49C}", "\u{1F5A4}", "\u{1F90D}", "\u{1F90E}", "\u{2665}"
    ]

    private static func entry(_ emoji: String, _ name: String, _ shownAs: String) -> Entry {
        Entry(emoji: emoji, name: name, shownAs: shownAs)
    }

    /// Every emoji the board draws, in the order the page and docs/emoji.md list them.
    public static let entries: [Entry] = [
        // Hearts and chips: a tile of their colour.
        entry("❤️", "red heart", "{63}"), entry("♥", "heart suit", "{63}"), entry("🧡", "orange heart", "{64}"), entry("💛", "yellow heart", "{65}"),
        entry("💚", "green heart", "{66}"), entry("💙", "blue heart", "{67}"), entry("💜", "purple heart", "{68}"),
        entry("🤍", "white heart", "{69}"), entry("🖤", "black heart", "{70}"), entry("🤎", "brown heart", "{64}"),
        entry("🩷", "pink heart", "{63}"), entry("💕", "two hearts", "{63}{63}"), entry("💖", "sparkling heart", "{63}"),
        entry("🟥", "red square", "{63}"), entry("🟧", "orange square", "{64}"), entry("🟨", "yellow square", "{65}"),
        entry("🟩", "green square", "{66}"), entry("🟦", "blue square", "{67}"), entry("🟪", "purple square", "{68}"),
        entry("⬜", "white square", "{69}"), entry("⬛", "black square", "{70}"), entry("🟫", "brown square", "{64}"),
        entry("🔴", "red circle", "{63}"), entry("🟠", "orange circle", "{64}"), entry("🟡", "yellow circle", "{65}"),
        entry("🟢", "green circle", "{66}"), entry("🔵", "blue circle", "{67}"), entry("🟣", "purple circle", "{68}"),
        entry("⚪", "white circle", "{69}"), entry("⚫", "black circle", "{70}"), entry("🟤", "brown circle", "{64}"),
        // Faces: as people typed them before emoji.
        entry("😊", "smiling face", ":)"), entry("🙂", "slightly smiling face", ":)"), entry("😀", "grinning face", ":D"),
        entry("😃", "big smile", ":D"), entry("😄", "smiling eyes", ":D"), entry("😁", "beaming face", ":D"),
        entry("😆", "laughing face", "XD"), entry("😂", "tears of joy", "LOL"), entry("🤣", "rolling on the floor laughing", "LOL"),
        entry("😉", "winking face", ";)"), entry("😛", "tongue out", ":P"), entry("😜", "winking with tongue", ";P"),
        entry("😇", "halo", "O:)"), entry("😎", "sunglasses", "B)"), entry("😮", "open mouth", ":O"),
        entry("😲", "astonished face", ":O"), entry("😢", "crying face", ":("), entry("😭", "loudly crying face", ":("),
        entry("🙁", "frowning face", ":("), entry("☹️", "frowning face", ":("), entry("😞", "disappointed face", ":("),
        entry("😍", "heart eyes", "{63}{63}"), entry("🥰", "smiling with hearts", ":){63}"), entry("😘", "blowing a kiss", ":{63}"),
        entry("🤔", "thinking face", "HMM"), entry("😴", "sleeping face", "ZZZ"), entry("😡", "angry face", "GRR"),
        entry("🥳", "party face", "YAY"), entry("🤗", "hugging face", "HUG"),
        // Hands.
        entry("👍", "thumbs up", "OK"), entry("👎", "thumbs down", "NO"), entry("👌", "OK hand", "OK"),
        entry("👋", "waving hand", "HI"), entry("👏", "clapping hands", "BRAVO"), entry("🙏", "folded hands", "THANKS"),
        entry("✌️", "victory hand", "V"),
        // Celebrations.
        entry("🎉", "party popper", "{65}{68}{66}"), entry("🎊", "confetti ball", "{63}{65}{67}"), entry("🎈", "balloon", "{63}"),
        entry("🎁", "gift", "GIFT"), entry("🎂", "birthday cake", "CAKE"), entry("🎄", "Christmas tree", "{66}"),
        entry("🎃", "jack-o-lantern", "{64}"),
        // Sky and nature.
        entry("⭐", "star", "{65}"), entry("🌟", "glowing star", "{65}"), entry("✨", "sparkles", "{65}"),
        entry("🔥", "fire", "{64}{63}"), entry("☀️", "sun", "{65}"), entry("🌞", "sun with face", "{65}"),
        entry("🌙", "crescent moon", "{69}"), entry("☁️", "cloud", "{69}"), entry("🌧️", "rain", "{67}"),
        entry("❄️", "snowflake", "{69}"), entry("⚡", "lightning", "{65}"), entry("🌈", "rainbow", "{63}{64}{65}{66}{67}{68}"),
        entry("🍀", "four-leaf clover", "{66}"), entry("🌹", "rose", "{63}"), entry("🌻", "sunflower", "{65}"),
        // Food and drink.
        entry("☕", "hot drink", "COFFEE"), entry("🍕", "pizza", "PIZZA"), entry("🍔", "burger", "BURGER"),
        entry("🍺", "beer", "BEER"), entry("🍷", "wine", "WINE"), entry("🍎", "red apple", "{63}"), entry("🍌", "banana", "{65}"),
        // Home and about.
        entry("🏠", "house", "HOME"), entry("🏡", "house with garden", "HOME"), entry("🚗", "car", "CAR"),
        entry("🚌", "bus", "BUS"), entry("🚲", "bicycle", "BIKE"), entry("✈️", "airplane", "PLANE"),
        entry("🐶", "dog", "DOG"), entry("🐱", "cat", "CAT"), entry("🔑", "key", "KEY"), entry("📦", "parcel", "PARCEL"),
        entry("📞", "telephone", "CALL"), entry("🛒", "shopping cart", "SHOP"), entry("💡", "light bulb", "{65}"),
        // Signs.
        entry("✅", "check mark button", "{66}"), entry("✔️", "check mark", "{66}"), entry("☑️", "ballot box with check", "{66}"),
        entry("❌", "cross mark", "{63}"), entry("❎", "cross mark button", "{63}"), entry("✖️", "multiply", "X"),
        entry("⚠️", "warning", "(!)"), entry("❗", "exclamation mark", "!"), entry("❕", "white exclamation mark", "!"),
        entry("❓", "question mark", "?"), entry("❔", "white question mark", "?"), entry("‼️", "double exclamation mark", "!!"),
        entry("⁉️", "exclamation question mark", "!?"), entry("💯", "hundred points", "100"), entry("➕", "plus", "+"),
        entry("➖", "minus", "-"), entry("➗", "divide", "/"), entry("©️", "copyright", "(C)"), entry("®️", "registered", "(R)")
    ]

    /// The entries by the scalar that starts each.
    static let byKey: [Unicode.Scalar: Entry] = Dictionary(entries.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
}
