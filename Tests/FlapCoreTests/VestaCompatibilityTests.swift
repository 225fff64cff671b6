import Foundation
import TestSupport
import Testing

@testable import FlapCore

/// Layout checked against the Python `vesta` library 0.15.0 itself, run as a peer process.
@Suite struct VestaCompatibilityTests {
    static func askVesta(_ requests: [VestaRequest]) async throws -> [VestaAnswer] {
        let encoder = JSONEncoder()
        var input = Data()
        for request in requests {
            input.append(try encoder.encode(request))
            input.append(0x0A)
        }
        let output = try await PythonPeer.runScript("vesta_oracle.py", input: input)
        let lines = output.split(separator: 0x0A)
        #expect(lines.count == requests.count)
        return try lines.map { try JSONDecoder().decode(VestaAnswer.self, from: Data($0)) }
    }

    static func layout(_ request: VestaRequest, substitutions: Bool = false) -> Result<LaidOutText, LayoutError> {
        Result {
            switch request.op {
            case "encode": try TextLayout.encode(request.text, substitutions: substitutions)
            case "row":
                try TextLayout.encodeRow(
                    request.text, align: HorizontalAlignment(rawValue: request.align)!,
                    fill: CharacterCode(request.fill)!, columns: request.columns, substitutions: substitutions)
            default:
                try TextLayout.encodeText(
                    request.text,
                    options: {
                        var o = request.options
                        o.substitutions = substitutions
                        return o
                    }())
            }
        }.mapError { $0 as! LayoutError }
    }

    /// Checks one request: the same rows where vesta gives rows, the same message where vesta
    /// raises, and a clear error of ours where vesta loops, crashes or lets int() fail.
    static func check(_ request: VestaRequest, _ answer: VestaAnswer, sourceLocation: SourceLocation = #_sourceLocation) {
        let ours = layout(request)
        let context = Comment(rawValue: "request \(String(decoding: try! JSONEncoder().encode(request), as: UTF8.self))")
        switch (ours, answer) {
        case (.success(let result), let answer) where answer.rows != nil:
            #expect(result.rows.map { $0.map { Int($0.rawValue) } } == answer.rows!, context, sourceLocation: sourceLocation)
        case (.failure(let error), let answer) where answer.error != nil:
            if answer.error!.hasPrefix("invalid literal for int()") {
                #expect(error.reason.hasPrefix("invalid character code"), context, sourceLocation: sourceLocation)
            } else {
                #expect(error.message == answer.error!, context, sourceLocation: sourceLocation)
            }
        case (.failure(let error), let answer) where answer.loops == true || answer.crash != nil:
            #expect(error.reason.contains("margin"), context, sourceLocation: sourceLocation)
        default:
            Issue.record("ours: \(ours), vesta: \(answer)", sourceLocation: sourceLocation)
        }
    }

    @Test func namedCasesMatchVesta() async throws {
        let requests = VestaCorpus.named
        for (request, answer) in zip(requests, try await Self.askVesta(requests)) {
            Self.check(request, answer)
        }
    }

    @Test func seededCorpusMatchesVesta() async throws {
        let requests = VestaCorpus.requests(count: 4000, seed: 20261122)
        let answers = try await Self.askVesta(requests)
        for (request, answer) in zip(requests, answers) {
            Self.check(request, answer)
        }
        // The corpus must reach every kind of outcome, or it proves less than it seems to.
        #expect(answers.filter { $0.rows != nil }.count > 1000)
        #expect(answers.filter { $0.error?.contains("unsupported character:") == true }.count > 20)
        #expect(answers.filter { $0.error?.contains("missing }") == true }.count > 10)
        #expect(answers.filter { $0.error?.contains("unsupported character code") == true }.count > 10)
        #expect(answers.filter { $0.error?.contains("results in") == true }.count > 10)
        #expect(answers.filter { $0.loops == true }.count > 5)
        #expect(answers.filter { $0.crash != nil }.count > 5)
    }

    /// Substitutions only touch what vesta rejects: wherever vesta gives rows, so do we.
    @Test func substitutionsNeverChangeWhatVestaAccepts() async throws {
        let requests = VestaCorpus.requests(count: 1500, seed: 7)
        for (request, answer) in zip(requests, try await Self.askVesta(requests)) {
            guard let rows = answer.rows else { continue }
            let ours = try Self.layout(request, substitutions: true).get()
            #expect(ours.rows.map { $0.map { Int($0.rawValue) } } == rows)
            #expect(ours.warnings.allSatisfy { !$0.text.contains("shown as") })
        }
    }
}
