import HTTPCore

/// Counts requests by route pattern, method and status, observes the latency histogram, and
/// adds response body bytes when each response completes.
public struct MetricsMiddleware: ReplayableMiddleware {
    let metrics: HTTPMetrics

    public init(metrics: HTTPMetrics) { self.metrics = metrics }

    public func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPNext) throws -> HTTPResponse {
        let method = HTTPMetrics.methodLabel(request.method)
        let response: HTTPResponse
        do {
            response = try next(request, context)
        } catch {
            // Errors normally become responses inside (ErrorMiddleware); count escapes as 500.
            record(route: context.route, method: method, status: 500, context: context)
            throw error
        }
        record(route: context.route, method: method, status: response.status.code, context: context)
        let bytes = metrics.responseBytes.child([context.route])
        context.onResponseComplete { outcome in
            if outcome.bodyBytes > 0 { bytes.increment(by: Double(outcome.bodyBytes)) }
        }
        return response
    }

    /// A replay counts as a request of its route: the series are looked up once, when the
    /// answer is kept.
    public func replayAction(for answer: ReplayedAnswer) -> (@Sendable (ReplayedExchange) -> Void)? {
        let method = HTTPMetrics.methodLabel(answer.method)
        let requests = metrics.requests.child([answer.route, method, String(answer.status.code)])
        let duration = metrics.duration.child([answer.route, method])
        let bytes = metrics.responseBytes.child([answer.route])
        return { exchange in
            requests.increment()
            duration.observe(Double(monotonicNanos() &- exchange.receivedAtNanos) / 1e9)
            if exchange.bodyBytes > 0 { bytes.increment(by: Double(exchange.bodyBytes)) }
        }
    }

    private func record(route: String, method: String, status: Int, context: RequestContext) {
        metrics.requests.increment(labels: [route, method, String(status)])
        metrics.duration.observe(context.elapsedSeconds, labels: [route, method])
    }
}
