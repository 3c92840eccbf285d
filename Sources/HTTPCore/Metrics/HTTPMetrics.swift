/// The server's own series, registered on a `MetricsRegistry`. Route labels are matched
/// patterns (`/v1/bodies/{id}`) or `unmatched`, methods outside the standard set are `OTHER`:
/// cardinality stays bounded whatever clients send.
public final class HTTPMetrics: Sendable {
    public let registry: MetricsRegistry
    package let requests: Counter
    package let duration: Histogram
    package let responseBytes: Counter
    let shedConnections: Counter
    let droppedStreams: Counter
    let offloadRejected: Counter
    let protocolErrors: Counter
    let timeouts: Counter
    let replayed: Counter.Child
    let openConnections: Gauge
    let openStreams: Gauge

    public init(registry: MetricsRegistry) {
        self.registry = registry
        requests = registry.counter("http_requests_total", help: "HTTP requests answered, by matched route pattern, method and status.", labelNames: ["route", "method", "status"])
        duration = registry.histogram("http_request_duration_seconds", help: "Time from the complete request to the response handed to the connection, by route and method.", labelNames: ["route", "method"])
        responseBytes = registry.counter("http_response_bytes_total", help: "Response body bytes written, by route.", labelNames: ["route"])
        openConnections = registry.gauge("http_open_connections", help: "Client connections currently open.")
        openStreams = registry.gauge("http_sse_streams_open", help: "Server-sent-event streams currently open.")
        shedConnections = registry.counter("http_connections_shed_total", help: "Connections refused with 503 because max connections was reached.")
        droppedStreams = registry.counter("http_sse_streams_dropped_total", help: "Event streams dropped because the client stopped reading and the queue overflowed.")
        offloadRejected = registry.counter("http_offload_rejected_total", help: "Offloaded requests refused with 503, by reason: workers (the lane's wait list was full) or memory (response memory over its limit).", labelNames: ["reason"])
        protocolErrors = registry.counter("http_protocol_errors_total", help: "Requests rejected by the parser, by status.", labelNames: ["status"])
        timeouts = registry.counter("http_timeouts_total", help: "Connections closed by a timeout, by kind.", labelNames: ["kind"])
        replayed = registry.counter("http_replayed_responses_total", help: "Answers replayed from the event loops' memos without routing or running the middleware (also counted in http_requests_total).").child()
    }

    static let standardMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"]

    package static func methodLabel(_ m: HTTPMethod) -> String {
        standardMethods.contains(m.rawValue) ? m.rawValue : "OTHER"
    }
}
