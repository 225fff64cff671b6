extension String {
    /// The text with each character that `escapes` names replaced by its escape (XML's five,
    /// mustache.js's eight), the rest as they are.
    public func escaping(_ escapes: [Character: String]) -> String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for character in self {
            if let escape = escapes[character] { result += escape } else { result.append(character) }
        }
        return result
    }
}
