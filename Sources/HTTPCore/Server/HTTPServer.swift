import Glibc
import Dispatch
import Logging
import Synchronization

/// The HTTP/1.1 server: a non-blocking listening socket whose accept is driven by a
/// `DispatchSource`, connections spread over a few `epoll` threads (`EventLoop`s) that read,
/// parse, route and write them, bounded output with back-pressure, a worker pool for heavy
/// routes, and a graceful shutdown.
///
/// ```swift
/// import HTTP   // the initialiser with the standard middleware chain
/// let server = HTTPServer(configuration: config, router: router, logger: logger)
/// let address = try server.start()      // port 0 → ephemeral, reported here
/// // … SIGTERM:
/// server.shutdown(deadline: 10)
/// server.waitUntilStopped()
/// ```
public final class HTTPServer: @unchecked Sendable {
    public let configuration: HTTPServerConfiguration
    public let router: Router
    public let metrics: HTTPMetrics
    public var registry: MetricsRegistry { metrics.registry }
    let core: ServerCore

    /// The server around a composed chain. The HTTP module's
    /// `init(configuration:router:middleware:metrics:logger:)` builds the chain (its standard
    /// middleware unless given one) and calls this.
    public init(configuration: HTTPServerConfiguration, router: Router, responder: Responder, metrics: HTTPMetrics, logger: Logger) {
        self.configuration = configuration
        self.router = router
        self.metrics = metrics
        core = ServerCore(configuration: configuration, router: router, responder: responder, metrics: metrics, logger: logger)
    }

    /// Binds, listens and starts accepting. Returns the bound address (the real port when 0 was asked).
    @discardableResult
    public func start() throws -> BoundAddress {
        try core.start()
    }

    /// The bound address once started.
    public var address: BoundAddress? { core.address }

    /// Stops accepting, lets in-flight requests finish, asks event streams to end (their
    /// `onShutdown` handlers), closes idle connections; anything still open after `deadline`
    /// seconds is closed. Returns at once; `waitUntilStopped()` blocks until done.
    public func shutdown(deadline: Double = 10) {
        core.shutdown(deadline: deadline)
    }

    /// Blocks the calling thread until the server has stopped (for the executable's main thread).
    public func waitUntilStopped() {
        core.stopped.wait()
    }

    /// Blocks up to `timeout` seconds; true when the server stopped.
    public func waitUntilStopped(timeout: Double) -> Bool {
        core.stopped.wait(timeout: .now() + timeout) == .success
    }

    public var openConnections: Int { core.openCount.load(ordering: .relaxed) }
    public var openEventStreams: Int { core.streamCount.load(ordering: .relaxed) }
    /// Offloaded requests running or waiting on the worker pool.
    public var offloadedInFlight: Int { core.workers.inFlight }
    /// Bytes held for responses (shared encoded bodies and what lagging connections hold).
    public var responseMemoryBytes: Int { core.memory.used }
    /// Whether `shutdown` has been called.
    public var isShuttingDown: Bool { core.isDraining }

    /// Ignores SIGPIPE for the whole process (the server already writes with MSG_NOSIGNAL).
    public static func ignoreSIGPIPE() { Socket.ignoreSIGPIPE() }
}

/// State shared by the accept path and every connection.
final class ServerCore: @unchecked Sendable {
    let configuration: HTTPServerConfiguration
    let router: Router
    let responder: Responder
    let metrics: HTTPMetrics
    let logger: Logger
    let loops: [EventLoop]
    let workers: WorkerPool
    let memory: ResponseMemory
    /// What the event streams together hold for their clients.
    let streamMemory: EventStreamMemory
    /// Open connections at their highest since memory was last given back (see `connectionClosed`).
    private let connectionPeak = Atomic<Int>(0)
    private let trimming = Atomic<Bool>(false)
    let openCount = Atomic<Int>(0)
    let streamCount = Atomic<Int>(0)
    let stopped = DispatchGroup()
    let serverHeaderLine: [UInt8]
    let highWater: Int
    let headerTimeoutNanos: UInt64
    let idleTimeoutNanos: UInt64
    let heartbeatNanos: UInt64
    let writeStallNanos: UInt64
    let pressureWriteStallNanos: UInt64

    /// Confined to `acceptQueue`.
    private let acceptQueue = DispatchQueue(label: "http.accept", qos: .userInitiated)
    private var listenFD: Int32 = -1
    private var acceptSource: DispatchSourceRead?
    private var nextLoop = 0
    private let state = Mutex(LifeState.idle)
    /// Set with `state` becoming `.draining` and never cleared: read on every request and loop
    /// turn, so a load rather than a lock.
    private let draining = Atomic<Bool>(false)
    private(set) var address: BoundAddress?

    enum LifeState { case idle, running, draining, stopped }

    /// The budget of a request going to the worker pool (``HTTPServerConfiguration/requestCPULimit``).
    func makeBudget() -> WorkBudget {
        WorkBudget(cpuLimitSeconds: configuration.requestCPULimit)
    }

    init(configuration: HTTPServerConfiguration, router: Router, responder: Responder, metrics: HTTPMetrics, logger: Logger) {
        self.configuration = configuration
        self.router = router
        self.responder = responder
        self.metrics = metrics
        self.logger = logger
        loops = (0..<max(1, configuration.eventLoopCount)).map { EventLoop(index: $0) }
        workers = WorkerPool(
            size: configuration.workerPoolSize, computeQueueLimit: configuration.computeQueueLimit,
            heavyQueueLimit: configuration.heavyQueueLimit, name: "http.worker")
        memory = ResponseMemory(limit: configuration.responseMemoryLimit, ledger: configuration.memoryLedger)
        streamMemory = EventStreamMemory(limit: configuration.eventStreamMemoryLimit)
        serverHeaderLine = Array("Server: \(configuration.serverName)\r\n".utf8)
        highWater = max(16 * 1024, configuration.outputHighWaterMark)
        headerTimeoutNanos = nanos(configuration.headerReadTimeout)
        idleTimeoutNanos = nanos(configuration.idleTimeout)
        heartbeatNanos = nanos(configuration.eventStreamHeartbeatInterval)
        writeStallNanos = nanos(configuration.writeStallTimeout)
        pressureWriteStallNanos = nanos(configuration.pressureWriteStallTimeout)
        let memory = self.memory, workers = self.workers, streamMemory = self.streamMemory
        metrics.registry.gauge("http_sse_held_bytes", help: "Bytes the event streams together hold for their clients (queued and unsent); past the limit the slowest stream is dropped.") { Double(streamMemory.total) }
        metrics.registry.gauge("http_sse_held_limit_bytes", help: "The limit on what event streams together may hold.") { Double(streamMemory.limit) }
        metrics.registry.gauge("http_response_memory_bytes", help: "Bytes held for responses: shared encoded bodies plus what lagging connections hold on their own.") { Double(memory.used) }
        metrics.registry.gauge("http_response_memory_limit_bytes", help: "The response-memory limit beyond which offloaded requests get 503.") { Double(memory.limit) }
        metrics.registry.gauge("http_worker_jobs", help: "Requests running or waiting on the worker pool.") { Double(workers.inFlight) }
        let loops = Double(configuration.eventLoopCount), pool = Double(configuration.workerPoolSize)
        metrics.registry.gauge("http_event_loops", help: "Event loops (epoll threads) connections are spread over.") { loops }
        metrics.registry.gauge("http_worker_threads", help: "Worker-pool threads.") { pool }
        let quota = CPUQuota.limit
        metrics.registry.gauge("process_cpu_quota_cores", help: "CPUs the cgroup CPU quota allows (quota / period); 0 when no quota is set.") { quota ?? 0 }
    }

    /// Draining or stopped (`.stopped` is only reached from `.draining`).
    var isDraining: Bool { draining.load(ordering: .acquiring) }

    func start() throws -> BoundAddress {
        try state.withLock { s in
            guard s == .idle else { throw SocketError(operation: "start (server already started)", code: EINVAL) }
            s = .running
        }
        Socket.ignoreSIGPIPE()
        router.freeze()
        let (fd, address) = try Socket.listen(host: configuration.host, port: configuration.port, backlog: configuration.backlog)
        listenFD = fd
        self.address = address
        stopped.enter()
        let shortest = [configuration.headerReadTimeout, configuration.idleTimeout, configuration.eventStreamHeartbeatInterval].filter { $0 > 0 }.min() ?? 1
        let tick = min(1.0, max(0.02, shortest / 5))
        // Replay needs a replayable chain and a route that replays; the key is the target and
        // the request headers either reads.
        if configuration.replaySlots > 0, let chain = responder.replay, let routeHeaders = router.replayKeyHeaders {
            let keyHeaders = chain.keyHeaders + routeHeaders.filter { !chain.keyHeaders.contains($0) }
            for loop in loops {
                loop.replayMemo = ReplayMemo(keyHeaders: keyHeaders, slots: configuration.replaySlots, byteLimit: configuration.replayBytes)
            }
        }
        for loop in loops {
            loop.start()
            loop.startTicking(every: tick)
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: acceptQueue)
        source.setEventHandler { [self] in acceptReady() }
        source.setCancelHandler { Socket.close(fd) }
        acceptSource = source
        source.resume()
        return address
    }

    private var acceptPaused = false
    /// The accept-failure warning, at most once per 10 s: at the descriptor limit accepts are
    /// retried every 100 ms and each retry fails again. Confined to `acceptQueue`.
    private var acceptFailureWarning = RepeatedWarning(intervalNanos: 10_000_000_000)

    private func acceptReady() {
        for _ in 0..<512 {
            switch Socket.accept(listenFD) {
            case .wouldBlock:
                return
            case .failed(let e):
                if e == ECONNABORTED || e == EINTR || e == EPROTO { continue }
                // Out of descriptors (EMFILE/ENFILE) or memory: pause accepting briefly rather than spin.
                if let heldBack = acceptFailureWarning.record(nowNanos: DispatchTime.now().uptimeNanoseconds) {
                    logger.warning("accept failed; pausing accepts for 100 ms", metadata: [
                        "errno": "\(e)", "error": "\(String(cString: strerror(e)))", "suppressed": .stringConvertible(heldBack),
                    ])
                }
                if let s = acceptSource, !acceptPaused {
                    acceptPaused = true
                    s.suspend()
                    acceptQueue.asyncAfter(deadline: .now() + .milliseconds(100)) { [self] in
                        if acceptPaused {
                            acceptPaused = false
                            acceptSource?.resume()
                        }
                    }
                }
                return
            case .accepted(let fd, let peer):
                let n = openCount.add(1, ordering: .relaxed).newValue
                if n > configuration.maxConnections || isDraining {
                    openCount.subtract(1, ordering: .relaxed)
                    shed(fd, peer: peer)
                    continue
                }
                metrics.openConnections.add(1)
                noteConnectionOpened(open: n)
                let loop = loops[nextLoop % loops.count]
                nextLoop &+= 1
                loop.execute { [self] in
                    let c = HTTPConnection(fd: fd, peer: peer, loop: loop, core: self)
                    loop.connections[ObjectIdentifier(c)] = c
                    c.start()
                    if isDraining { c.beginDrain() }
                }
            }
        }
    }

    /// The shed-connection warning, at most once a second.
    private let shedWarning = Mutex(RepeatedWarning(intervalNanos: 1_000_000_000))

    /// Beyond max connections: a best-effort 503 problem, then close. A warning is logged at
    /// most once a second, with the number shed since the previous one.
    private func shed(_ fd: Int32, peer: String) {
        metrics.shedConnections.increment()
        let now = DispatchTime.now().uptimeNanoseconds
        // The ones held back since the last warning, and this one.
        let report = shedWarning.withLock { $0.record(nowNanos: now) }.map { $0 + 1 }
        if let report, !isDraining {
            logger.warning("connections shed: at the connection limit", metadata: [
                "shed": .stringConvertible(report), "maxConnections": .stringConvertible(configuration.maxConnections), "peer": "\(peer)",
            ])
        }
        var problem = ProblemDetails(status: .serviceUnavailable, detail: isDraining ? "the server is shutting down" : "too many open connections; retry shortly")
        problem.instance = "/"
        let bytes = ResponseWriter.standalone(problem: problem, serverHeaderLine: serverHeaderLine, retryAfter: configuration.retryAfterSeconds)
        _ = bytes.withUnsafeBytes { Socket.write(fd, $0.baseAddress!, $0.count) }
        Socket.shutdownOutput(fd)
        Socket.close(fd)
    }

    func connectionClosed() {
        metrics.openConnections.add(-1)
        let remaining = openCount.subtract(1, ordering: .relaxed).newValue
        if remaining == 0, isDraining { finishStop() }
        giveBackMemoryAfterBurst(open: remaining)
    }

    /// When a burst of connections has gone (at most half of the most open since the last time,
    /// and at least `trimAfterConnections` fewer), what they freed is given back to the system
    /// (`malloc_trim`, on a utility queue, one at a time): the allocator otherwise keeps it, and
    /// 6,000 streams that came and went left the process 80 MB larger.
    private func giveBackMemoryAfterBurst(open: Int) {
        let peak = connectionPeak.load(ordering: .relaxed)
        guard peak - open >= Self.trimAfterConnections, open <= peak / 2,
              trimming.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return }
        connectionPeak.store(open, ordering: .relaxed)
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .milliseconds(500)) { [self] in
            ServerProcess.releaseFreedMemory()
            trimming.store(false, ordering: .releasing)
        }
    }

    static let trimAfterConnections = 256

    /// A connection opened: the peak for `giveBackMemoryAfterBurst`.
    func noteConnectionOpened(open: Int) {
        var peak = connectionPeak.load(ordering: .relaxed)
        while open > peak {
            let (exchanged, original) = connectionPeak.compareExchange(expected: peak, desired: open, ordering: .relaxed)
            if exchanged { break }
            peak = original
        }
    }

    func streamOpened() {
        streamCount.add(1, ordering: .relaxed)
        metrics.openStreams.add(1)
    }

    func streamClosed() {
        streamCount.subtract(1, ordering: .relaxed)
        metrics.openStreams.add(-1)
    }

    func shutdown(deadline: Double) {
        let proceed: Bool = state.withLock { s in
            guard s == .running else { return false }
            s = .draining
            draining.store(true, ordering: .releasing)
            return true
        }
        guard proceed else { return }
        logger.info("shutting down", metadata: ["openConnections": "\(openCount.load(ordering: .relaxed))", "deadlineSeconds": "\(deadline)"])
        acceptQueue.sync {
            if acceptPaused {
                acceptPaused = false
                acceptSource?.resume()
            }
            acceptSource?.cancel()
            acceptSource = nil
        }
        for loop in loops {
            loop.execute {
                for c in Array(loop.connections.values) { c.beginDrain() }
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + max(0, deadline)) { [self] in
            guard state.withLock({ $0 }) == .draining else { return }
            let open = openCount.load(ordering: .relaxed)
            if open > 0 {
                logger.warning("shutdown deadline reached; closing remaining connections", metadata: ["openConnections": "\(open)"])
            }
            for loop in loops {
                loop.execute {
                    for c in Array(loop.connections.values) { c.close(streamReason: .serverClosed) }
                }
            }
        }
        if openCount.load(ordering: .relaxed) == 0 { finishStop() }
    }

    private func finishStop() {
        let first: Bool = state.withLock { s in
            guard s == .draining else { return false }
            s = .stopped
            return true
        }
        guard first else { return }
        for loop in loops {
            loop.stopTicking()
            loop.stop()
        }
        workers.stop()
        logger.info("server stopped")
        stopped.leave()
    }
}
