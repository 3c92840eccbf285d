#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Logging

/// One client connection. Every method runs on `loop.queue` (the serial queue this connection
/// was assigned to), except `eventStreamNeedsService`, which only schedules work there.
///
/// Input: a read source feeds the pure `HTTPParser`; complete requests are answered in order
/// (pipelining). Output: responses are serialised into `out` and written without blocking;
/// on `EAGAIN` a write source waits for room. While unsent output is above the high-water mark
/// the connection stops parsing and reading (back-pressure) and stops pulling streamed bodies.
final class HTTPConnection: EventStreamSink, @unchecked Sendable {
    let fd: Int32
    let peer: String
    let loop: EventLoop
    let core: ServerCore

    private var parser: HTTPParser
    private var out: [UInt8] = []
    private var outSent = 0
    private var readSource: DispatchSourceRead?
    private var writeSource: DispatchSourceWrite?
    private var readSuspended = false
    private var writeSuspended = true
    private var pendingCancels = 0
    private(set) var closed = false
    private var inputClosed = false
    /// The response being written is the last: close (lingering) once it is flushed.
    private var closeWhenFlushed = false
    private var phase: Phase = .ready
    private var requestCount = 0
    private var headStartedAt: UInt64 = 0
    private var lastActivity: UInt64
    private var lastWriteAt: UInt64
    /// When unsent output started waiting for the client (0 = nothing waiting).
    private var stallSince: UInt64 = 0
    private var lingerDeadline: UInt64 = 0
    private var lingerBytes = 0
    private var draining = false

    private enum Phase {
        /// Parsing requests and answering them inline.
        case ready
        /// An offloaded handler is running on the worker pool.
        case awaiting(Exchange)
        /// Pulling a chunked body from its producer.
        case pulling(Exchange, BodyProducer)
        /// An event stream owns the connection.
        case streaming(Exchange, EventStream)
        /// The last response is out; reading and discarding until the client closes.
        case lingering
    }

    /// Bookkeeping for one response in flight.
    private struct Exchange {
        let request: HTTPRequest
        var method: HTTPMethod { request.method }
        var http10: Bool { request.version == .http1_0 }
        var keepAlive: Bool
        let requestId: String
        let hooks: CompletionHooks
        var status: HTTPStatus = .ok
        var chunked = true
        var bodyBytes = 0
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
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: loop.queue)
        source.setEventHandler { [self] in onReadable() }
        source.setCancelHandler { [self] in sourceCancelled() }
        pendingCancels += 1
        readSource = source
        source.resume()
    }

    private var unsent: Int { out.count - outSent }

    // MARK: - input

    /// Reads until the socket is drained (`EAGAIN`), the connection stops wanting input, or a
    /// per-event budget is spent. Draining matters: the read source may not fire again for a
    /// reset or EOF that arrived together with the data just read.
    private func onReadable() {
        var budget = 8
        while !closed, !readSuspended {
            if budget == 0 {
                // Fairness to the loop's other connections: continue on a later turn.
                loop.queue.async { [self] in
                    if !closed, !readSuspended { onReadable() }
                }
                return
            }
            budget -= 1
            let n = read(fd, loop.readBuffer.baseAddress, loop.readBuffer.count)
            if n > 0 {
                let now = monotonicNanos()
                lastActivity = now
                if case .lingering = phase {
                    lingerBytes += n
                    if lingerBytes > 4 << 20 { close(streamReason: .clientGone) }
                    continue
                }
                parser.append(UnsafeRawBufferPointer(start: loop.readBuffer.baseAddress, count: n))
                drive()
                if !closed {
                    if parser.isReceivingHead {
                        if headStartedAt == 0 { headStartedAt = now }
                    } else {
                        headStartedAt = 0
                    }
                }
            } else if n == 0 {
                inputClosed = true
                updateReadInterest()
                switch phase {
                case .lingering, .streaming:
                    close(streamReason: .clientGone)
                default:
                    drive()
                }
                return
            } else {
                let e = errno
                if e == EINTR { continue }
                if e == EAGAIN || e == EWOULDBLOCK { return }
                close(streamReason: .clientGone)
                return
            }
        }
    }

    /// Reads only while there is room to answer: not while output is backed up, and (while a
    /// response is in flight) not beyond 64 KiB of pipelined input.
    private func updateReadInterest() {
        guard let source = readSource, !closed else { return }
        var want = !inputClosed && unsent < core.highWater
        if want {
            switch phase {
            case .ready: break
            case .lingering: want = true
            default: want = parser.bufferedByteCount < 64 * 1024
            }
        }
        if want, readSuspended {
            readSuspended = false
            source.resume()
            // Input may already be waiting without a new edge to announce it.
            loop.queue.async { [self] in
                if !closed, !readSuspended { onReadable() }
            }
        } else if !want, !readSuspended {
            readSuspended = true
            source.suspend()
        }
    }

    // MARK: - the state machine

    /// Makes all the progress currently possible.
    private func drive() {
        while !closed {
            switch phase {
            case .lingering:
                return
            case .awaiting:
                _ = flushOut()
                updateReadInterest()
                return
            case .streaming(let exchange, let stream):
                if !serviceStream(exchange, stream) { return }
            case .pulling(let exchange, let producer):
                if !pump(exchange, producer) { return }
            case .ready:
                if !serviceReady() { return }
            }
        }
    }

    /// Parses and answers buffered requests. Returns true when `drive` should loop again.
    private func serviceReady() -> Bool {
        if closeWhenFlushed {
            if flushOut() { beginLingeringClose() }
            return false
        }
        var blockedByOutput = false
        parsing: while case .ready = phase, !closeWhenFlushed {
            if unsent >= core.highWater {
                blockedByOutput = true
                break
            }
            switch parser.next() {
            case .needMore:
                break parsing
            case .continueExpected:
                out.append(contentsOf: ResponseWriter.continue100)
            case .request(let request):
                handle(request)
                if closed { return false }
            case .error(let error):
                rejectRequest(error)
                break parsing
            }
        }
        guard case .ready = phase else { return true }
        let drained = flushOut()
        if closed { return false }
        if closeWhenFlushed {
            if drained { beginLingeringClose() }
            return false
        }
        if blockedByOutput, drained { return true }
        if inputClosed, drained {
            // The client half-closed: everything it sent has been answered (or was incomplete).
            close(streamReason: .clientGone)
            return false
        }
        if draining, drained, !parser.isMidRequest {
            close(streamReason: .serverClosed)
            return false
        }
        updateReadInterest()
        return false
    }

    private func handle(_ request: HTTPRequest) {
        requestCount += 1
        let now = monotonicNanos()
        headStartedAt = 0
        lastActivity = now
        let keepAlive = request.wantsKeepAlive && requestCount < core.configuration.maxRequestsPerConnection && !core.isDraining
        var context = RequestContext(
            internalRequestId: RequestID.resolve(request.headers), logger: core.logger, peer: peer,
            route: "unmatched", parameters: RouteParameters(), receivedAt: now
        )
        var offload = false
        switch core.router.match(request.method, path: request.path) {
        case .found(let route, let parameters):
            context.handler = route.handler
            context.route = route.pattern
            context.parameters = parameters
            offload = route.execution == .offloaded
        case .methodNotAllowed(let allowed):
            let list = allowed.map(\.rawValue).joined(separator: ", ")
            context.routingError = ProblemDetails(status: .methodNotAllowed, detail: "\(request.method) is not allowed on \(request.path); allowed: \(list)")
                .withHeader("Allow", list)
        case .notFound:
            context.routingError = ProblemDetails(status: .notFound, detail: "no resource at \(request.path)")
        }
        let exchange = Exchange(request: request, keepAlive: keepAlive, requestId: context.requestId, hooks: context.hooks)
        let responder = core.responder
        if offload {
            phase = .awaiting(exchange)
            let offloadedContext = context
            let accepted = core.workers.trySubmit { [self] in
                let response = responder.respond(to: request, context: offloadedContext)
                loop.queue.async { [self] in offloadFinished(response, exchange) }
            }
            if accepted { return }
            phase = .ready
            core.metrics.offloadRejected.increment()
            context.handler = nil
            context.routingError = ProblemDetails(status: .serviceUnavailable, detail: "every worker is busy with heavy requests; retry shortly")
                .withHeader("Retry-After", String(core.configuration.retryAfterSeconds))
        }
        startResponse(responder.respond(to: request, context: context), exchange)
    }

    private func offloadFinished(_ response: HTTPResponse, _ exchange: Exchange) {
        guard !closed else {
            exchange.hooks.run(ResponseOutcome(status: response.status, bodyBytes: 0, completed: false))
            return
        }
        phase = .ready
        startResponse(response, exchange)
        drive()
    }

    /// Writes the head and, for byte bodies, the body; streamed bodies switch the phase.
    private func startResponse(_ response: HTTPResponse, _ exchange: Exchange) {
        var exchange = exchange
        exchange.status = response.status
        let isHead = exchange.method == .head
        let mayHaveBody = response.status.mayHaveBody
        if core.isDraining { exchange.keepAlive = false }
        ResponseWriter.appendHead(status: response.status, headers: response.headers, requestId: exchange.requestId, serverHeaderLine: core.serverHeaderLine, to: &out)
        switch response.body {
        case .bytes(let body):
            if mayHaveBody {
                out.append(contentsOf: "Content-Length: ".utf8)
                ResponseWriter.appendDecimal(body.count, to: &out)
                out.append(contentsOf: ResponseWriter.crlf)
            }
            appendConnectionHeader(exchange)
            out.append(contentsOf: ResponseWriter.crlf)
            let sent = isHead || !mayHaveBody ? 0 : body.count
            if sent > 0 { out.append(contentsOf: body) }
            finishExchange(exchange, bodyBytes: sent, completed: true)
        case .pull(let producer):
            if mayHaveBody {
                if exchange.http10 { exchange.keepAlive = false; exchange.chunked = false } else { out.append(contentsOf: "Transfer-Encoding: chunked\r\n".utf8) }
            }
            appendConnectionHeader(exchange)
            out.append(contentsOf: ResponseWriter.crlf)
            if isHead || !mayHaveBody {
                finishExchange(exchange, bodyBytes: 0, completed: true)
            } else {
                phase = .pulling(exchange, producer)
            }
        case .eventStream(let setup):
            if mayHaveBody {
                if exchange.http10 { exchange.keepAlive = false; exchange.chunked = false } else { out.append(contentsOf: "Transfer-Encoding: chunked\r\n".utf8) }
            }
            appendConnectionHeader(exchange)
            out.append(contentsOf: ResponseWriter.crlf)
            if isHead || !mayHaveBody {
                finishExchange(exchange, bodyBytes: 0, completed: true)
            } else {
                let stream = EventStream(request: exchange.request, queueLimitBytes: core.configuration.eventStreamQueueLimit, sink: self)
                phase = .streaming(exchange, stream)
                lastWriteAt = monotonicNanos()
                core.streamOpened()
                setup(stream)
                if draining { shutDownStream(stream) }
            }
        }
    }

    private func appendConnectionHeader(_ exchange: Exchange) {
        if !exchange.keepAlive {
            out.append(contentsOf: "Connection: close\r\n".utf8)
        } else if exchange.http10 {
            out.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
    }

    private func finishExchange(_ exchange: Exchange, bodyBytes: Int, completed: Bool) {
        phase = .ready
        if !exchange.keepAlive || core.isDraining { closeWhenFlushed = true }
        if parser.isReceivingHead { headStartedAt = monotonicNanos() }
        exchange.hooks.run(ResponseOutcome(status: exchange.status, bodyBytes: bodyBytes, completed: completed))
    }

    /// A request the parser refused: answer with a problem and close.
    private func rejectRequest(_ error: HTTPParseError) {
        core.metrics.protocolErrors.increment(labels: [String(error.status.code)])
        core.logger.info("rejected request", metadata: [
            "status": .stringConvertible(error.status.code), "detail": "\(error.detail)", "peer": "\(peer)",
        ])
        writeFinal(error.problem)
    }

    /// Queues a standalone `Connection: close` problem response and stops reading requests.
    private func writeFinal(_ problem: ProblemDetails) {
        out.append(contentsOf: ResponseWriter.standalone(problem: problem, serverHeaderLine: core.serverHeaderLine, retryAfter: core.configuration.retryAfterSeconds))
        closeWhenFlushed = true
    }

    // MARK: - streamed bodies

    /// Pulls chunks while there is room. True when the body ended (phase is `.ready` again).
    private func pump(_ exchange: Exchange, _ producer: BodyProducer) -> Bool {
        var exchange = exchange
        var emptyInARow = 0
        while true {
            while unsent < core.highWater {
                let chunk: [UInt8]?
                do {
                    chunk = try producer.nextChunk()
                } catch {
                    core.logger.error("streamed body failed; closing the connection", metadata: [
                        "error": "\(String(reflecting: error))", "requestId": "\(exchange.requestId)", "peer": "\(peer)",
                    ])
                    exchange.hooks.run(ResponseOutcome(status: exchange.status, bodyBytes: exchange.bodyBytes, completed: false))
                    phase = .ready
                    _ = flushOut()
                    close(streamReason: .serverClosed)
                    return false
                }
                guard let chunk else {
                    if exchange.chunked { out.append(contentsOf: ResponseWriter.lastChunk) }
                    finishExchange(exchange, bodyBytes: exchange.bodyBytes, completed: true)
                    return true
                }
                if chunk.isEmpty {
                    emptyInARow += 1
                    if emptyInARow > 64 {
                        // A producer with nothing to say right now: come back later.
                        phase = .pulling(exchange, producer)
                        loop.queue.async { [self] in drive() }
                        return false
                    }
                    continue
                }
                emptyInARow = 0
                exchange.bodyBytes += chunk.count
                if exchange.chunked { ResponseWriter.appendChunkHeader(chunk.count, to: &out) }
                out.append(contentsOf: chunk)
                if exchange.chunked { out.append(contentsOf: ResponseWriter.crlf) }
            }
            phase = .pulling(exchange, producer)
            if !flushOut() {
                updateReadInterest()
                return false
            }
        }
    }

    /// Moves queued events to the socket. True when the stream ended and `drive` should go on.
    private func serviceStream(_ exchange: Exchange, _ stream: EventStream) -> Bool {
        var exchange = exchange
        let d = stream.drain()
        if d.overflowed {
            dropStream(exchange, stream)
            return false
        }
        if !d.bytes.isEmpty {
            appendStreamBytes(d.bytes, exchange)
            exchange.bodyBytes += d.bytes.count
            lastWriteAt = monotonicNanos()
            phase = .streaming(exchange, stream)
        }
        if d.closeRequested {
            if exchange.chunked { out.append(contentsOf: ResponseWriter.lastChunk) }
            endStream(stream, reason: .closedByApp)
            core.streamClosed()
            finishExchange(exchange, bodyBytes: exchange.bodyBytes, completed: true)
            return true
        }
        let drained = flushOut()
        if closed { return false }
        if stream.setUnsentOnWire(drained ? 0 : unsent) {
            dropStream(exchange, stream)
            return false
        }
        updateReadInterest()
        return false
    }

    private func appendStreamBytes(_ bytes: [UInt8], _ exchange: Exchange) {
        if exchange.chunked { ResponseWriter.appendChunkHeader(bytes.count, to: &out) }
        out.append(contentsOf: bytes)
        if exchange.chunked { out.append(contentsOf: ResponseWriter.crlf) }
    }

    private func dropStream(_ exchange: Exchange, _ stream: EventStream) {
        core.metrics.droppedStreams.increment()
        core.logger.warning("event stream dropped: the client stopped reading and its queue overflowed", metadata: [
            "peer": "\(peer)", "requestId": "\(exchange.requestId)", "queueLimitBytes": .stringConvertible(stream.queueLimitBytes),
            "unsentBytes": .stringConvertible(unsent),
        ])
        close(streamReason: .dropped)
    }

    /// Ends the stream's life as seen by the app (close handlers run once).
    private func endStream(_ stream: EventStream, reason: EventStream.CloseReason) {
        for handler in stream.finish(reason) { handler(reason) }
    }

    func eventStreamNeedsService() {
        loop.queue.async { [self] in
            guard !closed else { return }
            if case .streaming = phase { drive() }
        }
    }

    private func shutDownStream(_ stream: EventStream) {
        let handlers = stream.beginShutdown()
        if handlers.isEmpty {
            stream.close()
        } else {
            for h in handlers { h() }
        }
    }

    // MARK: - output

    /// Writes as much of `out` as the socket takes. True when everything is written.
    private func flushOut() -> Bool {
        while outSent < out.count {
            let n = out.withUnsafeBytes { raw in Socket.write(fd, raw.baseAddress! + outSent, raw.count - outSent) }
            if n > 0 {
                outSent += n
                stallSince = 0
                continue
            }
            if n == 0 {
                if stallSince == 0 { stallSince = monotonicNanos() }
                armWriteSource()
                return false
            }
            close(streamReason: .clientGone)
            return false
        }
        if out.capacity > 64 * 1024 {
            out = []
        } else {
            out.removeAll(keepingCapacity: true)
        }
        outSent = 0
        stallSince = 0
        disarmWriteSource()
        return true
    }

    private func armWriteSource() {
        if let ws = writeSource {
            if writeSuspended {
                writeSuspended = false
                ws.resume()
            }
            return
        }
        let ws = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: loop.queue)
        ws.setEventHandler { [self] in onWritable() }
        ws.setCancelHandler { [self] in sourceCancelled() }
        pendingCancels += 1
        writeSource = ws
        writeSuspended = false
        ws.resume()
    }

    private func disarmWriteSource() {
        if let ws = writeSource, !writeSuspended {
            writeSuspended = true
            ws.suspend()
        }
    }

    private func onWritable() {
        guard !closed else { return }
        if flushOut() {
            drive()
        } else if !closed, case .streaming(_, let stream) = phase, stream.setUnsentOnWire(unsent) {
            if case .streaming(let exchange, _) = phase { dropStream(exchange, stream) }
        }
    }

    // MARK: - timers (called by the loop's tick)

    func tick(_ now: UInt64) {
        guard !closed else { return }
        let idle = core.idleTimeoutNanos
        if stallSince != 0, idle > 0, now &- stallSince > idle {
            // The client stopped reading what we send.
            core.metrics.timeouts.increment(labels: ["write"])
            close(streamReason: .clientGone)
            return
        }
        switch phase {
        case .lingering:
            if now >= lingerDeadline { close(streamReason: .clientGone) }
        case .ready:
            if closeWhenFlushed { return }
            if headStartedAt != 0, parser.isReceivingHead, core.headerTimeoutNanos > 0, now &- headStartedAt > core.headerTimeoutNanos {
                core.metrics.timeouts.increment(labels: ["header"])
                writeFinal(ProblemDetails(status: .requestTimeout, detail: "the request head did not arrive within \(core.configuration.headerReadTimeout) s"))
                drive()
            } else if parser.isMidRequest, !parser.isReceivingHead, idle > 0, now &- lastActivity > idle {
                core.metrics.timeouts.increment(labels: ["body"])
                writeFinal(ProblemDetails(status: .requestTimeout, detail: "the request body stalled for \(core.configuration.idleTimeout) s"))
                drive()
            } else if !parser.isMidRequest, unsent == 0, idle > 0, now &- lastActivity > idle {
                core.metrics.timeouts.increment(labels: ["idle"])
                close(streamReason: .clientGone)
            }
        case .streaming(let exchange, _):
            if core.heartbeatNanos > 0, now &- lastWriteAt >= core.heartbeatNanos {
                appendStreamBytes(ResponseWriter.heartbeat, exchange)
                lastWriteAt = now
                drive()
            }
        case .awaiting, .pulling:
            break
        }
    }

    // MARK: - shutdown and close

    /// Server shutdown: idle connections close now, busy ones after their response, streams
    /// are asked to end.
    func beginDrain() {
        guard !closed else { return }
        draining = true
        switch phase {
        case .ready:
            if !parser.isMidRequest, unsent == 0, !closeWhenFlushed { close(streamReason: .serverClosed) }
        case .streaming(_, let stream):
            shutDownStream(stream)
        default:
            break
        }
    }

    /// After the final response: half-close, then read and discard until the client closes (or
    /// 2 s pass), so unread request bytes cannot turn our close into a reset that destroys the
    /// response before the client reads it.
    private func beginLingeringClose() {
        guard !closed else { return }
        if inputClosed {
            close(streamReason: .clientGone)
            return
        }
        shutdown(fd, Int32(SHUT_WR))
        phase = .lingering
        lingerDeadline = monotonicNanos() &+ 2_000_000_000
        updateReadInterest()
    }

    func close(streamReason: EventStream.CloseReason) {
        guard !closed else { return }
        closed = true
        switch phase {
        case .streaming(let exchange, let stream):
            endStream(stream, reason: streamReason)
            core.streamClosed()
            exchange.hooks.run(ResponseOutcome(status: exchange.status, bodyBytes: exchange.bodyBytes, completed: false))
        case .pulling(let exchange, _):
            exchange.hooks.run(ResponseOutcome(status: exchange.status, bodyBytes: exchange.bodyBytes, completed: false))
        default:
            break
        }
        phase = .lingering
        if let rs = readSource {
            if readSuspended { rs.resume() }
            rs.cancel()
        }
        if let ws = writeSource {
            if writeSuspended { ws.resume() }
            ws.cancel()
        }
        readSource = nil
        writeSource = nil
        if pendingCancels == 0 { Glibc.close(fd) }
        loop.connections.removeValue(forKey: ObjectIdentifier(self))
        core.connectionClosed()
    }

    private func sourceCancelled() {
        pendingCancels -= 1
        if pendingCancels == 0 { Glibc.close(fd) }
    }
}
