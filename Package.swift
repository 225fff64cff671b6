// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "VestaWidget",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "FlapCore", targets: ["FlapCore"]),
        .executable(name: "flapctl", targets: ["flapctl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // Pure Swift: character codes, text layout, drums, flip planning. No I/O.
        .target(name: "FlapCore"),
        // flapctl's commands, kept in a library so tests can drive them.
        .target(
            name: "FlapControl",
            dependencies: [
                "FlapCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "flapctl", dependencies: ["FlapControl"]),

        // Helpers shared by the test targets: the Python peer (vesta in a venv), the built binaries.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "FlapCoreTests", dependencies: ["FlapCore", "TestSupport"]),
        .testTarget(name: "FlapControlTests", dependencies: ["FlapControl", "flapctl", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
