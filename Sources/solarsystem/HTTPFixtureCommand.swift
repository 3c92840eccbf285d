import ArgumentParser
import HTTPCore
import Logging

/// `solarsystem bench http-fixture`: the server with the production router and middleware chain
/// serving `/healthz` and a fixed ~2 KiB JSON document at `/fixture.json`, for `scripts/bench-http.sh`.
struct HTTPFixtureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "http-fixture",
        abstract: "Serve /healthz and a fixed 2 KiB JSON route for HTTP benchmarks.",
        discussion: """
        Same router, middleware chain, server and defaults as `serve`: the access log is on \
        (log level info); pass --log-level warning to measure without it.
        """
    )

    @Option(help: "Address to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "TCP port; 0 picks a free one.")
    var port: Int = 8081

    @Option(name: .customLong("log-level"), help: "Log level (info, the default as in serve, has the access log on).")
    var logLevel: String = "info"

    @Option(name: .customLong("log-format"), help: "json or text.")
    var logFormat: LogFormat = .json

    @Option(name: .customLong("max-connections"), help: "Open connections beyond which new ones get 503.")
    var maxConnections: Int = 16_384

    @Flag(name: .customLong("bare"), help: "No middleware: measure the server core and router alone.")
    var bare = false

    @Option(name: .customLong("event-loops"), help: "Serial queues connections are spread over (default: one per core).")
    var eventLoops: Int?

    /// The ~2 KiB document: 25 bodies with a position and a velocity each.
    static func fixtureJSON() -> [UInt8] {
        let names = ["sun", "mercury", "venus", "earth", "moon", "mars", "phobos", "deimos", "jupiter", "io", "europa",
                     "ganymede", "callisto", "saturn", "mimas", "enceladus", "tethys", "dione", "rhea", "titan", "uranus",
                     "neptune", "pluto", "iss", "iapetus"]
        var body = #"{"date":"2026-11-22T00:00:00Z","frame":"ecliptic-j2000","bodies":["#
        for (i, name) in names.enumerated() {
            if i > 0 { body += "," }
            let x = Double(i) * 0.387 + 0.1, y = Double(i) * -0.21, z = Double(i) * 0.0123
            body += #"{"id":"\#(name)","type":"body","position":[\#(x),\#(y),\#(z)],"distance":\#(x + 1)}"#
        }
        body += "]}"
        return Array(body.utf8)
    }

    func run() throws {
        ServerProcess.blockTerminationSignals()
        ServerProcess.limitAllocatorRetention()
        var arguments = ["--host", host, "--port", String(port), "--log-level", logLevel, "--log-format", logFormat.rawValue, "--max-connections", String(maxConnections)]
        if let eventLoops { arguments += ["--event-loops", String(eventLoops)] }
        var options = try ServerOptions.parse(arguments)
        try options.validate()
        let logger = try options.bootstrapLogging(label: "http-fixture")
        let metrics = HTTPMetrics(registry: MetricsRegistry())
        let fixture = HTTPFixtureCommand.fixtureJSON()
        let router = ServeCommand.makeRouter(metrics: metrics, routes: [{ router in
            router.get("/fixture.json") { _, _ in HTTPResponse.json(fixture) }
        }])
        options.shutdownGrace = 2
        try options.runUntilSignalled(router: router, metrics: metrics, logger: logger, middleware: bare ? [] : nil)
    }
}
