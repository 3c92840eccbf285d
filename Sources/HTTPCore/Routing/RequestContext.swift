import Logging
import Synchronization

/// What a handler knows besides the request: route parameters, the request id, a logger
/// carrying that id, the peer address and the matched route pattern (the metrics label).
public struct RequestContext: Sendable {
    /// Parameters captured by the route pattern (`{id}`).
    public var parameters: RouteParameters
    /// The request id (the client's sane `X-Request-Id`, or generated).
    public var requestId: String
    public var logger: Logger
    /// `address:port` of the client.
    public var peer: String
    /// The matched route pattern (`/v1/bodies/{id}`), or `unmatched`.
    public var route: String
    /// When the complete request was handed to the server (monotonic nanoseconds).
    public let receivedAtNanos: UInt64
    /// Whether this code runs on the connection's event loop (a `.light` route, a planner, or
    /// the middleware around an answer a planner gave) rather than on the worker pool. Work that
    /// can take more than ~100 µs must not run when this is true.
    public internal(set) var isOnEventLoop = false

    let hooks: CompletionHooks
    var handler: Router.Handler?
    var routingError: ProblemDetails?

    public init(
        requestId: String = RequestID.generate(), logger: Logger = Logger(label: "http"), peer: String = "test",
        route: String = "unmatched", parameters: RouteParameters = RouteParameters()
    ) {
        self.requestId = requestId
        self.logger = logger
        self.peer = peer
        self.route = route
        self.parameters = parameters
        self.receivedAtNanos = monotonicNanos()
        self.hooks = CompletionHooks()
    }

    init(internalRequestId: String, logger: Logger, peer: String, route: String, parameters: RouteParameters, receivedAt: UInt64) {
        self.requestId = internalRequestId
        self.logger = logger
        self.peer = peer
        self.route = route
        self.parameters = parameters
        self.receivedAtNanos = receivedAt
        self.hooks = CompletionHooks()
    }

    /// Runs `handler` when the response has been fully handed to the connection (or aborted):
    /// streamed bodies report their real byte count here.
    public func onResponseComplete(_ handler: @escaping @Sendable (ResponseOutcome) -> Void) {
        hooks.add(handler)
    }

    /// Seconds since the request was received.
    public var elapsedSeconds: Double { Double(monotonicNanos() &- receivedAtNanos) / 1e9 }
}

/// How a response ended, for access logs and metrics.
public struct ResponseOutcome: Sendable {
    public let status: HTTPStatus
    /// Body bytes handed to the socket (payload, excluding chunk framing and headers).
    public let bodyBytes: Int
    /// False when the client went away or the producer failed before the end.
    public let completed: Bool
}

final class CompletionHooks: Sendable {
    private let handlers = Mutex<[@Sendable (ResponseOutcome) -> Void]>([])

    func add(_ h: @escaping @Sendable (ResponseOutcome) -> Void) { handlers.withLock { $0.append(h) } }

    func run(_ outcome: ResponseOutcome) {
        let hs = handlers.withLock { hs in
            defer { hs = [] }
            return hs
        }
        for h in hs { h(outcome) }
    }
}

/// Parameters captured from the path, in pattern order.
public struct RouteParameters: Sendable, Sequence {
    public typealias Pair = (name: String, value: String)
    public private(set) var pairs: [Pair]

    public init(_ pairs: [Pair] = []) { self.pairs = pairs }

    public func makeIterator() -> IndexingIterator<[Pair]> { pairs.makeIterator() }
    public subscript(name: String) -> String? { pairs.first { $0.name == name }?.value }

    /// The parameter, or a 400 problem naming it.
    public func require(_ name: String) throws(ProblemDetails) -> String {
        guard let v = self[name], !v.isEmpty else { throw ProblemDetails.missingParameter(name, accepted: nil, location: "path") }
        return v
    }

    /// The parameter as an integer, or a 400 problem naming it.
    public func requireInt(_ name: String) throws(ProblemDetails) -> Int {
        let raw = try require(name)
        guard let v = DecimalNumber.int(raw) else {
            throw ProblemDetails.invalidParameter(name, value: raw, accepted: "an integer").with("location", "path")
        }
        return v
    }

    mutating func append(_ name: String, _ value: String) { pairs.append((name: name, value: value)) }
}
