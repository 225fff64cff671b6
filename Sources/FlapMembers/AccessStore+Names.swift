import FlapPrimitives

/// The rules of what people are called in the household.
extension AccessStore {
    /// The rules of a member's name (``ShownName``).
    static func nameProblem(_ name: String) -> String? {
        if name.isEmpty { return "give the member's name (\"Mum\")" }
        return ShownName.problem(name)
    }

    /// The rules of a message's sender id.
    static func senderProblem(_ sender: String) -> String? {
        if sender.isEmpty || sender.count > 64 { return "1 to 64 characters, not \(sender.count)" }
        if let bad = sender.first(where: { "/+#".contains($0) }) { return "\"\(bad)\" cannot be in a sender id" }
        if let problem = InvisibleCharacters.problem(in: sender) { return problem }
        return nil
    }
}
