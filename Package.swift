// swift-tools-version:6.0
import PackageDescription

// Module layering: docs/architecture.md draws it and holds the table of what each module may
// import; scripts/architecture-check.py (run by .ci/run) fails when these targets' dependencies
// or any file's imports differ from it. Lower modules never import upper ones.
let package = Package(
    name: "SolarSystem",
    // Linux only (no platform is claimed): every module imports Glibc directly, the event
    // loops are epoll and eventfd (CLinux), sockets open with Linux's SOCK_NONBLOCK |
    // SOCK_CLOEXEC; there are no Darwin branches, and no Darwin build is made or tested.
    products: [
        .executable(name: "solarsystem", targets: ["solarsystem"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // epoll and eventfd, which Glibc's module does not export (HTTPCore's event loops).
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
        // The one Swift wrapper of zlib (deflate, inflate, CRC-32), shared by HTTPCore, HTTP, Storage and Rendering.
        .target(name: "Zlib", dependencies: ["CZlib"]),
        .target(name: "Ephemeris"),
        .target(name: "Scene", dependencies: ["Ephemeris"]),
        // The observer's sky: apparent places, altitude and azimuth, rising and setting, phases.
        .target(name: "Sky", dependencies: ["Satellites", "Ephemeris"]),
        // Propagators, Lambert, flyby chains, gravity models: pure, above Ephemeris. The kernel
        // generator's physics; the server's Missions uses its KeplerArc.
        .target(name: "Astrodynamics", dependencies: ["Ephemeris"]),
        // The missions: the catalogue and the engine over their kernels (states, telemetry,
        // events, lines in the mission's frame). A domain module: it knows nothing of the scene.
        .target(name: "Missions", dependencies: ["Astrodynamics", "Ephemeris"]),
        // A mission drawn in the scene: its states placed by the scene's scaling, lines in scene
        // units, the mission camera. Presentation over Missions and Scene.
        .target(name: "MissionScene", dependencies: ["Missions", "Scene", "Ephemeris"]),
        // Asteroids and comets: element files (SBDB JSON, MPCORB, MPC comets) as bytes, the n-body
        // propagator under DE440, close approaches. Pure, above Astrodynamics.
        .target(name: "SmallBodies", dependencies: ["Astrodynamics", "Ephemeris"]),
        // The JPL Horizons API dialect: parameters in, Horizons-laid-out tables out, SPK files of
        // served positions. Pure, beside the API's handlers, over the domain modules.
        .target(name: "Horizons", dependencies: ["Sky", "SmallBodies", "Satellites", "Ephemeris"]),
        // SGP4/SDP4, element sets (TLE, OMM), TEME and ground tracks: pure, above Ephemeris.
        .target(name: "Satellites", dependencies: ["Ephemeris"]),
        // The mission-kernel generator (`solarsystem kernels build`): physics between the data,
        // written as SPK files. The server never imports it.
        .target(name: "MissionKernels", dependencies: ["Missions", "Astrodynamics", "Sky", "Ephemeris"]),
        // The CRC-32 every cached payload is checked against comes from zlib (the Zlib module).
        .target(name: "Storage", dependencies: ["CSQLite", "Zlib", .product(name: "Logging", package: "swift-log")]),
        .target(name: "Rendering", dependencies: ["Scene", "Ephemeris", "Zlib"]),
        // The HTTP server in three, as Hummingbird splits its core from its framework. HTTPCore is
        // what the wire needs: sockets, epoll loops, parser, connections, worker pool, requests,
        // responses, event streams, and the router, context and chain whose route costs decide
        // where work runs. HTTP is the framework over it: the standard middleware and the log
        // handlers. HTTPClient is the blocking client (healthcheck, tests).
        .target(
            name: "HTTPCore",
            dependencies: ["CLinux", "Zlib", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "HTTP",
            dependencies: ["HTTPCore", "Zlib", .product(name: "Logging", package: "swift-log")]
        ),
        .target(name: "HTTPClient", dependencies: ["HTTPCore"]),
        .target(
            name: "SolarSystemAPI",
            dependencies: [
                "HTTPCore", "Storage", "Rendering", "Horizons", "Missions", "MissionScene", "Satellites", "SmallBodies", "Scene", "Sky", "Ephemeris",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "solarsystem",
            dependencies: [
                "SolarSystemAPI", "HTTP", "HTTPCore", "HTTPClient", "Storage", "Rendering", "Horizons", "Missions", "MissionScene", "MissionKernels", "Astrodynamics", "Satellites", "SmallBodies", "Scene", "Sky", "Ephemeris", "Zlib",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "EphemerisTests",
            dependencies: ["Ephemeris"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "SceneTests", dependencies: ["Scene", "Ephemeris"]),
        .testTarget(name: "SkyTests", dependencies: ["Sky", "Satellites", "Ephemeris"], resources: [.copy("Fixtures")]),
        .testTarget(name: "HorizonsTests", dependencies: ["Horizons", "Sky", "SmallBodies", "Satellites", "Ephemeris"], resources: [.copy("Fixtures")]),
        .testTarget(name: "SatellitesTests", dependencies: ["Satellites", "Ephemeris"], resources: [.copy("Fixtures")]),
        .testTarget(name: "AstrodynamicsTests", dependencies: ["Astrodynamics", "Ephemeris"]),
        .testTarget(name: "SmallBodiesTests", dependencies: ["SmallBodies", "Astrodynamics", "Ephemeris"], resources: [.copy("Fixtures")]),
        .testTarget(name: "MissionsTests", dependencies: ["Missions", "MissionScene", "Astrodynamics", "Scene", "Ephemeris"]),
        .testTarget(name: "MissionKernelsTests", dependencies: ["MissionKernels", "Missions", "Astrodynamics", "Ephemeris"], exclude: ["Fixtures"]),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "CSQLite", "Zlib", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "ZlibTests", dependencies: ["Zlib", "CZlib"]),
        .testTarget(name: "RenderingTests", dependencies: ["Rendering", "Scene", "Ephemeris", "Zlib", "CZlib"]),
        // Raw-socket client and live test server shared by the HTTP and API end-to-end tests.
        .target(
            name: "HTTPTestSupport",
            dependencies: ["HTTP", "HTTPCore", "HTTPClient", "CZlib", .product(name: "Logging", package: "swift-log")],
            path: "Tests/HTTPTestSupport"
        ),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "HTTPCore", "HTTPClient", "HTTPTestSupport", "CZlib", "Zlib"]),
        .testTarget(
            name: "SolarSystemAPITests",
            dependencies: ["SolarSystemAPI", "HTTPCore", "HTTPTestSupport", "Storage", "Rendering", "Horizons", "Missions", "MissionScene", "Satellites", "SmallBodies", "Scene", "Sky", "Ephemeris", "CZlib",
                           .product(name: "Logging", package: "swift-log")],
            // Read from the repository by path (RepositoryFiles), not bundled.
            exclude: ["Fixtures"]
        ),
    ]
)
