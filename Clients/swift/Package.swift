// swift-tools-version: 6.0
// A typed client for the SolarSystem API, generated from the repository's openapi.yaml by
// swift-openapi-generator's build plugin. A package of its own, so the server's build never
// pulls the generator.
import PackageDescription

let package = Package(
    name: "SolarSystemClient",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "SolarSystemClient", targets: ["SolarSystemClient"]),
        .executable(name: "solarsystem-client-example", targets: ["SolarSystemClientExample"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
    ],
    targets: [
        .target(
            name: "SolarSystemClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .executableTarget(
            name: "SolarSystemClientExample",
            dependencies: ["SolarSystemClient"],
            path: "Sources/solarsystem-client-example"
        ),
        .testTarget(
            name: "SolarSystemClientTests",
            dependencies: ["SolarSystemClient", .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")]
        ),
    ]
)
