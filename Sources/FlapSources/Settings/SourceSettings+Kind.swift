import FlapCore
import FlapJSON
import FoundationEssentials

/// What a source's kind does with its own options and documents. The settings pair a kind
/// with its `Kind.Options` when made, and its content holds the kind's `Document`: each call
/// opens the kind and hands it its own types, so no kind casts.
extension SourceSettings {
    /// What is wrong with its kind's options.
    var kindProblems: [(key: String, problem: String)] {
        func check<Kind: SourceKind>(_ kind: Kind) -> [(key: String, problem: String)] {
            options(of: kind).map(kind.problems) ?? []
        }
        return check(kind)
    }

    /// Reads a fetched body as its kind says; a body that cannot be read is a problem.
    func read(_ body: [UInt8]) throws(SourceProblem) -> SourceContent {
        func read<Kind: SourceKind>(_ kind: Kind) throws(SourceProblem) -> SourceContent {
            guard let options = options(of: kind) else { throw SourceProblem("its settings are not a \(kind.name) source's") }
            return SourceContent(try kind.read(body, options: options))
        }
        return try read(kind)
    }

    /// Its kind's values from `content` (nil: none usable), the missing ones as its placeholder.
    func values(_ content: SourceContent?, now: Date, zone: ZoneRules) -> [String: JSONValue] {
        func values<Kind: SourceKind>(_ kind: Kind) -> [String: JSONValue] {
            guard let options = options(of: kind) else { return [:] }
            return kind.values(content?.document as? Kind.Document, options: options, placeholder: placeholder, now: now, zone: zone)
        }
        return values(kind)
    }

    /// What its kind finds worth telling about `content`.
    func warnings(_ content: SourceContent) -> [String] {
        func warnings<Kind: SourceKind>(_ kind: Kind) -> [String] {
            guard let options = options(of: kind), let document = content.document as? Kind.Document else { return [] }
            return kind.warnings(document, options: options)
        }
        return warnings(kind)
    }

    /// The values a trigger may compare.
    var comparable: [String] {
        func comparable<Kind: SourceKind>(_ kind: Kind) -> [String] { options(of: kind).map(kind.comparable) ?? [] }
        return comparable(kind)
    }

    /// The values a push sets, checked by its kind; refused when the kind is fetched.
    func accept(_ body: JSONValue) throws(SourcePushError) -> [String: JSONValue] {
        guard let pushed = kind as? any PushedSourceKind else { throw .notWebhook(name) }
        func accept<Kind: PushedSourceKind>(_ kind: Kind) throws(SourcePushError) -> [String: JSONValue] {
            guard let options = options(of: kind) else { throw .notWebhook(name) }
            return try kind.accept(body, options: options)
        }
        return try accept(pushed)
    }

    /// The file of a pushed source's own key, if it has one.
    var pushKeyFile: String? {
        guard let pushed = kind as? any PushedSourceKind else { return nil }
        func keyFile<Kind: PushedSourceKind>(_ kind: Kind) -> String? { options(of: kind).flatMap(kind.keyFile) }
        return keyFile(pushed)
    }

    /// Whether `other` holds the same options (of the same kind).
    func sameOptions(as other: SourceSettings) -> Bool {
        func same<Kind: SourceKind>(_ kind: Kind) -> Bool {
            guard let mine = options(of: kind), let theirs = other.options as? Kind.Options else { return false }
            return mine == theirs
        }
        return same(kind)
    }

    /// Its options as `kind`'s own type: always, since they are made together.
    private func options<Kind: SourceKind>(of kind: Kind) -> Kind.Options? { options as? Kind.Options }
}
