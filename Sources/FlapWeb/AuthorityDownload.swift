import FlapCore
import FoundationEssentials
import HTTPTypes
import Hummingbird

/// `GET /ca.crt` and `GET /install`: the certificate authority phones install, and the page
/// saying how (Android, iOS), with a QR code to the download. Both are served on the plain HTTP
/// port too: a phone fetches the authority before it can trust the HTTPS port.
public struct AuthorityDownload: Sendable {
    /// flapd's authority as PEM; nil when the user's own certificate is served (nothing to install).
    public var certificatePEM: String?
    /// The authority's name, as phones list it.
    public var name: String
    /// The HTTPS port, once bound.
    public var httpsPort: @Sendable () -> Int?
    /// An SVG QR code of a URL, or nil when none can be drawn (the link is there all the same).
    public var qrCode: @Sendable (String) -> String?

    /// Serves `certificatePEM` (nil: the user's own certificate, nothing to install) under the
    /// authority's `name`, linking to the HTTPS port as it is bound, with `qrCode` drawing the link.
    public init(certificatePEM: String?, name: String, httpsPort: @escaping @Sendable () -> Int?, qrCode: @escaping @Sendable (String) -> String?) {
        self.certificatePEM = certificatePEM
        self.name = name
        self.httpsPort = httpsPort
        self.qrCode = qrCode
    }

    func add<Context: RequestContext>(to router: Router<Context>) {
        router.get("ca.crt") { _, _ in certificate() }
        router.get("install") { request, _ in page(for: request) }
    }

    private func certificate() -> Response {
        guard let certificatePEM else {
            let body =
                #"{"error":"this board serves the certificate configured in [api] tls_certificate_file: there is no authority of flapd's to install"}"#
            return Response(
                status: .notFound, headers: [.contentType: "application/json; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: "application/x-x509-ca-cert",
                HTTPField.Name.contentDisposition: #"attachment; filename="vestawidget-ca.crt""#,
                .cacheControl: "no-cache"
            ], body: .init(byteBuffer: ByteBuffer(string: certificatePEM)))
    }

    /// The page, its links made for the address the browser used (a name, or an address).
    private func page(for request: Request) -> Response {
        let host = request.head.authority.flatMap(HostHeader.host(of:)) ?? "localhost"
        let plainPort = request.head.authority.flatMap(HostHeader.port(of:)).map { ":\($0)" } ?? ""
        let https = "https://\(host):\(httpsPort() ?? 8443)/"
        let download = "http://\(host)\(plainPort)/ca.crt"
        let html = String(decoding: PackageResources.install_html, as: UTF8.self)
            .replacing("{{authority-hidden}}", with: certificatePEM == nil ? "hidden" : "")
            .replacing("{{own-hidden}}", with: certificatePEM == nil ? "" : "hidden")
            .replacing("{{qr}}", with: qrCode(download) ?? "")
            .replacing("{{ca-name}}", with: Self.escaped(name))
            .replacing("{{https}}", with: Self.escaped(https))
        var headers = WebPage.securityHeaders
        headers[.contentType] = "text/html; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    static func escaped(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;").replacing("\"", with: "&quot;")
    }
}
