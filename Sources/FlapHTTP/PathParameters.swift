import Hummingbird

extension BasicRequestContext {
    /// The path parameter `name`, percent-decoded once, as clients encode it (`encodeURIComponent`,
    /// curl, flapctl): `my%20phone` is the sender `my phone`. A malformed escape is left as sent.
    func parameter(_ name: String) -> String {
        let raw = parameters.get(name).map { String($0) } ?? ""
        return raw.removingPercentEncoding ?? raw
    }
}
