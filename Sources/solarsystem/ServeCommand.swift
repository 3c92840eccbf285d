import ArgumentParser
import Foundation
import HTTP
import Logging
import Missions
import SolarSystemAPI
import Storage

/// `solarsystem serve`: the HTTP server on 0.0.0.0:8080 with the v1 API, `/healthz`, `/readyz`
/// and `/metrics`.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the HTTP server.",
        discussion: """
        Listens on 0.0.0.0:8080 by default. SIGTERM or SIGINT stops accepting, lets in-flight \
        requests finish (up to --shutdown-grace seconds), ends event streams and exits 0.
        """
    )

    @OptionGroup var server: ServerOptions
    @OptionGroup var resources: ResourceOptions
    @OptionGroup var database: DatabaseOptions

    func run() throws {
        let logger = server.bootstrapLogging(label: "solarsystem")
        let missions = try resources.loadMissions()
        for warning in missions.warnings { logger.warning("mission data", metadata: ["warning": "\(warning)"]) }
        let (db, report, applied) = try database.openMigrated(logger: logger)
        if let moved = report.movedAsideTo { logger.warning("cache database was unreadable; moved aside and rebuilt", metadata: ["movedTo": "\(moved)"]) }
        let cache = SampleCache(database: db)
        let services = try APIServices(
            catalogue: resources.loadCatalogue(), stars: resources.loadStars(), missions: missions, sampleCache: cache,
            textures: resources.loadTextures(), openAPIDocument: resources.loadOpenAPIDocument(), logger: logger, clock: { Date().timeIntervalSince1970 })
        let directory = try resources.directory().path
        logger.info("resources loaded", metadata: [
            "directory": "\(directory)", "stars": .stringConvertible(services.stars.stars.count),
            "missions": .stringConvertible(missions.missions.count), "db": "\(database.path)",
            "migrationsApplied": .stringConvertible(applied.count),
        ])
        let metrics = HTTPMetrics(registry: MetricsRegistry())
        let api = V1API(services: services)
        api.registerMetrics(on: metrics.registry)
        let router = ServeCommand.makeRouter(metrics: metrics, routes: [api.register(on:)])
        try server.runUntilSignalled(router: router, metrics: metrics, logger: logger)
        db.close()
    }

    /// The router the server runs: `/healthz`, `/metrics`, then every `routes` closure in order
    /// (the API module registers `/readyz` and the v1 routes).
    static func makeRouter(metrics: HTTPMetrics, routes: [(Router) -> Void] = []) -> Router {
        let router = Router()
        let health: [UInt8] = Array(#"{"status":"ok"}"#.utf8)
        router.get("/healthz") { _, _ in
            HTTPResponse.json(health).noStore()
        }
        let registry = metrics.registry
        router.get("/metrics") { _, _ in
            HTTPResponse.bytes(registry.render(), contentType: MetricsRegistry.contentType).noStore()
        }
        for register in routes { register(router) }
        return router
    }
}

enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    case json, text
}

/// The flags every command that runs the server shares.
struct ServerOptions: ParsableArguments {
    @Option(help: "Address to listen on (0.0.0.0, ::, 127.0.0.1, ::1, localhost).")
    var host: String = "0.0.0.0"

    @Option(help: "TCP port; 0 picks a free one (the start-up log line reports it).")
    var port: Int = 8080

    @Option(name: .customLong("max-connections"), help: "Open connections beyond which new ones get 503.")
    var maxConnections: Int = 16_384

    @Option(name: .customLong("cors-origins"), help: "Comma-separated origins CORS allows; * for any.")
    var corsOrigins: String = "*"

    @Option(name: .customLong("log-format"), help: "json (one object per line) or text.")
    var logFormat: LogFormat = .json

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    @Option(name: .customLong("shutdown-grace"), help: "Seconds in-flight requests get on SIGTERM/SIGINT.")
    var shutdownGrace: Double = 10

    @Option(name: .customLong("event-loops"), help: "Serial queues connections are spread over (default: one per core).")
    var eventLoops: Int?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard maxConnections > 0 else { throw ValidationError("--max-connections must be positive") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard shutdownGrace >= 0 else { throw ValidationError("--shutdown-grace must be ≥ 0") }
        if let eventLoops, !(1...64).contains(eventLoops) { throw ValidationError("--event-loops must be 1…64") }
    }

    var level: Logger.Level { Logger.Level(rawValue: logLevel) ?? .info }

    func bootstrapLogging(label: String) -> Logger {
        let level = self.level
        switch logFormat {
        case .json: LoggingSystem.bootstrap { JSONLogHandler(label: $0, level: level) }
        case .text: LoggingSystem.bootstrap { TextLogHandler(label: $0, level: level) }
        }
        return Logger(label: label)
    }

    func configuration() -> HTTPServerConfiguration {
        var config = HTTPServerConfiguration(host: host, port: port)
        config.maxConnections = maxConnections
        if let eventLoops { config.eventLoopCount = eventLoops }
        config.corsAllowedOrigins = corsOrigins.split(separator: ",").map { String($0).trimmingSpaces() }.filter { !$0.isEmpty }
        if config.corsAllowedOrigins.isEmpty { config.corsAllowedOrigins = ["*"] }
        return config
    }

    /// Starts the server, logs the bound address, blocks until SIGTERM/SIGINT has drained it.
    func runUntilSignalled(router: Router, metrics: HTTPMetrics, logger: Logger, middleware: [any HTTPMiddleware]? = nil, configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws {
        HTTPServer.ignoreSIGPIPE()
        let fdLimit = ServerProcess.raiseFileDescriptorLimit()
        var config = configuration()
        configure(&config)
        let server = HTTPServer(configuration: config, router: router, middleware: middleware, metrics: metrics, logger: logger)
        let address = try server.start()
        logger.info("listening", metadata: [
            "address": "\(address)", "host": "\(address.host)", "port": .stringConvertible(address.port),
            "maxConnections": .stringConvertible(config.maxConnections), "fdLimit": .stringConvertible(fdLimit),
            "eventLoops": .stringConvertible(config.eventLoopCount),
        ])
        let grace = shutdownGrace
        let signals = ServerProcess.onTerminationSignal { sig in
            logger.info("signal received; draining", metadata: ["signal": .stringConvertible(Int(sig))])
            server.shutdown(deadline: grace)
        }
        server.waitUntilStopped()
        withExtendedLifetime(signals) {}
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
