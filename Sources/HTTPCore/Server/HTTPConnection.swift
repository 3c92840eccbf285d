import Logging

/// One client connection. Its state is confined to its loop's thread (debug builds assert it),
/// except `eventStreamNeedsService`, which only schedules work there, and the jobs it hands the
/// worker pool, which touch nothing but their own inputs and hop back to the loop with their
/// results.
///
/// Input (`HTTPConnection+Input.swift`): readiness from the loop's epoll feeds the pure
/// `HTTPParser`; complete requests are routed and answered in order (pipelining): `.light` routes
/// right here, everything else on the worker pool. Output (`+Output.swift`): responses go into
/// an `OutputQueue` written without blocking; on `EAGAIN` the connection asks the loop for
/// writability. While unsent output is above the high-water mark the connection stops parsing
/// and reading (back-pressure) and stops asking for more of a streamed body (`+Bodies.swift`).
/// Timers and shutdown: `+Lifecycle.swift`.
final class HTTPConnection: EventStreamSink, LoopRegistrant, @unchecked Sendable {
    let fd: Int32
    let peer: String
    let loop: EventLoop
    let core: ServerCore

    var parser: HTTPParser
    var output = OutputQueue()
    /// What the body being pulled keeps between chunks (`BodyProducer.retainedBytes`).
    var producerBytes = 0
    /// `output.ownedUnsent + producerBytes` as last reported to the server's response-memory budget.
    var accountedBytes = 0
    /// Not watching for input (back-pressure, or input closed).
    var readSuspended = false
    /// Not watching for room to write (nothing waits to be written).
    var writeSuspended = true
    private(set) var closed = false
    var inputClosed = false
    /// The response being written is the last: close (lingering) once it is flushed.
    var closeWhenFlushed = false
    var phase: Phase = .ready
    var requestCount = 0
    var headStartedAt: UInt64 = 0
    var lastActivity: UInt64
    var lastWriteAt: UInt64
    /// Since when unsent output has made no progress (0 = nothing waiting).
    var stallSince: UInt64 = 0
    var lingerDeadline: UInt64 = 0
    var lingerBytes = 0
    var draining = false

    enum Phase {
        /// Parsing requests and answering them.
        case ready
        /// The response is being computed on the worker pool.
        case awaiting(Exchange)
        /// Sending a chunked body; `producing` while a worker makes the next chunks.
        case pulling(Exchange, BodyProducer, producing: Bool)
        /// An event stream owns the connection.
        case streaming(Exchange, EventStream)
        /// The last response is out; reading and discarding until the client closes.
        case lingering

        /// The response in flight, if any.
        var exchange: Exchange? {
            switch self {
            case .awaiting(let e), .pulling(let e, _, _), .streaming(let e, _): return e
            case .ready, .lingering: return nil
            }
        }
    }

    /// Bookkeeping for one response in flight.
    struct Exchange {
        let request: HTTPRequest
        var method: HTTPMethod { request.method }
        var http10: Bool { request.version == .http1_0 }
        var keepAlive: Bool
        let requestId: String
        let hooks: CompletionHooks
        var status: HTTPStatus = .ok
        var chunked = true
        var bodyBytes = 0
        /// What the request may still spend on the worker pool (made when it first goes there).
        var budget: WorkBudget?
    }

    init(fd: Int32, peer: String, loop: EventLoop, core: ServerCore) {
        self.fd = fd
        self.peer = peer
        self.loop = loop
        self.core = core
        parser = HTTPParser(limits: core.configuration.limits)
        let now = monotonicNanos()
        lastActivity = now
        lastWriteAt = now
    }

    func start() {
        loop.assertOnLoop()
        loop.register(fd, self, readable: true, writable: false)
    }

    /// Tells the loop what the connection waits for now.
    func applyInterest() {
        guard !closed else { return }
        loop.setInterest(fd, readable: !readSuspended, writable: !writeSuspended)
    }

    /// Readiness from the loop. A failure (`EPOLLERR`, `EPOLLHUP`) is met by the read or the
    /// write that reports it; a connection watching for neither has lost its client.
    func loopEvent(readable: Bool, writable: Bool, failed: Bool) {
        if readable || (failed && !readSuspended) { onReadable() }
        if !closed, writable || (failed && !writeSuspended) { onWritable() }
        if failed, !closed, readSuspended, writeSuspended { close(streamReason: .clientGone) }
    }

    // MARK: - the state machine

    /// Makes all the progress currently possible.
    func drive() {
        loop.assertOnLoop()
        while !closed {
            switch phase {
            case .lingering:
                return
            case .awaiting:
                flush()
                updateReadInterest()
                return
            case .streaming(let exchange, let stream):
                if !serviceStream(exchange, stream) { return }
            case .pulling(let exchange, let producer, let producing):
                if !pump(exchange, producer, producing: producing) { return }
            case .ready:
                if !serviceReady() { return }
            }
        }
    }

    // MARK: - close

    func close(streamReason: EventStream.CloseReason) {
        loop.assertOnLoop()
        guard !closed else { return }
        closed = true
        if let budget = phase.exchange?.budget { budget.cancel(streamReason == .serverClosed ? .serverStopping : .clientGone) }
        switch phase {
        case .streaming(let exchange, let stream):
            endStream(stream, reason: streamReason)
            core.streamClosed()
            exchange.hooks.run(ResponseOutcome(status: exchange.status, bodyBytes: exchange.bodyBytes, completed: false))
        case .pulling(let exchange, _, _):
            exchange.hooks.run(ResponseOutcome(status: exchange.status, bodyBytes: exchange.bodyBytes, completed: false))
        default:
            break
        }
        phase = .lingering
        output.discard()
        core.memory.adjust(by: -accountedBytes)
        accountedBytes = 0
        producerBytes = 0
        loop.unregister(fd)
        Socket.close(fd)
        loop.connections.removeValue(forKey: ObjectIdentifier(self))
        core.connectionClosed()
    }
}
