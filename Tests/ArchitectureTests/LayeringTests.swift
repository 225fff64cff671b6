import Foundation
import Testing

/// docs/architecture.md's import table is the rule for the layers: Package.swift gives each
/// module exactly the project modules its row lists, and no source file imports another.
@Suite struct LayeringTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func packageDependenciesAreTheTablesRows() throws {
        let table = try Self.table()
        let package = try Self.packageDependencies()
        #expect(Set(table.keys) == Set(package.keys), "modules in the table and in Package.swift differ")
        for (module, allowed) in table.sorted(by: { $0.key < $1.key }) {
            guard let declared = package[module] else { continue }
            #expect(
                declared == allowed,
                """
                \(module): Package.swift depends on \(declared.subtracting(allowed).sorted()) beyond the table, \
                and the table lists \(allowed.subtracting(declared).sorted()) that Package.swift does not
                """)
        }
    }

    @Test func noSourceImportsWhatItsLayerMayNot() throws {
        let table = try Self.table()
        let modules = Set(table.keys)
        for (module, folder) in Self.folders(of: table.keys) {
            for (file, imported) in try Self.imports(in: folder) {
                for name in imported where modules.contains(name) && name != module {
                    #expect(
                        table[module]?.contains(name) == true,
                        "\(file) imports \(name), which \(module)'s row in docs/architecture.md does not list")
                }
            }
        }
    }

    /// A module imported from another package must be a product the target names in
    /// Package.swift: otherwise it comes in only because another dependency happens to bring it,
    /// and leaves (or breaks the build) when that one changes.
    @Test func everyPackageImportIsADeclaredProduct() throws {
        let table = try Self.table()
        let products = try Self.packageProducts()
        for (module, folder) in Self.folders(of: table.keys) {
            let declared = products[module] ?? []
            for (file, imported) in try Self.imports(in: folder) {
                for name in imported where table[name] == nil && !Self.platformModules.contains(name) {
                    #expect(declared.contains(name), "\(file) imports \(name), which \(module) does not name as a product in Package.swift")
                }
            }
        }
    }

    /// What the toolchain and the system give every module.
    static let platformModules: Set<String> = ["Foundation", "FoundationEssentials", "Glibc", "Darwin", "Synchronization", "Dispatch", "_Concurrency"]

    @Test func theRulesParserReadsWhatItShould() throws {
        let package = try Self.packageDependencies()
        #expect(package["FlapPrimitives"] == [])
        #expect(package["FlapMessaging"] == ["FlapJSON", "FlapCore", "FlapPrimitives", "FlapStorage", "FlapVBML"])
        #expect(package["FlapStorage"] == ["CSQLite", "COnDemand"], "a product (swift-log) is not a project module")
        #expect(try Self.packageProducts()["FlapStorage"] == ["Logging"])
    }

    /// Module → the project modules it may import, from the table's rows.
    static func table() throws -> [String: Set<String>] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let section = text.components(separatedBy: "## The modules, and what each may import")[1]
        var rules: [String: Set<String>] = [:]
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { continue }
            let imports = Set(names(in: cells[3]))
            // The first cell names the module (and, for executables, its folder in parentheses).
            for module in names(in: cells[1].components(separatedBy: "(")[0]) { rules[module] = imports }
        }
        return rules
    }

    /// The names in backticks in `cell`.
    static func names(in cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// Each non-test target of Package.swift → the products of other packages it depends on.
    static func packageProducts() throws -> [String: Set<String>] {
        try targets().mapValues { body in
            var names = Set<String>()
            var rest = body[...]
            while let product = rest.range(of: ".product(") {
                let inside = balanced(rest[product.upperBound...])
                if let name = firstString(after: "name:", in: inside) { names.insert(name) }
                rest = rest[product.upperBound...]
            }
            return names
        }
    }

    /// Each non-test target of Package.swift → the targets (not products) it depends on.
    static func packageDependencies() throws -> [String: Set<String>] {
        try targets().mapValues { body in
            guard let list = body.range(of: "dependencies:") else { return [] }
            let inside = balanced(body[list.upperBound...].drop { $0 != "[" }.dropFirst(), open: "[", close: "]")
            var withoutProducts = inside
            while let product = withoutProducts.range(of: ".product(") {
                let skipped = balanced(withoutProducts[product.upperBound...])
                withoutProducts.removeSubrange(product.lowerBound..<withoutProducts.index(product.upperBound, offsetBy: skipped.count + 1))
            }
            return Set(
                withoutProducts.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
                    .filter { $0.offset % 2 == 1 }.map { String($0.element) })
        }
    }

    /// Each non-test target of Package.swift → the text of its declaration.
    static func targets() throws -> [String: String] {
        var text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        text = text.split(separator: "\n").map { $0.components(separatedBy: "//")[0] }.joined(separator: "\n")
        var result: [String: String] = [:]
        for kind in [".target(", ".executableTarget(", ".systemLibrary("] {
            var rest = text[...]
            while let start = rest.range(of: kind) {
                let body = balanced(rest[start.upperBound...])
                rest = rest[start.upperBound...]
                // Helpers for the tests (Tests/TestSupport) are not layers of the product.
                guard let name = firstString(after: "name:", in: body), !body.contains("path: \"Tests/") else { continue }
                result[name] = body
            }
        }
        return result
    }

    /// The text up to the bracket that closes the one just before `text`.
    static func balanced(_ text: Substring, open: Character = "(", close: Character = ")") -> String {
        var depth = 1
        var end = text.startIndex
        while end < text.endIndex {
            if text[end] == open { depth += 1 }
            if text[end] == close { depth -= 1; if depth == 0 { break } }
            end = text.index(after: end)
        }
        return String(text[..<end])
    }

    static func firstString(after label: String, in text: String) -> String? {
        guard let range = text.range(of: label) else { return nil }
        let parts = text[range.upperBound...].split(separator: "\"", maxSplits: 2, omittingEmptySubsequences: false)
        return parts.count >= 2 ? String(parts[1]) : nil
    }

    /// Where each module's sources are: Sources/NAME, or the folder its row names in parentheses.
    static func folders(of modules: some Sequence<String>) -> [(String, URL)] {
        modules.compactMap { module in
            let folder = [
                "Sources/\(module)", module == "flapbench" ? "Benchmarks/flapbench" : "",
                module == "instruction-counts" ? "Benchmarks/InstructionCounts" : ""
            ]
            .filter { !$0.isEmpty }.map { root.appendingPathComponent($0) }
            .first { FileManager.default.fileExists(atPath: $0.path) }
            return folder.map { (module, $0) }
        }
    }

    /// Each Swift file under `folder` → the modules it imports.
    static func imports(in folder: URL) throws -> [(String, [String])] {
        let files =
            FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" } ?? []
        return try files.map { file in
            // The imports are at the top: a line like `import time` further down is in a string.
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                .prefix { line in
                    let text = line.trimmingCharacters(in: .whitespaces)
                    return text.isEmpty || text.hasPrefix("//") || text.hasPrefix("#") || text.hasPrefix("@") || text.contains("import ")
                }
            let imported = lines.compactMap { line -> String? in
                let words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
                guard
                    words.first == "import"
                        || (words.first.map { ["public", "package", "internal"].contains($0) } == true && words.dropFirst().first == "import"),
                    let name = words.last
                else { return nil }
                return String(name)
            }
            return (file.path.replacingOccurrences(of: root.path + "/", with: ""), imported)
        }
    }
}
