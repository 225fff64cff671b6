import FlapEndpoints
import Testing

/// An endpoint asked with its values: each value stays one segment, whatever it holds, and the
/// table names each endpoint once.
@Suite struct EndpointTests {
    @Test func valuesFillTheParametersInOrderEachEscapedToOneSegment() {
        let request = Endpoint.renameTemplate.request("good morning/../x?y")
        #expect(request.target == "/v1/templates/good%20morning%2F..%2Fx%3Fy/rename")
        #expect(request.description == "POST /v1/templates/good%20morning%2F..%2Fx%3Fy/rename")
        #expect(Endpoint.renameTemplate.parameters == ["name"])
    }

    @Test func theQueryFollowsEscaped() {
        let request = Endpoint.receipts.request(query: [("limit", "20"), ("sender", "ana & bo")])
        #expect(request.target == "/v1/receipts?limit=20&sender=ana%20%26%20bo")
        #expect(Endpoint.receipts.request().target == "/v1/receipts")
    }

    @Test func aMissingValueLeavesItsSegmentEmptyRatherThanFailing() {
        #expect(Endpoint.cancelMessage.request().target == "/v1/messages/")
    }

    @Test func theTableNamesEachEndpointOnce() {
        let spelled = Endpoint.all.map(\.description)
        #expect(Set(spelled).count == spelled.count, "declared twice: \(spelled.filter { s in spelled.filter { $0 == s }.count > 1 })")
        #expect(Endpoint.all.allSatisfy { $0.path.hasPrefix("/") })
        #expect(Endpoint.cancelMessage.description == "DELETE /v1/messages/{id}")
    }
}
