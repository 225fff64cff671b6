import FlapDisplay
import FlapHTTP
import FlapHeartRate
import FlapMQTT
import FlapMembers
import FlapMessaging
import FlapMetrics
import FlapQR
import FlapRooms
import FlapSetup
import FlapTLS
import FlapTime
import FlapVestaboard
import FlapWeb
import FoundationEssentials
import Hummingbird
import HummingbirdTLS
import Logging
import ServiceLifecycle

extension Appliance {
    /// The three listeners (the native API and the page on plain HTTP and on HTTPS, the Local
    /// API) and the keeper of the HTTPS certificate.
    static func listeners(
        _ configuration: FlapdConfiguration, parts: ApplianceParts, secrets: ApplianceSecrets, state: StateDirectory,
        ports: BoundPorts, logger: Logger
    ) throws -> [any Service] {
        let certificates = try certificates(configuration, in: state, logger: logger)
        let api = nativeAPI(
            configuration, parts: parts, secrets: secrets, state: state, ports: ports,
            certificateNames: { [certificate = certificates.certificate] in certificate.identity.alternativeNames }, logger: logger)
        let nativeRouter = api.router()
        WebPage.add(
            to: nativeRouter,
            authority: AuthorityDownload(
                certificatePEM: try certificates.authority?.certificatePEM(), name: certificates.authority?.name ?? "",
                httpsPort: { [httpsNow = ports.httpsNow] in httpsNow.value }, qrCode: { try? QRCode($0).svg(title: "the certificate's download") }))
        let local = LocalAPI(
            intake: parts.intake, panels: parts.boards, enablementToken: secrets.localAPIToken,
            apiKey: secrets.localAPIKey)
        let limits = ConnectionLimits()
        let quiet = Logger(label: "http", factory: { _ in SwiftLogNoOpLogHandler() })
        let listen = configuration.listen
        let nativeApp = Application(
            router: nativeRouter,
            server: limits.server(
                .plain(redirectingPagesTo: { [httpsNow = ports.httpsNow, certificate = certificates.certificate, setup = parts.setup] in
                    // A phone setting the board up cannot trust its authority yet: the setup page stays on plain HTTP.
                    guard setup.hasHadOwner else { return nil }
                    return httpsNow.value.map { HTTPSRedirectTarget(port: $0, names: certificate.identity.alternativeNames) }
                }), shares: api.connections),
            configuration: .init(address: .hostname(listen, port: configuration.api.port), serverName: "flapd"),
            onServerRunning: { await ports.bound(.native, port: $0.localAddress?.port) }, logger: quiet)
        let httpsApp = Application(
            router: nativeRouter,
            server: try .tls(limits.server(.tls, shares: api.connections), tlsConfiguration: certificates.certificate.tlsConfiguration()),
            configuration: .init(address: .hostname(listen, port: configuration.api.httpsPort), serverName: "flapd"),
            onServerRunning: { await ports.bound(.https, port: $0.localAddress?.port) }, logger: quiet)
        let localApp = Application(
            router: local.router(), server: limits.server(),
            configuration: .init(address: .hostname(listen, port: configuration.localAPI.port), serverName: "flapd"),
            onServerRunning: { await ports.bound(.local, port: $0.localAddress?.port) }, logger: quiet)
        return [
            Listener(name: "native API", address: "\(listen):\(configuration.api.port)", key: "--api-port or [api] port", app: nativeApp),
            Listener(name: "HTTPS API", address: "\(listen):\(configuration.api.httpsPort)", key: "--https-port or [api] https_port", app: httpsApp),
            certificates,
            Listener(
                name: "Local API", address: "\(listen):\(configuration.localAPI.port)", key: "--local-api-port or [local_api] port", app: localApp)
        ]
    }

    private static func nativeAPI(
        _ configuration: FlapdConfiguration, parts: ApplianceParts, secrets: ApplianceSecrets, state: StateDirectory,
        ports: BoundPorts, certificateNames: @escaping @Sendable () -> [String], logger: Logger
    ) -> NativeAPI {
        let machineName = ProcessInfo.processInfo.hostName
        let (heartRate, metrics, clockTrust) = (parts.heartRate, parts.metrics, parts.clockTrust)
        let mqttStatus: (@Sendable () -> any Encodable & Sendable)? = parts.mqtt.map { bridge in { @Sendable in bridge.status } }
        let boards = parts.boards
        var api = APIParts(
            intake: parts.intake, panels: boards, sound: boards, switches: boards, calibration: boards, modules: boards, metrics: metrics,
            version: version)
        api.viewerKey = secrets.viewerKey
        api.sensors = { await heartRate?.report() ?? [] }
        api.rooms = parts.room.map { RoomAccessAdapter(service: $0) }
        api.deliveries = parts.outbox.map { ApplianceDeliveries(queue: $0, workers: parts.deliveryWorkers, metrics: metrics, now: parts.time.now) }
        api.live = parts.live
        api.mqtt = mqttStatus
        api.clock = { clockTrust.verdict() }
        api.schedules = parts.schedules
        api.sources = parts.sources
        api.access = parts.access
        api.presence = parts.presence
        api.setup = parts.setup
        api.hardware = ApplianceHardware(configuration, state: state)
        api.settings = parts.settings
        api.links = InvitationLinks(
            machineName: machineName, householdNames: configuration.api.tlsNames, certificateNames: certificateNames,
            httpsPort: { [httpsNow = ports.httpsNow] in httpsNow.value },
            plainPort: { [nativeNow = ports.nativeNow] in nativeNow.value },
            qrCode: { try? QRCode($0).svg(title: "the link") })
        return NativeAPI(
            api, apiKey: secrets.apiKey,
            mcpHosts: MCPHosts(listen: configuration.listen, machineName: machineName, allowed: configuration.api.allowedHosts))
    }
}
