// swift-tools-version: 6.2
import PackageDescription

// Release binaries export no symbols: SwiftPM exports every one for backtraces, 4 MB of flapd's
// symbol tables; the package's -dbgsym has the names for a crash. They are linked by the
// toolchain's lld, which packs the 83 000 relative relocations of a position-independent Swift
// binary into a bitmap (DT_RELR, read by Debian 12's glibc 2.36): 2.4 MB less to install and load.
let releaseLinking: [LinkerSetting] = [
    .unsafeFlags(
        ["-use-ld=lld", "-Xlinker", "--no-export-dynamic", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"],
        .when(configuration: .release))
]

let package = Package(
    name: "VestaWidget",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "FlapCore", targets: ["FlapCore"]),
        .library(name: "FlapHardware", targets: ["FlapHardware"]),
        .library(name: "FlapSimulated", targets: ["FlapSimulated"]),
        .library(name: "FlapLinux", targets: ["FlapLinux"]),
        .executable(name: "flapctl", targets: ["flapctl"]),
        .executable(name: "flapd", targets: ["flapd"]),
        .executable(name: "flapbench", targets: ["flapbench"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // No default traits: FullFoundation links all of Foundation (and ICU) for a date format
        // of URL-encoded forms flapd does not read; ConfigurationSupport brings swift-configuration.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.5.0", traits: []),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.29.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // For config-weigh, which weighs it against the settings' own readers (docs/benchmarks.md);
        // flapd links it through AsyncHTTPClient but does not use it. No traits, as AsyncHTTPClient
        // asks: the default JSON trait brings all of Foundation into every module that links it.
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0", traits: []),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.1.0"),
        // Errno, the system's error numbers with their text (already built for Hummingbird's NIOFileSystem).
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0")
    ],
    targets: [
        // Pure Swift: character codes, text layout, drums, flip planning, pixels, sound and image
        // file formats in memory, and the small stream helpers the actors share. No I/O.
        // Hashing, seeded randomness and stream helpers: no dependencies, used across the tree.
        .target(name: "FlapPrimitives"),
        .target(name: "FlapCore", dependencies: ["FlapPrimitives"]),
        // The hardware abstraction layer: small device protocols, no Glibc.
        .target(name: "FlapHardware", dependencies: ["FlapCore", .product(name: "SystemPackage", package: "swift-system")]),
        // Public simulated twins of every device, used by tests and by `flapd --simulate`.
        .target(name: "FlapSimulated", dependencies: ["FlapHardware", "FlapHeartRate", "FlapCore", "FlapPrimitives"]),
        // SQLite files (statements, transactions, migrations) and the storage's faults (a full,
        // read-only or failing disk, a damaged file), told once and shown.
        .target(name: "FlapStorage", dependencies: ["CSQLite", "COnDemand", .product(name: "Logging", package: "swift-log")]),
        // The system's libsqlite3 (its header; COnDemand opens the library when first used).
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // The functions of libsqlite3, libasound, libgpiod (1 or 2) and libsystemd that flapd calls, each
        // opening its library on first use instead of at every start (Sources/COnDemand/loader.c).
        .target(name: "COnDemand"),
        // Messages, the SQLite inbox, receipts, rate limits, panel policies.
        .target(
            name: "FlapMessaging",
            dependencies: [
                "FlapJSON",
                "FlapCore", "FlapPrimitives", "FlapStorage", "FlapVBML",
                .product(name: "Logging", package: "swift-log")
            ]),
        // Counters and histograms of what flapd does, in Prometheus text format.
        .target(name: "FlapMetrics", dependencies: [.product(name: "Prometheus", package: "swift-prometheus")]),
        // The Vestaboard-compatible Local API and the native /v1 API: the messaging layer and
        // protocols for the rest, which FlapService fills in.
        .target(
            name: "FlapHTTP",
            dependencies: [
                "FlapJSON", "FlapEndpoints",
                "FlapCore", "FlapHardware", "FlapPictures", "FlapPrimitives", "FlapMessaging", "FlapStorage", "FlapMetrics", "FlapTime", "FlapMCP",
                "FlapMembers", "FlapPresence", "FlapSetup",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log")
            ],
            resources: [.embedInCode("OpenAPI/openapi.json")]),
        // libasound's header (COnDemand opens the library), plus the one C function Swift cannot
        // write (a variadic error handler).
        .target(name: "CALSA", dependencies: ["COnDemand"]),
        // The real drivers: each kernel or library interface wrapped once.
        .target(
            name: "FlapLinux",
            dependencies: [
                "FlapHardware", "FlapHeartRate", "CALSA", "CGPIOD", "CLinuxDevices", "CSystemd", "COnDemand",
                .product(name: "SystemPackage", package: "swift-system")
            ]),
        // libgpiod 1 and 2 (GPIO lines by chip and offset), declared by us under names of our own
        // so that flapd builds without either's header and uses the one the board has.
        .systemLibrary(name: "CGPIOD", path: "Sources/CGPIOD"),
        // spidev's ioctl wrappers (macros over structures Swift cannot import).
        .target(name: "CLinuxDevices"),
        // MQTT's protocol: a client of our own on swift-nio (acknowledgements left to the caller),
        // its session on an injected transport and clock, the packets' codec. Nothing of flapd's.
        .target(
            name: "FlapMQTTClient",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl")
            ]),
        // flapd over MQTT: its topics bridged to the inbox (acknowledged after commit), Home
        // Assistant discovery, the link's status.
        .target(
            name: "FlapMQTT",
            dependencies: [
                "FlapJSON",
                "FlapCore", "FlapMessaging", "FlapPictures", "FlapStorage", "FlapMetrics", "FlapMQTTClient", "FlapPresence",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ]),
        // Heart-rate sensing, its one home: the sensor protocol and what reads straps (GATT's
        // measurement, ANT+ pages, serial lines), the sources' settings, and the hub that runs them
        // and keeps their latest readings.
        .target(
            name: "FlapHeartRate",
            dependencies: [
                "FlapCore", "FlapPrimitives", "FlapHardware", "FlapMetrics",
                .product(name: "Logging", package: "swift-log")
            ]),
        // Heart-rate sensors' drivers chosen from their settings: the real ones (FlapLinux) or their
        // simulated twins, for flapd's composition and flapctl's direct sensor reading.
        .target(name: "FlapSensorDrivers", dependencies: ["FlapHeartRate", "FlapHardware", "FlapLinux", "FlapPrimitives", "FlapSimulated"]),
        // Wematch rooms: members, points, who is synced with whom, clusters, chains, stars. Pure, clock-injected.
        .target(name: "Wematch", dependencies: ["FlapJSON", "FlapPrimitives"]),
        // JSON values read field by field (errors name the field) and passed on unchanged.
        .target(name: "FlapJSON"),
        // Boards as PNG pictures (the board resource, /v1/board.png, flapctl preview, the app's icons).
        .target(
            name: "FlapPictures",
            dependencies: ["FlapCore", .product(name: "CompressNIO", package: "compress-nio"), .product(name: "NIOCore", package: "swift-nio")]),
        // Rooms over MQTT: a kiosk's view of a room and the members it hosts.
        .target(
            name: "FlapRooms",
            dependencies: [
                "Wematch", "FlapMQTTClient", "FlapHeartRate", "FlapHardware", "FlapPrimitives", .product(name: "Logging", package: "swift-log")
            ]),
        // A real Vestaboard through its APIs: the client, the persistent delivery queue.
        .target(
            name: "FlapVestaboard",
            dependencies: [
                "FlapJSON",
                "FlapCore", "FlapPrimitives", "FlapHardware", "FlapStorage",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log")
            ]),
        // Content that fills boards by itself: calendars, feeds, JSON documents and webhooks, each
        // polled (conditionally, with backoff), kept across restarts, and read as template props.
        .target(
            name: "FlapSources",
            dependencies: [
                "FlapCore", "FlapEndpoints", "FlapJSON", "FlapMessaging", "FlapPrimitives", "FlapStorage", "FlapMetrics",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log")
            ]),
        // The MCP server for assistants: JSON-RPC 2.0, the board's tools and resources, each done
        // through the native API however it is reached (flapd's own router, or HTTP from flapctl).
        .target(
            name: "FlapMCP",
            dependencies: [
                "FlapJSON", "FlapCore", "FlapEndpoints", "FlapPictures"
            ]),
        // The API's endpoints, each declared once: what the router serves and flapctl and MCP call.
        .target(name: "FlapEndpoints", dependencies: [.product(name: "HTTPTypes", package: "swift-http-types")]),
        .testTarget(name: "FlapEndpointsTests", dependencies: ["FlapEndpoints"]),
        // The web page flapd serves: HTML, CSS and ES modules built into the binary.
        .target(
            name: "FlapWeb",
            dependencies: [
                "FlapCore", "FlapEndpoints", "FlapPictures", "FlapPrimitives", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types")
            ],
            resources: [
                "index.html", "style.css", "icon.svg", "app.js", "api.js", "board.js", "compose.js", "paint.js", "lists.js", "status.js", "room.js",
                "manifest.webmanifest", "sw.js", "offline.js", "outbox.js", "widget.html", "widget.css", "widget.js", "install.html", "join.html",
                "join.js", "members.js", "numbering.js", "hardware.js", "settings.js", "firststeps.js", "presence.js", "share.js",
                "tv.html", "tv.js", "tv.css", "clacks.js"
            ]
            .map { .embedInCode("Web/" + $0) }),
        // The room on the panels: the plot on pixels, the summary in flaps, the chime.
        .target(name: "FlapKiosk", dependencies: ["Wematch", "FlapCore"]),
        // libsystemd: sd_notify (READY, WATCHDOG) and sd-bus for BlueZ.
        .systemLibrary(
            name: "CSystemd", path: "Sources/CSystemd",
            providers: [.apt(["libsystemd-dev"])]),
        // Timed events: messages sent for later, schedules, quiet hours, and how far the system clock is trusted.
        .target(
            name: "FlapTime",
            dependencies: [
                "FlapJSON", "FlapCore", "FlapMessaging", "FlapStorage", "CLinuxDevices", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log")
            ]),
        // Members: one identity per person (their sender, sessions, keys, invitations), the
        // owner's sessions and pairing links; secrets kept only as digests.
        .target(
            name: "FlapMembers",
            dependencies: [
                "FlapStorage", "FlapPrimitives", .product(name: "Crypto", package: "swift-crypto"), .product(name: "Logging", package: "swift-log")
            ]),
        // Set up from the phone: the board claimed with the code it shows.
        .target(
            name: "FlapSetup",
            dependencies: ["FlapMembers", "FlapPrimitives", "FlapStorage", .product(name: "Logging", package: "swift-log")]),
        // Who of the household is around: here, last seen, writing; kept across restarts.
        .target(
            name: "FlapPresence",
            dependencies: ["FlapMembers", "FlapPrimitives", "FlapStorage", .product(name: "Logging", package: "swift-log")]),
        // "Find my board": serial ports asked with each driver's greeting, the rest listed.
        .target(name: "FlapHardwareSearch", dependencies: ["FlapHardware", "FlapHeartRate"]),
        // flapd found on the home network: announced through avahi-daemon's D-Bus API.
        .target(
            name: "FlapDiscovery",
            dependencies: [
                "FlapLinux", .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ]),
        // QR codes of links (pairing, invitations, the authority's download) by Debian's
        // libqrencode, drawn in the terminal or as SVG.
        .target(name: "FlapQR", dependencies: ["CQRencode", "COnDemand", .product(name: "SystemPackage", package: "swift-system")]),
        // libqrencode's header (COnDemand opens the library).
        .systemLibrary(name: "CQRencode", path: "Sources/CQRencode", providers: [.apt(["libqrencode-dev"])]),
        // HTTPS with nothing to buy: flapd's own certificate authority and the server certificate
        // it issues (names and addresses kept current), or the user's certificate files, reloaded
        // when they change; both handed to swift-nio-ssl per handshake.
        .target(
            name: "FlapTLS",
            dependencies: [
                "FlapStorage", .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ]),
        // What each panel shows and how it gets there: the display policies and coordinators, the
        // motion loop that plans from where the flaps are, the clack player. Below composition, so
        // their tests link none of the network or the drivers.
        .target(
            name: "FlapDisplay",
            dependencies: [
                "FlapCore", "FlapPrimitives", "FlapHardware", "FlapKiosk", "FlapMessaging", "FlapStorage", "FlapTime", "Wematch",
                .product(name: "Logging", package: "swift-log")
            ]),
        // TOML 1.0 read into values, and where each key was written (for errors naming the line).
        .target(name: "FlapTOML"),
        // The settings changed from the page, kept over flapd.toml in the state directory.
        .target(name: "FlapSettings", dependencies: ["FlapJSON", "FlapStorage", "FlapTOML"]),
        // Every reader of outside bytes as a fuzz target: run under libFuzzer by scripts/fuzz
        // (flapfuzz), and every input kept in Fuzz/ read again by the tests.
        .target(
            name: "FlapFuzzing",
            dependencies: [
                "FlapCore", "FlapHardware", "FlapHardwareSearch", "FlapHeartRate", "FlapJSON", "FlapMessaging", "FlapMQTTClient", "FlapPrimitives",
                "FlapSettings", "FlapSimulated",
                "FlapSources",
                "FlapTOML", "FlapVBML",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio")
            ]),
        .executableTarget(name: "flapfuzz", dependencies: ["FlapFuzzing", "CFuzzerDriver"]),
        .systemLibrary(name: "CFuzzerDriver", path: "Sources/CFuzzerDriver"),
        // VBML, Vestaboard's markup: documents read and drawn as Vestaboard's renderer draws them.
        .target(name: "FlapVBML", dependencies: ["FlapCore", "FlapJSON", "FlapPrimitives"]),
        // Configuration and composition: flapd's services, each driver chosen here from settings.
        .target(
            name: "FlapService",
            dependencies: [
                "FlapJSON",
                "FlapTime", "FlapCore", "FlapPrimitives", "FlapHardware", "FlapSimulated", "FlapLinux", "FlapSensorDrivers", "FlapDisplay",
                "FlapTOML", "FlapMessaging", "FlapStorage", "FlapHTTP", "FlapMQTT", "FlapMQTTClient", "FlapMetrics", "FlapHeartRate", "FlapRooms",
                "FlapKiosk", "FlapVestaboard", "FlapWeb", "FlapTLS", "FlapQR", "FlapMembers", "FlapPresence", "FlapSetup", "FlapDiscovery",
                "FlapSources", "FlapHardwareSearch", "FlapSettings",
                "Wematch", "CSystemd",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ]),
        .executableTarget(
            name: "flapd",
            // FlapControl too: run through a link named flapctl, flapd is flapctl (the package
            // installs one binary for both).
            dependencies: ["FlapService", "FlapControl", "FlapLinux"],
            linkerSettings: releaseLinking),
        // flapctl's commands, kept in a library so tests can drive them.
        .target(
            name: "FlapControl",
            dependencies: [
                "FlapJSON", "FlapEndpoints",
                "FlapCore", "FlapHardware", "FlapMQTTClient", "FlapHeartRate", "FlapSensorDrivers", "FlapMCP", "FlapPictures", "FlapQR", "FlapVBML",
                "FlapLinux", "FlapSimulated",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ]),
        .executableTarget(name: "flapctl", dependencies: ["FlapControl", "FlapLinux"], linkerSettings: releaseLinking),
        // The benchmarks: layout against vesta, plans, drivers, frames, flapd, heart rate, rooms.
        .executableTarget(
            name: "flapbench",
            dependencies: [
                "FlapControl", "FlapCore", "FlapPrimitives", "FlapHardware", "FlapSimulated", "FlapLinux", "FlapMQTTClient", "Wematch", "FlapKiosk",
                "FlapSources", "BenchmarkCorpus",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ],
            path: "Benchmarks/flapbench"),
        // One FlapCore workload per run, for instruction counts under callgrind.
        .executableTarget(
            name: "config-weigh", dependencies: ["FlapSettings", "FlapTOML", .product(name: "Configuration", package: "swift-configuration")],
            path: "Benchmarks/ConfigWeigh"),
        .executableTarget(name: "instruction-counts", dependencies: ["FlapCore", "BenchmarkCorpus"], path: "Benchmarks/InstructionCounts"),
        // The texts the benchmarks lay out: measured, never shipped.
        .target(name: "BenchmarkCorpus", path: "Benchmarks/Corpus"),

        // Helpers shared by the test targets: the Python peer (vesta in a venv), the built binaries.
        // Clocks for tests and simulations (as NIOEmbedded beside NIOPosix): never linked into flapd.
        .target(name: "FlapClocks"),
        .testTarget(name: "FlapClocksTests", dependencies: ["FlapClocks"]),
        .testTarget(name: "FlapMQTTTests", dependencies: ["FlapMQTT"]),
        .target(name: "TestSupport", dependencies: [.product(name: "Logging", package: "swift-log")], path: "Tests/TestSupport"),
        .testTarget(name: "FlapCoreTests", dependencies: ["FlapCore", "FlapPrimitives", "TestSupport"]),
        .testTarget(name: "FlapPrimitivesTests", dependencies: ["FlapPrimitives", "TestSupport"]),
        .testTarget(name: "FlapVBMLTests", dependencies: ["FlapVBML", "FlapJSON", "TestSupport"]),
        .testTarget(name: "FlapFuzzingTests", dependencies: ["FlapFuzzing"]),
        .testTarget(
            name: "FlapPicturesTests",
            dependencies: [
                "FlapPictures", "FlapCore", .product(name: "CompressNIO", package: "compress-nio"), .product(name: "NIOCore", package: "swift-nio")
            ]),
        .testTarget(
            name: "FlapSimulatedTests",
            dependencies: ["FlapClocks", "FlapSimulated", "FlapHardware", "FlapHeartRate", "TestSupport"]),
        .testTarget(
            name: "FlapLinuxTests",
            dependencies: [
                "FlapLinux", "FlapHardware", "FlapHeartRate", "FlapCore", "FlapSimulated", "TestSupport",
                .product(name: "SystemPackage", package: "swift-system")
            ]),
        .testTarget(
            name: "FlapHardwareTests",
            dependencies: ["FlapClocks", "FlapHardware", "FlapCore", "FlapPrimitives", "FlapSimulated", "FlapLinux", "TestSupport"]),
        .testTarget(
            name: "FlapMQTTClientTests",
            dependencies: [
                "FlapClocks", "FlapMQTTClient", "TestSupport", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio")
            ]),
        .testTarget(name: "FlapRoomsTests", dependencies: ["FlapClocks", "FlapRooms", "FlapHeartRate", "Wematch", "FlapMQTTClient", "TestSupport"]),
        .testTarget(name: "WematchTests", dependencies: ["FlapClocks", "Wematch", "FlapPrimitives", "TestSupport"]),
        .testTarget(
            name: "FlapStorageTests",
            dependencies: ["FlapStorage", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "FlapVestaboardTests", dependencies: ["FlapClocks", "FlapVestaboard", "FlapStorage", "FlapCore", "FlapHardware", "TestSupport"]),
        .testTarget(
            name: "FlapKioskTests", dependencies: ["FlapClocks", "FlapKiosk", "Wematch", "FlapCore", "FlapSimulated", "FlapHardware", "TestSupport"]),
        .testTarget(
            name: "FlapTLSTests",
            dependencies: [
                "FlapTLS", "TestSupport", .product(name: "X509", package: "swift-certificates"), .product(name: "Logging", package: "swift-log"),
                .product(name: "SwiftASN1", package: "swift-asn1"), .product(name: "Crypto", package: "swift-crypto")
            ]),
        .testTarget(name: "FlapMembersTests", dependencies: ["FlapMembers", "TestSupport"]),
        .testTarget(name: "FlapSetupTests", dependencies: ["FlapSetup", "FlapClocks", "TestSupport"]),
        .testTarget(name: "FlapPresenceTests", dependencies: ["FlapPresence", "FlapMembers", "FlapClocks", "TestSupport"]),
        .testTarget(
            name: "FlapDiscoveryTests",
            dependencies: [
                "FlapDiscovery", "TestSupport", .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log")
            ]),
        .testTarget(name: "FlapQRTests", dependencies: ["FlapQR", "TestSupport"]),
        .testTarget(
            name: "FlapHardwareSearchTests", dependencies: ["FlapHardwareSearch", "FlapHardware", "FlapLinux", "FlapSimulated", "TestSupport"]),
        .testTarget(name: "FlapSensorDriversTests", dependencies: ["FlapSensorDrivers", "FlapHeartRate"]),
        .testTarget(
            name: "FlapHeartRateTests",
            dependencies: [
                "FlapClocks", "FlapHeartRate", "FlapHardware", "FlapSimulated", "FlapLinux", "FlapMetrics", "FlapCore", "FlapPrimitives",
                "TestSupport"
            ]),
        .testTarget(
            name: "FlapMessagingTests",
            dependencies: ["FlapMessaging", "FlapStorage", "FlapCore", "FlapJSON"]),
        .testTarget(
            name: "FlapDisplayTests",
            dependencies: [
                "FlapClocks", "FlapDisplay", "FlapCore", "FlapHardware", "FlapSimulated", "FlapLinux", "FlapMessaging", "FlapTime", "FlapKiosk",
                "Wematch", "TestSupport",
                .product(name: "Logging", package: "swift-log")
            ]),
        .testTarget(
            name: "FlapSourcesTests",
            dependencies: [
                "FlapClocks", "FlapSources", "FlapCore", "FlapJSON", "FlapMessaging", "FlapStorage", "TestSupport",
                .product(name: "Logging", package: "swift-log")
            ]),
        .testTarget(name: "FlapTOMLTests", dependencies: ["FlapTOML", "TestSupport"]),
        .testTarget(name: "FlapSettingsTests", dependencies: ["FlapSettings", "FlapJSON", "FlapTOML", "TestSupport"]),
        .testTarget(name: "FlapTimeTests", dependencies: ["FlapClocks", "FlapTime", "FlapMessaging", "TestSupport"]),
        .testTarget(
            name: "FlapHTTPTests",
            dependencies: [
                "FlapClocks",
                "FlapHTTP", "FlapService", "FlapLinux", "FlapHardware", "FlapCore", "FlapEndpoints", "FlapJSON", "FlapMessaging", "FlapMetrics",
                "FlapMembers",
                "FlapPresence", "TestSupport",
                .product(name: "Logging", package: "swift-log"), .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio")
            ]),
        .testTarget(
            name: "FlapServiceTests",
            dependencies: [
                "FlapClocks", "FlapTime", "FlapService", "FlapDisplay", "FlapLinux", "FlapMQTTClient", "FlapTLS", "FlapVestaboard", "FlapSources",
                "flapd",
                "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ]),
        .testTarget(
            name: "FlapMCPTests",
            dependencies: ["FlapMCP", "FlapEndpoints", "FlapJSON", "FlapHardware", "FlapLinux", "flapd", "flapctl", "TestSupport"]),
        .testTarget(
            name: "FlapControlTests",
            dependencies: ["FlapControl", "flapctl", "TestSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // The layers: docs/architecture.md's import table against Package.swift and every import.
        .testTarget(name: "ArchitectureTests"),
        .testTarget(name: "TestSupportTests", dependencies: ["FlapClocks", "TestSupport"])
    ],
    swiftLanguageModes: [.v6]
)

// A module sees the extensions of the modules it imports itself, not of every module linked
// beside it: flapd's code imports FoundationEssentials, and without this Foundation's own
// `String.contains` or `range(of:)`, visible through a dependency, would link all of Foundation
// and ICU's 34 MB back in. Not FlapLinux: a C struct's initializer (timespec) belongs to whichever
// C module included its header first, which differs between debug and release builds.
for target in package.targets where target.type != .system && target.type != .binary && target.name != "FlapLinux" {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
