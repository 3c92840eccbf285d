import ArgumentParser
import Foundation
import Glibc
import HTTP
import HTTPCore
import Logging
import Ephemeris
import Missions
import SolarSystemAPI
import Storage
import Synchronization

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

    @Option(name: .customLong("memory-cache-mb"), help: "Memory for encoded answers (fixed-date positions, scene, orbits, trajectories, pictures…), least recently used out first (env SOLARSYSTEM_MEMORY_CACHE_MB; default 16; what is being sent may take 16 MiB more).")
    var memoryCacheMB: Int?

    func validate() throws {
        _ = try memoryCacheBytes()
    }

    func memoryCacheBytes() throws -> Int {
        try Setting.int(flag: memoryCacheMB, env: "SOLARSYSTEM_MEMORY_CACHE_MB", flagName: "--memory-cache-mb", default: APIServices.defaultResponseCacheBytes >> 20, in: 0...65_536) << 20
    }

    func run() throws {
        // Before any thread starts, so every thread inherits the mask (runUntilSignalled).
        ServerProcess.blockTerminationSignals()
        ServerProcess.limitAllocatorRetention()
        let logger = try server.bootstrapLogging(label: "solarsystem")
        // A start-up error is printed to stderr once this returns: the lines logged before it
        // are written first, not interleaved with it by the log's writer thread.
        defer { LogOutput.standardOutput.flush() }
        // A termination signal while the resources load (large element sets, kernels copied and
        // checked) ends the process at once: nothing is served yet, nothing is lost.
        let signals = TerminationSignals { sig in
            logger.notice("signal received during start-up; exiting", metadata: ["signal": .stringConvertible(Int(sig))])
            LogOutput.standardOutput.flush()
            Glibc._exit(0)
        }
        KernelFile.scratchDirectories = KernelFile.defaultScratchDirectories() + (database.scratchDirectory.map { [$0] } ?? [])
        let missions = try resources.loadMissions()
        for warning in missions.warnings { logger.warning("mission data", metadata: ["warning": "\(warning)"]) }
        let loaded = try resources.loadBodies(missions: missions)
        for refusal in loaded.bodies.refusals { logger.warning("kernel segment not used", metadata: ["reason": "\(refusal)"]) }
        let (db, report, applied) = try database.openMigrated(logger: logger)
        if let moved = report.movedAsideTo { logger.warning("cache database was unreadable; moved aside and rebuilt", metadata: ["movedTo": "\(moved)"]) }
        // A copy moved aside as corrupt counts against the cap (only the newest is kept, and only
        // when it takes at most half of it). The rest is shared: three quarters for trajectories,
        // a quarter for small-body chunks, each table evicted on its own. Rows waiting for the
        // writer count toward memory: 8 MiB of them at most (4 MiB for the chunks).
        let capBytes = try database.cacheMaxBytes()
        let movedAside = Database.pruneMovedAside(path: database.path, keepAtMost: capBytes / 2, logger: logger)
        let usable = capBytes - movedAside
        let cache = SampleCache(database: db, configuration: .init(maxBytes: usable - usable / 4, maxPendingBytes: 8 << 20), logger: logger)
        let chunkCache = SampleCache(database: db, configuration: .init(maxBytes: usable / 4, maxPendingBytes: 4 << 20),
                                     table: SampleCache.smallBodyTableName, logger: logger)
        // Rows from other mission data or another trajectory engine can never be read again.
        do {
            let current = Dictionary(uniqueKeysWithValues: missions.missions.map { ($0.id, $0.dataHash(kernels: loaded.identities)) })
            let pruned = try cache.prune(dataHashes: current, engineVersion: MissionEngine.engineVersion)
            if pruned > 0 { logger.info("sample cache pruned", metadata: ["staleRows": .stringConvertible(pruned)]) }
        } catch {
            logger.warning("sample cache prune failed; stale rows stay until evicted", metadata: ["error": "\(error)"])
        }
        let cacheBytes = try memoryCacheBytes()
        let kernel = try resources.loadKernel(checksumInBackground: true)
        let web = try resources.loadWebSite()
        let elementSets = try resources.loadElementSets(logger: logger)
        let chunkStore = kernel.map { SampleCacheChunkStore(cache: chunkCache, kernelIdentity: $0.identity, logger: logger) }
        do {
            let pruned = try chunkStore?.prune() ?? 0
            if pruned > 0 { logger.info("small-body chunk cache pruned", metadata: ["staleRows": .stringConvertible(pruned)]) }
        } catch {
            logger.warning("small-body chunk cache prune failed; stale rows stay until evicted", metadata: ["error": "\(error)"])
        }
        let smallBodies = try resources.loadSmallBodies(kernel: kernel?.kernel, store: chunkStore, warmUp: true, logger: logger)
        for reason in web.skipped { logger.warning("web viewer: file skipped", metadata: ["reason": "\(reason)"]) }
        let services = try APIServices(
            catalogue: resources.loadCatalogue(), kernel: kernel?.kernel, stars: resources.loadStars(), missions: missions,
            bodies: loaded.bodies, kernelIdentities: loaded.identities, sampleCache: cache, deltaT: resources.loadDeltaT(),
            textures: resources.loadTextures(), web: web, openAPIDocument: resources.loadOpenAPIDocument(), responseCacheBytes: cacheBytes,
            satellites: elementSets.feed, smallBodies: smallBodies.feed, observatories: resources.loadObservatories(),
            constellations: resources.loadConstellations(), logger: logger, clock: { Date().timeIntervalSince1970 })
        // The operator's cron replaces the file; the server follows within two polls.
        elementSets.watcher?.start(intervalSeconds: ServeCommand.elementSetPollSeconds)
        for w in smallBodies.watchers { w.start(intervalSeconds: ServeCommand.elementSetPollSeconds) }
        defer {
            elementSets.watcher?.stop()
            for w in smallBodies.watchers { w.stop() }
        }
        let directory = try resources.directory().path
        logger.info("resources loaded", metadata: [
            "directory": "\(directory)", "stars": .stringConvertible(services.stars.stars.count),
            "missions": .stringConvertible(missions.missions.count), "webFiles": .stringConvertible(web.files.count), "db": "\(database.path)",
            "kernels": .stringConvertible(loaded.bodies.kernels.count), "kernelBodies": .stringConvertible(loaded.bodies.targets.count),
            "userKernels": "\(loaded.userFiles.joined(separator: ":"))",
            "satellites": .stringConvertible(elementSets.feed.current.catalogue.satellites.count),
            "elementSets": "\(elementSets.watcher?.path ?? ResourceOptions.bundledElementSets)",
            "smallBodies": .stringConvertible(smallBodies.feed.current.catalogue.count),
            "smallBodyFiles": "\(smallBodies.watchers.map(\.path).joined(separator: ":"))",
            "migrationsApplied": .stringConvertible(applied.count),
        ])
        let metrics = HTTPMetrics(registry: MetricsRegistry())
        let live = LiveAPI(V1API(services: services))
        ServerProcess.releaseFreedMemory() // what reading and decoding the resources left behind
        live.current.api.registerMetrics(on: metrics.registry)
        let router = ServeCommand.makeRouter(metrics: metrics, routes: [live.register(on:)])
        // Kernels replaced on disk are loaded again, checked whole, and swapped in.
        let resources = self.resources
        let kernelWatcher = KernelWatcher(files: loaded.stamps + (kernel.map { [($0.path, $0.file.stamp)] } ?? []), logger: logger) {
            let bodies = try resources.loadBodies(missions: missions)
            let ephemeris = try resources.loadKernel()
            let next = try live.current.api.services.reloaded(kernel: ephemeris?.kernel, bodies: bodies.bodies, kernelIdentities: bodies.identities)
            live.replace(with: V1API(services: next))
            ServerProcess.releaseFreedMemory()
        }
        kernelWatcher.start(intervalSeconds: ServeCommand.elementSetPollSeconds)
        defer { kernelWatcher.stop() }
        try server.runUntilSignalled(router: router, metrics: metrics, logger: logger, signals: signals, startup: [
            "db": "\(database.path)", "resources": "\(directory)", "memoryCacheMB": .stringConvertible(cacheBytes >> 20),
            "cacheMaxMB": .stringConvertible(capBytes >> 20),
        ].merging(LoadedKernel.startupMetadata(kernel)) { $1 }, onSignal: { services.lifecycle.beginDraining() }, configure: { config in
            // Room for the memory cache plus 16 MiB for what is being sent: about 55 MiB at rest
            // (the decoded textures are 22 of it) plus this limit stays within the 100 MB budget.
            config.responseMemoryLimit = cacheBytes + (16 << 20)
        })
        // Queued sample writes are flushed (briefly) before the connection closes.
        cache.close()
        chunkCache.close()
        db.close()
    }

    /// How often `--tle`'s file is checked for a change (a change is read once it has held still
    /// for one more check, so within two).
    static let elementSetPollSeconds = 2.0

    /// The router the server runs: `/healthz`, `/metrics`, then every `routes` closure in order
    /// (the API module registers `/readyz` and the v1 routes).
    static func makeRouter(metrics: HTTPMetrics, routes: [(Router) -> Void] = []) -> Router {
        let router = Router()
        let health: [UInt8] = Array(#"{"status":"ok"}"#.utf8)
        router.get("/healthz") { _, _ in
            HTTPResponse.json(health).noStore()
        }
        let registry = metrics.registry
        router.get("/metrics", cost: .compute, answers: .small) { _, _ in
            HTTPResponse.bytes(registry.render(), contentType: MetricsRegistry.contentType).noStore()
        }
        for register in routes { register(router) }
        return router
    }
}

enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    case json, text
}

/// The flags every command that runs the server shares. Each can also come from an
/// environment variable (the flag wins); `validate()` resolves and checks them all, so an invalid
/// value stops start-up with a message naming the flag or the variable.
struct ServerOptions: ParsableArguments {
    @Option(help: "Address to listen on: 0.0.0.0, ::, 127.0.0.1, ::1, localhost (env SOLARSYSTEM_HOST; default 0.0.0.0).")
    var host: String?

    @Option(help: "TCP port; 0 picks a free one, reported at start-up (env SOLARSYSTEM_PORT; default 8080).")
    var port: Int?

    @Option(name: .customLong("max-connections"), help: "Open connections beyond which new ones get 503 (env SOLARSYSTEM_MAX_CONNECTIONS; default 16384).")
    var maxConnections: Int?

    @Option(name: .customLong("cors-origins"), help: "Comma-separated origins CORS allows; * for any (env SOLARSYSTEM_CORS_ORIGINS; default *).")
    var corsOrigins: String?

    @Option(name: .customLong("log-format"), help: "json (one object per line) or text (env SOLARSYSTEM_LOG_FORMAT; default json when stdout is not a terminal, text when it is).")
    var logFormat: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical (env SOLARSYSTEM_LOG_LEVEL; default info).")
    var logLevel: String?

    @Option(name: .customLong("shutdown-grace"), help: "Seconds in-flight requests get on SIGTERM/SIGINT (env SOLARSYSTEM_SHUTDOWN_GRACE; default 10).")
    var shutdownGrace: Double?

    @Option(name: .customLong("event-loops"), help: "Serial queues connections are spread over (env SOLARSYSTEM_EVENT_LOOPS; default one per core).")
    var eventLoops: Int?

    @Option(name: .customLong("request-cpu-limit"), help: "CPU seconds one request may spend computing its answer; past it the request gets 503 naming this limit; 0 for none (env SOLARSYSTEM_REQUEST_CPU_LIMIT; default 10).")
    var requestCPULimit: Double?

    /// The settings after flags, environment and defaults.
    struct Resolved {
        var host: String
        var port: Int
        var maxConnections: Int
        var corsOrigins: String
        var logFormat: LogFormat
        var logLevel: Logger.Level
        var shutdownGrace: Double
        var eventLoops: Int?
        var requestCPULimit: Double
    }

    func resolved() throws -> Resolved {
        let levels = Logger.Level.allCases.map(\.rawValue)
        let defaultFormat: LogFormat = isatty(STDOUT_FILENO) == 1 ? .text : .json
        let format = try Setting.oneOf(flag: logFormat, env: "SOLARSYSTEM_LOG_FORMAT", flagName: "--log-format", default: defaultFormat.rawValue, allowed: LogFormat.allCases.map(\.rawValue))
        let level = try Setting.oneOf(flag: logLevel, env: "SOLARSYSTEM_LOG_LEVEL", flagName: "--log-level", default: "info", allowed: levels)
        var loops: Int?
        if eventLoops != nil || Setting.env("SOLARSYSTEM_EVENT_LOOPS") != nil {
            loops = try Setting.int(flag: eventLoops, env: "SOLARSYSTEM_EVENT_LOOPS", flagName: "--event-loops", default: 1, in: 1...64)
        }
        return Resolved(
            host: Setting.string(flag: host, env: "SOLARSYSTEM_HOST", default: "0.0.0.0"),
            port: try Setting.int(flag: port, env: "SOLARSYSTEM_PORT", flagName: "--port", default: 8080, in: 0...65535),
            maxConnections: try Setting.int(flag: maxConnections, env: "SOLARSYSTEM_MAX_CONNECTIONS", flagName: "--max-connections", default: 16_384, in: 1...1_000_000),
            corsOrigins: Setting.string(flag: corsOrigins, env: "SOLARSYSTEM_CORS_ORIGINS", default: "*"),
            logFormat: LogFormat(rawValue: format) ?? .json,
            logLevel: Logger.Level(rawValue: level) ?? .info,
            shutdownGrace: try Setting.double(flag: shutdownGrace, env: "SOLARSYSTEM_SHUTDOWN_GRACE", flagName: "--shutdown-grace", default: 10, in: 0...3600),
            eventLoops: loops,
            requestCPULimit: try Setting.double(flag: requestCPULimit, env: "SOLARSYSTEM_REQUEST_CPU_LIMIT", flagName: "--request-cpu-limit",
                                                default: HTTPServerConfiguration().requestCPULimit, in: 0...86_400)
        )
    }

    func validate() throws {
        _ = try resolved()
    }

    /// Logs go to standard output through a bounded buffer drained by one writer thread
    /// (`LogOutput`): a slow terminal or collector drops lines (counted) rather than stalling the
    /// event loops.
    func bootstrapLogging(label: String) throws -> Logger {
        let settings = try resolved()
        let level = settings.logLevel
        switch settings.logFormat {
        case .json: LoggingSystem.bootstrap { JSONLogHandler(label: $0, level: level) }
        case .text: LoggingSystem.bootstrap { TextLogHandler(label: $0, level: level) }
        }
        return Logger(label: label)
    }

    func configuration() throws -> HTTPServerConfiguration {
        let settings = try resolved()
        var config = HTTPServerConfiguration(host: settings.host, port: settings.port)
        config.maxConnections = settings.maxConnections
        config.requestCPULimit = settings.requestCPULimit
        if let loops = settings.eventLoops { config.eventLoopCount = loops }
        config.corsAllowedOrigins = settings.corsOrigins.split(separator: ",").map { String($0).trimmingSpaces() }.filter { !$0.isEmpty }
        if config.corsAllowedOrigins.isEmpty { config.corsAllowedOrigins = ["*"] }
        return config
    }

    /// Starts the server, logs the bound address, blocks until SIGTERM/SIGINT has drained it.
    func runUntilSignalled(
        router: Router, metrics: HTTPMetrics, logger: Logger, middleware: [any HTTPMiddleware]? = nil,
        signals: TerminationSignals? = nil,
        startup: Logger.Metadata = [:], onSignal: @escaping @Sendable () -> Void = {},
        configure: (inout HTTPServerConfiguration) -> Void = { _ in }
    ) throws {
        HTTPServer.ignoreSIGPIPE()
        let output = LogOutput.standardOutput
        metrics.registry.counter("log_lines_dropped_total", help: "Log lines dropped because the log buffer was full (the output could not keep up).") {
            Double(output.droppedLines)
        }
        defer { output.flush() }
        let fdLimit = ServerProcess.raiseFileDescriptorLimit()
        var config = try configuration()
        configure(&config)
        let server = HTTPServer(configuration: config, router: router, middleware: middleware, metrics: metrics, logger: logger)
        let grace = try resolved().shutdownGrace
        // Signal handling is in place before the server listens (and long before the
        // "listening" line a supervisor waits for); a signal from here on is kept and acted on
        // once the server runs (before here, `serve`'s own start-up handler exits at once). The
        // sources are the caller's `signals` when given, armed once for the process's life: only
        // their handler changes. The command blocked SIGTERM/SIGINT before starting any thread,
        // so a signal that comes before the sources are armed stays pending, whichever thread
        // the kernel picks, and is read once they are.
        let state = SignalState()
        let handler: @Sendable (Int32) -> Void = { sig in
            logger.info("signal received; draining", metadata: ["signal": .stringConvertible(Int(sig))])
            onSignal()
            if state.signalled() { server.shutdown(deadline: grace) }
        }
        let termination = signals ?? TerminationSignals(handler)
        termination.handle(with: handler)
        let address = try server.start()
        if state.started() { server.shutdown(deadline: grace) }
        // The loops follow the container's CPU quota when one is set (`CPUQuota`): say which.
        let cpuQuota: Logger.MetadataValue = CPUQuota.limit.map { .stringConvertible($0) } ?? "none"
        logger.info("listening", metadata: startup.merging([
            "version": "\(SolarSystemVersion.current)",
            "address": "\(address)", "host": "\(address.host)", "port": .stringConvertible(address.port),
            "maxConnections": .stringConvertible(config.maxConnections), "fdLimit": .stringConvertible(fdLimit),
            "eventLoops": .stringConvertible(config.eventLoopCount),
            "workerThreads": .stringConvertible(config.workerPoolSize), "requestCPULimitSeconds": .stringConvertible(config.requestCPULimit),
            "cpuQuota": cpuQuota, "onlineCPUs": .stringConvertible(CPUQuota.onlineCPUs),
        ]) { $1 })
        server.waitUntilStopped()
        withExtendedLifetime(termination) {}
    }
}

/// Whether a termination signal came before the server finished starting.
final class SignalState: Sendable {
    private let state = Mutex((isStarted: false, pending: false))

    /// A signal arrived: true when the server runs (shut it down now), else it is kept.
    func signalled() -> Bool {
        state.withLock { s in
            if s.isStarted { return true }
            s.pending = true
            return false
        }
    }

    /// The server runs: true when a signal came during start-up (shut it down now).
    func started() -> Bool {
        state.withLock { s in
            s.isStarted = true
            return s.pending
        }
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
