import Foundation
import TestSupport
import Testing

@testable import FlapTOML

/// flapd's TOML reader against Python's tomllib (the standard library's, an independent reader):
/// the same values for valid documents, a refusal with a line for invalid ones.
@Suite struct TOMLParserTests {
    static let valid = [
        #"""
        # A comment
        title = "TOML \"example\" \u00E9 \t"
        literal = 'C:\Users\nodejs\templates'
        integers = [ +99, 42, 0, -17, 1_000, 0xDEAD_beef, 0o755, 0b1101 ]
        floats = [ 1.0, 3.1415, -0.01, 5e+22, 1e06, -2E-2, 6.626e-34, 224_617.445_991 ]
        bools = [true, false]
        nested = [ [ 1, 2 ], ["a", 'b'], [ [], {} ] ]
        multi = """
        Roses are red
          Violets are blue\
            joined"""
        raw = '''
        first line
        second 'quoted' line'''
        "quoted key" = 1
        'literal key' = 2
        dotted.key.here = "d"
        site."google.com" = true
        bare-key_1 = 3
        """#,
        """
        [owner]
        name = "Tom"

        [database]
        ports = [ 8000,
            8001, # a comment inside an array
            8002,
        ]
        data = [ ["delta", "phi"], [3.14] ]
        temp_targets = { cpu = 79.5, case = 72.0 }

        [servers.alpha]
        ip = "10.0.0.1"
        [servers.beta]
        ip = "10.0.0.2"

        [[products]]
        name = "Hammer"
        sku = 738594937
        [[products]]
        [[products]]
        name = "Nail"
        color = "gray"
        [products.details]
        size = 3

        [[fruits]]
        name = "apple"
        [fruits.physical]
        color = "red"
        [[fruits.varieties]]
        name = "red delicious"
        [[fruits.varieties]]
        name = "granny smith"
        [[fruits]]
        name = "banana"
        [[fruits.varieties]]
        name = "plantain"
        """,
        """
        point = { x = 1, y = 2, z.w = "inline dotted" }
        empty = {}
        [a.b.c]
        d = 1
        [a]
        e = 2
        """
    ]

    static let invalid = [
        "key = ",
        "key = value",
        "= 1",
        "a = 1\na = 2",
        "[t]\n[t]",
        "x = \"unclosed",
        "x = 1 y = 2",
        "x = [1, 2",
        "x = 01",
        "x = 1__0",
        "x = \"\\q\"",
        "a = 1\n[a]",
        "[[x]]\n[x]",
        "x = True",
        "x = { a = 1, a = 2 }"
    ]

    @Test(arguments: valid) func validDocumentsReadAsTomllibReadsThem(_ document: String) async throws {
        let ours = try TOMLParser.parse(document)
        let theirs = try await Self.tomllib(document)
        #expect(Self.canonical(.table(ours)) == theirs)
    }

    @Test(arguments: invalid) func invalidDocumentsAreRefusedWithALine(_ document: String) async throws {
        #expect(try await Self.tomllib(document) == "invalid", "tomllib accepts \(document.debugDescription)")
        do {
            _ = try TOMLParser.parse(document)
            Issue.record("\(document.debugDescription) was accepted")
        } catch {
            #expect(error.line >= 1 && error.column >= 1 && !error.message.isEmpty)
        }
    }

    /// Arrays nested 100 000 deep (200 KB) recursed off the end of the stack: past 64 they are
    /// refused where they go too deep.
    @Test func nestingPastSixtyFourIsRefusedNotACrash() throws {
        let deep = "x = " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: TOMLSyntaxError.self) { try TOMLParser.parse(deep) }
        do { _ = try TOMLParser.parse(deep) } catch {
            #expect(error.line == 1 && error.column == 69 && error.message.contains("nest more than 64 deep"), "\(error)")
        }
        let fine = "x = " + String(repeating: "[", count: 64) + "1" + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try TOMLParser.parse(fine) }
    }

    /// A configuration written on Windows (CRLF) names its keys' lines as one written on Linux.
    @Test func crlfFilesHaveTheirLinesToo() {
        let index = TOMLLineIndex("listen = \"0.0.0.0\"\r\n\r\n[api]\r\nport = 8080\r\n")
        #expect(index.line(of: "api.port") == 4 && index.line(of: "listen") == 1)
    }

    @Test func theExampleConfigurationReadsAsTomllibReadsIt() async throws {
        let text = try String(contentsOf: PythonPeer.packageRoot.appendingPathComponent("flapd.example.toml"), encoding: .utf8)
        #expect(Self.canonical(.table(try TOMLParser.parse(text))) == (try await Self.tomllib(text)))
    }

    @Test func anErrorSaysTheLineAndColumn() {
        #expect(throws: TOMLSyntaxError(line: 3, column: 7, message: "oops is not a value: strings are written in quotes (\"oops\")")) {
            try TOMLParser.parse("a = 1\n# two\nb = [ oops ]")
        }
    }

    /// tomllib's reading of `document` as canonical JSON, or "invalid".
    static func tomllib(_ document: String) async throws -> String {
        let script = """
            import json, math, sys, tomllib
            def plain(v):
                if isinstance(v, dict): return {k: plain(x) for k, x in v.items()}
                if isinstance(v, list): return [plain(x) for x in v]
                if isinstance(v, float) and (math.isinf(v) or math.isnan(v)): return str(v)
                if isinstance(v, float): return {"float": repr(v)}
                if isinstance(v, bool) or isinstance(v, int) or isinstance(v, str): return v
                return {"date": v.isoformat()}
            try:
                doc = tomllib.loads(sys.stdin.read())
            except tomllib.TOMLDecodeError:
                print("invalid"); sys.exit(0)
            print(json.dumps(plain(doc), sort_keys=True, separators=(",", ":"), ensure_ascii=False))
            """
        let result = try await ProcessRunner.run("/usr/bin/python3", ["-c", script], input: Data(document.utf8))
        return result.stdoutText.trimmingCharacters(in: .newlines)
    }

    /// Our reading in the same canonical JSON.
    static func canonical(_ value: TOMLValue) -> String {
        func quoted(_ text: String) -> String {
            String(decoding: try! JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes]), as: UTF8.self).dropFirst()
                .dropLast().description
        }
        switch value {
        case .string(let text): return quoted(text)
        case .integer(let number): return String(number)
        case .float(let number) where number.isNaN: return quoted("nan")
        case .float(let number) where number.isInfinite: return quoted(number > 0 ? "inf" : "-inf")
        case .float(let number): return "{\"float\":\(quoted(Self.pythonRepr(number)))}"
        case .bool(let flag): return flag ? "true" : "false"
        case .dateTime(let text): return "{\"date\":\(quoted(Self.pythonISO(text)))}"
        case .array(let elements): return "[" + elements.map(canonical).joined(separator: ",") + "]"
        case .table(let table):
            return "{" + table.keys.sorted().map { quoted($0) + ":" + canonical(table[$0]!) }.joined(separator: ",") + "}"
        }
    }

    /// A date or time as Python's isoformat writes what tomllib read: `T` between date and time,
    /// microseconds (six digits, the rest cut; none when zero), `+00:00` for `Z` and `-00:00`.
    static func pythonISO(_ written: String) -> String {
        var text = Array(written)
        if text.count > 10, text[4] == "-" { text[10] = "T" }
        var result = String(text)
        var offset = ""
        if let last = result.last, last == "Z" || last == "z" {
            result.removeLast()
            offset = "+00:00"
        } else if result.count > 6, result.contains(":"), let sign = result.dropLast(5).last, sign == "+" || sign == "-", result.count > 19 {
            offset = String(result.suffix(6))
            result.removeLast(6)
            if offset == "-00:00" { offset = "+00:00" }
        }
        if let dot = result.firstIndex(of: ".") {
            let digits = String(result[result.index(after: dot)...].prefix(6))
            let micros = digits.padding(toLength: 6, withPad: "0", startingAt: 0)
            result = String(result[..<dot]) + (Int(micros) == 0 ? "" : "." + micros)
        }
        return result + offset
    }

    /// A float as Python's repr writes it (1.0, 5e+22, 6.626e-34).
    static func pythonRepr(_ number: Double) -> String {
        let text = "\(number)"
        if text.contains("e") {
            let parts = text.split(separator: "e")
            var mantissa = String(parts[0])
            if mantissa.hasSuffix(".0") { mantissa.removeLast(2) }
            let exponent = Int(parts[1])!
            return mantissa + "e" + (exponent < 0 ? "-" : "+") + (abs(exponent) < 10 ? "0" : "") + String(abs(exponent))
        }
        return text
    }
}
