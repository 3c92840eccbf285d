import Glibc

/// Everything the server can be told. The defaults are the limits and budgets docs/http.md
/// states (and `serve --help` prints).
public struct HTTPServerConfiguration: Sendable {
    /// Address to listen on: `0.0.0.0`, `::` (dual-stack), `127.0.0.1`, `::1`, `localhost`.
    public var host: String = "0.0.0.0"
    /// TCP port; 0 picks an ephemeral one (reported by `HTTPServer.start()`).
    public var port: Int = 8080
    public var backlog: Int32 = 4096
    /// Serial queues connections are spread over (default: one per CPU the process may use:
    /// the cgroup CPU quota rounded up when one is set, else the online cores; `CPUQuota`).
    public var eventLoopCount: Int = CPUQuota.effectiveCores
    /// Open connections beyond which new ones get 503 and are closed.
    public var maxConnections: Int = 16_384
    /// Time allowed to receive a request's head once its first byte arrived (408 after).
    public var headerReadTimeout: Double = 10
    /// Time a keep-alive connection may sit idle between requests (and a stalled upload or
    /// unread response may make no progress) before it is closed.
    public var idleTimeout: Double = 60
    /// Requests on one connection before the server answers `Connection: close`.
    public var maxRequestsPerConnection: Int = 10_000
    /// Request line, header and body limits.
    public var limits = HTTPParserLimits()
    /// Origins CORS allows (`["*"]` = any).
    public var corsAllowedOrigins: [String] = ["*"]
    /// Smallest body gzip-compressed.
    public var gzipMinimumSize: Int = 1024
    public var gzipLevel: Int32 = 6
    /// zlib level for streamed (`.pull`) bodies, compressed anew for every request.
    public var gzipStreamLevel: Int32 = 1
    /// Worker-pool threads, for `.compute` and `.heavy` routes and streamed body chunks.
    /// Default: the same count as the event loops, at least 2.
    public var workerPoolSize: Int = max(2, CPUQuota.effectiveCores)
    /// `.heavy` requests that may wait for a worker; beyond them the answer is 503 with Retry-After.
    public var heavyQueueLimit: Int = 16
    /// `.compute` requests that may wait for a worker (cheap work: a long list drains quickly).
    public var computeQueueLimit: Int = 512
    /// CPU seconds one request may spend on the worker pool (its answer and the chunks of a
    /// streamed body together); past it the request is stopped at its next check with 503
    /// naming the limit (`WorkBudget`). 0: no limit. The dearest legitimate answers (a
    /// 4096 × 4096 picture, 100,000 rows of ten bodies' apparent places) take about a second.
    public var requestCPULimit: Double = 10
    /// Bytes held for responses (shared encoded bodies plus what lagging connections hold on
    /// their own) beyond which new offloaded requests get 503 and stalled readers are closed
    /// after `pressureWriteStallTimeout`.
    public var responseMemoryLimit: Int = 48 << 20
    /// Where the shared encoded bodies this server sends are counted.
    public var memoryLedger: MemoryLedger = .shared
    /// Bytes an event stream may have queued for a client before it is dropped.
    public var eventStreamQueueLimit: Int = 256 * 1024
    /// Bytes all event streams together may hold for their clients; past it the stream holding
    /// the most (the slowest reader) is dropped. 10,000 streams that stopped reading would
    /// otherwise hold 2.5 GiB at 256 KiB each.
    public var eventStreamMemoryLimit: Int = 32 << 20
    /// Interval of the `: heartbeat` comment on idle event streams.
    public var eventStreamHeartbeatInterval: Double = 15
    /// Unsent output per connection beyond which the server stops reading from that client
    /// and stops pulling streamed bodies (back-pressure): the window of bytes a connection
    /// holds on its own.
    public var outputHighWaterMark: Int = 64 * 1024
    /// A client that accepts none of its pending output for this long is closed.
    public var writeStallTimeout: Double = 30
    /// The same, while response memory is over its limit.
    public var pressureWriteStallTimeout: Double = 3
    /// Answers each event loop keeps for replay (Replay.swift; docs/http.md "Replayed
    /// answers"): identical requests for a planner's ready answer are sent the same bytes without
    /// routing or running the chain. 0 turns replay off.
    public var replaySlots: Int = 256
    /// Bytes each event loop's replay memo may hold (bodies, heads and keys).
    public var replayBytes: Int = 4 << 20
    /// `Server` header value.
    public var serverName: String = "SolarSystem"
    /// `Retry-After` seconds on 503s.
    public var retryAfterSeconds: Int = 1

    public init() {}

    public init(host: String = "0.0.0.0", port: Int = 8080) {
        self.host = host
        self.port = port
    }
}
