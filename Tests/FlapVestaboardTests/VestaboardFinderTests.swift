import FlapVestaboard
import Foundation
import Testing

/// Addresses as owners type them, made the Local API's base URL, or refused saying where.
@Suite struct VestaboardFinderTests {
    func url(_ typed: String) -> String? { try? VestaboardFinder.baseURL(typed).get().absoluteString }

    @Test func namesAndAddressesGetThePortWhenTheyHaveNone() {
        #expect(url("vestaboard.local") == "http://vestaboard.local:7000")
        #expect(url(" 192.168.1.20 ") == "http://192.168.1.20:7000")
        #expect(url("board.home:7001") == "http://board.home:7001")
        #expect(url("http://Vestaboard.local/") == "http://Vestaboard.local:7000")
        #expect(url("fd00::2") == "http://[fd00::2]:7000")
        #expect(url("[fd00::2]:7000") == "http://[fd00::2]:7000")
    }

    @Test func anythingElseIsRefusedSayingWhere() {
        for typed in ["", "   ", "https://vestaboard.local", "vestaboard.local/local-api", "vesta board", "board.local:port", "bøard.local"] {
            guard case .failure(let problem) = VestaboardFinder.baseURL(typed) else {
                Issue.record("\(typed) was taken")
                continue
            }
            #expect(!problem.description.isEmpty)
        }
        if case .failure(let problem) = VestaboardFinder.baseURL("vesta board") { #expect(problem.description.contains("column 6")) }
    }
}
