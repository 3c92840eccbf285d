import Glibc
import Logging

extension HTTPConnection {
    // MARK: - reading

    /// Reads what the socket holds, once, as nginx does: a read that does not fill the buffer
    /// took everything there was, so the connection waits for the loop's next turn (interest is
    /// level-triggered: bytes that arrive meanwhile are reported then) instead of reading again.
    /// Reading again right after answering found `EAGAIN` (a wasted system call) or, when the
    /// client had already sent its next request, served that connection again ahead of the
    /// loop's other ready ones: under wrk -c64 that gave fast and slow connections, p50 below
    /// nginx's but p99 1.3x it. A read that fills the buffer goes on, up to a per-event budget;
    /// so does a stop when the connection no longer wants input.
    func onReadable() {
        loop.assertOnLoop()
        var budget = 8
        while !closed, !readSuspended {
            if budget == 0 { return }
            budget -= 1
            let n = Socket.read(fd, loop.readBuffer)
            if n > 0 {
                let now = monotonicNanos()
                lastActivity = now
                if case .lingering = phase {
                    lingerBytes += n
                    if lingerBytes > 4 << 20 { close(streamReason: .clientGone) }
                    if n < loop.readBuffer.count { return }
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
                if n < loop.readBuffer.count { return }
            } else if n == 0 {
                inputClosed = true
                // Like nginx, a client that closes its side while its answer is being computed or
                // streamed has gone: the work for it stops at its next check.
                phase.exchange?.budget?.cancel(.clientGone)
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
    func updateReadInterest() {
        guard !closed else { return }
        var want = !inputClosed && output.unsent < core.highWater
        if want {
            switch phase {
            case .ready: break
            case .lingering: want = true
            default: want = parser.bufferedByteCount < 64 * 1024
            }
        }
        if want == readSuspended {
            // Input already waiting is reported on the loop's next turn (level-triggered).
            readSuspended = !want
            applyInterest()
        }
    }

    // MARK: - requests

    /// Parses and answers buffered requests. Returns true when `drive` should loop again.
    func serviceReady() -> Bool {
        if closeWhenFlushed {
            if flush() { beginLingeringClose() }
            return false
        }
        var blockedByOutput = false
        parsing: while case .ready = phase, !closeWhenFlushed {
            if output.unsent >= core.highWater {
                blockedByOutput = true
                break
            }
            switch parser.next() {
            case .needMore:
                break parsing
            case .continueExpected:
                output.append(ResponseWriter.continue100)
            case .request(let request):
                handle(request)
                if closed { return false }
            case .error(let error):
                rejectRequest(error)
                break parsing
            }
        }
        guard case .ready = phase else { return true }
        let drained = flush()
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
        if draining, drained {
            // Shutting down: nothing in flight, and a half-received request will not be finished.
            close(streamReason: .serverClosed)
            return false
        }
        updateReadInterest()
        return false
    }

    /// Routes `request` and answers it: `.light` routes and planners run here, on the loop;
    /// everything else is offloaded to the worker pool and answered when it comes back.
    func handle(_ request: HTTPRequest) {
        requestCount += 1
        let now = monotonicNanos()
        headStartedAt = 0
        lastActivity = now
        let keepAlive = request.wantsKeepAlive && requestCount < core.configuration.maxRequestsPerConnection && !core.isDraining
        let requestId = RequestID.resolve(request.headers)
        // An answer kept for exactly this request is sent again, while its planner's condition holds.
        if let memo = loop.replayMemo, request.method == .get, request.body.isEmpty, let (slot, entry) = memo.find(request) {
            if entry.condition() {
                replay(entry, request, requestId: requestId, keepAlive: keepAlive, receivedAt: now)
                return
            }
            memo.remove(slot: slot)
        }
        var context = RequestContext(
            internalRequestId: requestId, logger: core.logger, peer: peer,
            route: "unmatched", parameters: RouteParameters(), receivedAt: now
        )
        context.isOnEventLoop = true
        let exchange = Exchange(request: request, keepAlive: keepAlive, requestId: context.requestId, hooks: context.hooks)
        if let location = Router.canonicalTarget(request.target) {
            context.route = "redirect"
            context.handler = { _, _ in
                HTTPResponse(status: .permanentRedirect, headers: ["Location": location, "Cache-Control": "public, max-age=86400"])
            }
            respondInline(request, context, exchange)
            return
        }
        switch core.router.match(request.method, path: request.path) {
        case .found(let route, let parameters):
            context.route = route.pattern
            context.parameters = parameters
            let lane: WorkerPool.Lane = route.cost == .heavy ? .heavy : .compute
            switch route.action {
            case .handler(let handler):
                if route.cost == .light {
                    context.handler = handler
                    respondInline(request, context, exchange)
                } else {
                    offload(request, context, exchange, lane: lane, answers: route.answers, handler: handler)
                }
            case .planner(let planner):
                let plan: Router.Plan
                do {
                    plan = try planner(request, context)
                } catch {
                    context.handler = { _, _ in throw error }
                    respondInline(request, context, exchange)
                    return
                }
                switch plan {
                case .respond(let response):
                    context.handler = { _, _ in response }
                    let answer = core.responder.respond(to: request, context: context)
                    if answer.replayCondition != nil, route.replayKeyHeaders != nil, request.method == .get, request.body.isEmpty,
                       answer.status == .ok, let memo = loop.replayMemo, let chain = core.responder.replay {
                        let actions = chain.actions(for: ReplayedAnswer(method: request.method, path: request.path, route: route.pattern, status: answer.status))
                        memo.insert(answer, for: request, route: route.pattern, actions: actions)
                    }
                    startResponse(answer, exchange)
                case .offload(let cost, let work):
                    let planned: WorkerPool.Lane = cost.map { $0 == .heavy ? .heavy : .compute } ?? lane
                    offload(request, context, exchange, lane: planned, answers: route.answers) { _, _ in try work() }
                }
            }
        case .methodNotAllowed(let allowed):
            let list = allowed.map(\.rawValue).joined(separator: ", ")
            context.routingError = ProblemDetails(status: .methodNotAllowed, detail: "\(request.method) is not allowed on \(request.path); allowed: \(list)")
                .withHeader("Allow", list)
            respondInline(request, context, exchange)
        case .notFound:
            context.routingError = ProblemDetails(status: .notFound, detail: "no resource at \(request.path)")
            respondInline(request, context, exchange)
        }
    }

    /// Runs the middleware chain here, on the loop.
    private func respondInline(_ request: HTTPRequest, _ context: RequestContext, _ exchange: Exchange) {
        startResponse(core.responder.respond(to: request, context: context), exchange)
    }

    /// Runs the chain around `handler` on the worker pool; the connection waits (its loop keeps
    /// serving every other connection) and answers when the result hops back. Refused with 503
    /// and `Retry-After` when the lane's wait list is full or, for routes with `.large` answers,
    /// when response memory is over its limit, checked again when the job starts (a burst
    /// admitted at once is not all let through while the first answers are still being charged).
    private func offload(_ request: HTTPRequest, _ context: RequestContext, _ exchange: Exchange, lane: WorkerPool.Lane, answers: Router.AnswerSize, handler: @escaping Router.Handler) {
        var refusal = Refusal.memory
        let core = core
        let heldBack: @Sendable () -> Bool = { answers == .large && core.memory.isOverLimit }
        if !heldBack() {
            var offloaded = context
            offloaded.isOnEventLoop = false
            offloaded.handler = handler
            let workerContext = offloaded
            var exchange = exchange
            let budget = core.makeBudget()
            exchange.budget = budget
            phase = .awaiting(exchange)
            let accepted = core.workers.trySubmit(lane) { [self, exchange] in
                let response: HTTPResponse
                if heldBack() {
                    response = core.responder.respond(to: request, context: refused(workerContext, .memory))
                } else if let problem = budget.stopProblem() {
                    // The client left while the request waited for a worker: nothing to compute.
                    var stopped = workerContext
                    stopped.handler = nil
                    stopped.routingError = problem
                    response = core.responder.respond(to: request, context: stopped)
                } else {
                    response = budget.run { core.responder.respond(to: request, context: workerContext) }
                }
                loop.execute { [self] in offloadFinished(response, exchange) }
            }
            if accepted { return }
            phase = .ready
            refusal = .workers
        }
        respondInline(request, refused(context, refusal), exchange)
    }

    enum Refusal: String { case memory, workers }

    /// The context of a request refused with 503 and `Retry-After` (counted by reason).
    private func refused(_ context: RequestContext, _ reason: Refusal) -> RequestContext {
        core.metrics.offloadRejected.increment(labels: [reason.rawValue])
        var refused = context
        refused.handler = nil
        refused.routingError = ProblemDetails(
            status: .serviceUnavailable,
            detail: reason == .memory ? "the server is holding as much response data as it may; retry shortly" : "every worker is busy; retry shortly"
        ).withHeader("Retry-After", String(core.configuration.retryAfterSeconds))
        return refused
    }

    private func offloadFinished(_ response: HTTPResponse, _ exchange: Exchange) {
        loop.assertOnLoop()
        guard !closed else {
            exchange.hooks.run(ResponseOutcome(status: response.status, bodyBytes: 0, completed: false))
            return
        }
        phase = .ready
        startResponse(response, exchange)
        drive()
    }

    /// A request the parser refused: answer with a problem and close.
    func rejectRequest(_ error: HTTPParseError) {
        core.metrics.protocolErrors.increment(labels: [String(error.status.code)])
        core.logger.info("rejected request", metadata: [
            "status": .stringConvertible(error.status.code), "detail": "\(error.detail)", "peer": "\(peer)",
        ])
        writeFinal(error.problem)
    }

    /// Queues a standalone `Connection: close` problem response and stops reading requests.
    func writeFinal(_ problem: ProblemDetails) {
        output.append(ResponseWriter.standalone(problem: problem, serverHeaderLine: core.serverHeaderLine, retryAfter: core.configuration.retryAfterSeconds))
        closeWhenFlushed = true
    }
}
