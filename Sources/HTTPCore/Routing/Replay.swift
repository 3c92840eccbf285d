/// Replaying an answer: a planner's ready answer (a cache hit) sent again, byte for byte, to a
/// request identical in what matters — the same method (GET), target and key request headers —
/// without routing, planning or running the middleware chain. docs/http.md, "Replayed answers".
///
/// Three parties must agree before an answer is replayed:
/// - the route declares which request headers its planner reads (`Router.plan(…, replaysOn:)`);
/// - the planner marks the answer replayable while a condition holds (`replayable(while:)`);
/// - every middleware of the chain is a ``ReplayableMiddleware``: it names the request headers
///   its effect on a response depends on, and does its per-request work (a log line, counters)
///   through ``ReplayableMiddleware/replayAction(for:)``.

/// What a replayed exchange was, for the middleware's per-request work.
public struct ReplayedExchange: Sendable {
    public let method: HTTPMethod
    public let path: String
    public let peer: String
    public let requestId: String
    /// The route pattern the answer was first routed to (the metrics label).
    public let route: String
    /// When the complete request was handed to the server (monotonic nanoseconds).
    public let receivedAtNanos: UInt64
    public let status: HTTPStatus
    /// Body bytes handed to the connection (0 for HEAD and bodiless statuses).
    public let bodyBytes: Int
}

/// The answer a replay stands for, as the chain made it the first time: what a middleware may
/// prepare its per-request work from once (label lookups, fixed strings).
public struct ReplayedAnswer: Sendable {
    public let method: HTTPMethod
    public let path: String
    public let route: String
    public let status: HTTPStatus
}

/// A middleware whose effect on a response is a function of the response and of the request
/// headers it names, so an answer it shaped once can be sent again without running it; its
/// side effects (a log line, counters) are redone for every replay by the action it returns.
public protocol ReplayableMiddleware: HTTPMiddleware {
    /// Lower-case names of the request headers this middleware reads.
    var replayKeyHeaders: [String] { get }
    /// Work to do for every replay of `answer` (nil: none). Called once, when the answer is kept.
    func replayAction(for answer: ReplayedAnswer) -> (@Sendable (ReplayedExchange) -> Void)?
}

extension ReplayableMiddleware {
    public var replayKeyHeaders: [String] { [] }
    public func replayAction(for answer: ReplayedAnswer) -> (@Sendable (ReplayedExchange) -> Void)? { nil }
}

extension HTTPResponse {
    /// This answer may be replayed to identical requests for as long as `condition` holds
    /// (checked before every replay, on the event loop: it must take microseconds). Only a
    /// planner's ready answer (`.respond`) on a route registered with `replaysOn` is kept.
    public func replayable(while condition: @escaping @Sendable () -> Bool) -> HTTPResponse {
        var r = self
        r.replayCondition = condition
        return r
    }
}

/// The chain's part in replays: the union of the key headers its middleware read, and the
/// middleware themselves. Nil when a middleware of the chain is not replayable.
struct ReplayChain: Sendable {
    let keyHeaders: [String]
    let middleware: [any ReplayableMiddleware]

    init?(_ chain: [any HTTPMiddleware]) {
        var replayable: [any ReplayableMiddleware] = []
        var headers: [String] = []
        for m in chain {
            guard let r = m as? any ReplayableMiddleware else { return nil }
            replayable.append(r)
            for h in r.replayKeyHeaders where !headers.contains(h.lowercased()) { headers.append(h.lowercased()) }
        }
        middleware = replayable
        keyHeaders = headers
    }

    func actions(for answer: ReplayedAnswer) -> [@Sendable (ReplayedExchange) -> Void] {
        middleware.compactMap { $0.replayAction(for: answer) }
    }
}
