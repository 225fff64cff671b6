import FlapTLS
import FoundationEssentials
import Logging

extension Appliance {
    /// The HTTPS certificate and what keeps it current: the user's files when configured, else
    /// flapd's own authority in the state directory's `tls` folder issuing for this machine.
    static func certificates(_ configuration: FlapdConfiguration, in state: StateDirectory, logger: Logger) throws -> CertificateKeeper {
        let source: CertificateSource
        if let files = configuration.api.tlsFiles {
            source = .files(certificate: files.certificate, key: files.key)
        } else {
            let host = ProcessInfo.processInfo.hostName
            source = .ownAuthority(folder: state.file("tls"), boardName: "VestaWidget", hostName: host, extraNames: configuration.api.tlsNames)
        }
        do {
            return try CertificateKeeper(source: source, logger: logger)
        } catch {
            throw ServiceError.https(reason: "\(error)")
        }
    }
}
