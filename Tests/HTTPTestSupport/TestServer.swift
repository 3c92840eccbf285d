import Foundation
import HTTP
import HTTPCore
import Logging
import Synchronization

/// A live server on an ephemeral loopback port, with logs captured in memory.
public final class TestServer: @unchecked Sendable {
    public let server: HTTPServer
    public let port: Int
    public let logs: LogOutput
    public let router: Router
    /// The server's own series (`metricsText` renders them as `/metrics` would).
    public let metrics: HTTPMetrics

    public init(
        configure: (inout HTTPServerConfiguration) -> Void = { _ in }, middleware: (HTTPServerConfiguration, HTTPMetrics, Logger) -> [any HTTPMiddleware]? = { _, _, _ in nil },
        routes: (Router) -> Void
    ) throws {
        var config = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        config.eventLoopCount = 2
        configure(&config)
        let logs = LogOutput.memory()
        let logger = Logger(label: "test") { JSONLogHandler(label: $0, level: .info, output: logs) }
        let router = Router()
        routes(router)
        let metrics = HTTPMetrics(registry: MetricsRegistry())
        let chain = middleware(config, metrics, logger)
        server = HTTPServer(configuration: config, router: router, middleware: chain, metrics: metrics, logger: logger)
        port = try server.start().port
        self.logs = logs
        self.router = router
        self.metrics = metrics
    }

    public var metricsText: String { String(decoding: metrics.registry.render(), as: UTF8.self) }

    /// The value of one series of `metricsText` (`name{labels}` exactly as rendered).
    public func metric(_ series: String) -> Double? {
        metricsText.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    public func client(receiveTimeout: Double = 10, receiveBufferSize: Int32? = nil) throws -> RawClient {
        try RawClient(port: port, receiveTimeout: receiveTimeout, receiveBufferSize: receiveBufferSize)
    }

    /// One request on a fresh connection.
    public func get(_ target: String, headers: [String: String] = [:]) throws -> RawResponse {
        try RawClient.get(port: port, target, headers: headers)
    }

    public func stop() {
        server.shutdown(deadline: 2)
        _ = server.waitUntilStopped(timeout: 10)
    }

    deinit { stop() }

    /// Polls `condition` until it holds or `timeout` passes (for state the server changes asynchronously).
    public static func eventually(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }
}

/// A latch for coordinating handlers and tests: once opened it stays open for every waiter.
public final class Latch: Sendable {
    private let group = DispatchGroup()
    private let opened = Mutex(false)
    public init() { group.enter() }
    public func open() {
        let first = opened.withLock { o in
            defer { o = true }
            return !o
        }
        if first { group.leave() }
    }
    /// True when opened within `timeout`.
    public func wait(timeout: Double = 10) -> Bool { group.wait(timeout: .now() + timeout) == .success }
}

/// A thread-safe box for values handlers record.
public final class Recorder<T: Sendable>: Sendable {
    public init() {}
    private let items = Mutex<[T]>([])
    public func append(_ item: T) { items.withLock { $0.append(item) } }
    public var all: [T] { items.withLock { $0 } }
}
