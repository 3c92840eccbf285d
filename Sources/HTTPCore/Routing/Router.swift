import Synchronization

/// Method + path-pattern routing with `{name}` parameters and a trailing `*` catch-all.
/// Unknown paths give 404; known paths with another method give 405 with `Allow`. HEAD runs
/// the GET handler (the server sends no body); OPTIONS answers 204 with `Allow` unless a route
/// handles it (CORS preflight is answered by `CORSMiddleware` before routing). `OPTIONS *`
/// asks about the server as a whole (RFC 9110 §9.3.7): 200 with every method any route takes.
///
/// Every route declares its cost (docs/http.md, "Execution model"): `.light` handlers run on the
/// event loop and must take microseconds; `.compute` and `.heavy` handlers run on the worker pool.
/// A planned route splits the two: its planner runs on the loop (parse, validate, answer from a
/// cache) and either responds or hands the expensive part to the pool.
///
/// ```swift
/// let router = Router()
/// router.get("/v1/bodies/{id}") { request, context in          // .light
///     let id = try context.parameters.require("id")
///     return .json(try catalogue.json(for: id))
/// }
/// router.get("/v1/views/system.png", cost: .heavy) { … }          // on the worker pool
/// router.plan(.get, "/v1/positions", cost: .compute) { request, context in
///     let query = try parse(request)                              // on the loop
///     if let hit = cache[query.key] { return .respond(hit) }
///     return .offload { try compute(query) }                      // on the worker pool
/// }
/// ```
/// Register every route before the server starts; the router is read-only afterwards.
public final class Router: @unchecked Sendable {
    public typealias Handler = @Sendable (HTTPRequest, RequestContext) throws -> HTTPResponse
    public typealias Planner = @Sendable (HTTPRequest, RequestContext) throws -> Plan

    /// What a route costs, which decides where it runs.
    public enum Cost: Sendable, Equatable {
        /// Microseconds, no I/O, small bodies: runs on the connection's event loop.
        case light
        /// Up to milliseconds (computing and encoding an answer, compressing it, SQLite): runs on
        /// the worker pool, with a long wait list.
        case compute
        /// Tens of milliseconds or more (pictures): runs on the worker pool, at most
        /// `workerPoolSize - 1` at once so compute work always finds a thread, with a short wait
        /// list beyond which the answer is 503 with `Retry-After`.
        case heavy
    }

    /// How large a route's answers are, which decides whether it still runs while response
    /// memory is over its limit: `.small` answers (tens of KiB: a snapshot, the metrics) cannot
    /// add much and are served; new `.large` ones (series, orbits, catalogues, pictures) get 503.
    public enum AnswerSize: Sendable, Equatable {
        case small
        case large
    }

    /// What a planner decided on the event loop.
    public enum Plan: Sendable {
        /// The answer is ready (a cache hit, a redirect, an error response).
        case respond(HTTPResponse)
        /// Run this on the worker pool and answer with its result: in the route's lane, or in the
        /// lane of `cost` when the planner knows this request is cheaper or dearer than usual
        /// (a 20,000-sample trajectory is heavy; 500 samples are not).
        case offload(cost: Cost? = nil, @Sendable () throws -> HTTPResponse)
    }

    public struct Route: Sendable {
        public let method: HTTPMethod
        public let pattern: String
        public let cost: Cost
        public let answers: AnswerSize
        /// For a planned route whose ready answers may be replayed: the request headers (lower
        /// case) its planner reads besides the target (Replay.swift). Nil: never replayed.
        public let replayKeyHeaders: [String]?
        let action: Action
    }

    enum Action: Sendable {
        case handler(Handler)
        case planner(Planner)
    }

    public enum Match: Sendable {
        case found(Route, RouteParameters)
        case methodNotAllowed(allowed: [HTTPMethod])
        case notFound
    }

    private final class Node: @unchecked Sendable {
        var literals: [String: Node] = [:]
        var parameter: (name: String, node: Node)?
        var catchAll: (name: String, routes: [HTTPMethod: Route])?
        var routes: [HTTPMethod: Route] = [:]
        var pattern: String?
    }

    private let root = Node()
    /// Routes without parameters by their canonical path, for `match`'s fast lookup.
    private var literalPaths: [String: Node] = [:]
    /// Written only while routes are registered (before the server starts), read-only afterwards.
    private let frozen = Atomic<Bool>(false)
    public private(set) var routes: [Route] = []

    public init() {}

    public func get(_ pattern: String, cost: Cost = .light, answers: AnswerSize = .large, _ handler: @escaping Handler) { add(.get, pattern, cost: cost, answers: answers, .handler(handler)) }
    public func head(_ pattern: String, cost: Cost = .light, _ handler: @escaping Handler) { add(.head, pattern, cost: cost, .handler(handler)) }
    public func post(_ pattern: String, cost: Cost = .light, _ handler: @escaping Handler) { add(.post, pattern, cost: cost, .handler(handler)) }
    public func put(_ pattern: String, cost: Cost = .light, _ handler: @escaping Handler) { add(.put, pattern, cost: cost, .handler(handler)) }
    public func delete(_ pattern: String, cost: Cost = .light, _ handler: @escaping Handler) { add(.delete, pattern, cost: cost, .handler(handler)) }
    public func options(_ pattern: String, cost: Cost = .light, _ handler: @escaping Handler) { add(.options, pattern, cost: cost, .handler(handler)) }

    /// A planned route: `planner` runs on the loop and responds or offloads (`cost` must be
    /// `.compute` or `.heavy`: the lane the offloaded part runs in). With `replaysOn` (GET only),
    /// ready answers the planner marks ``HTTPResponse/replayable(while:)`` are replayed to
    /// requests with the same target and the same values of these request headers (those the
    /// planner reads; the middleware add theirs) without running the planner again.
    public func plan(_ method: HTTPMethod, _ pattern: String, cost: Cost, answers: AnswerSize = .large, replaysOn: [String]? = nil, _ planner: @escaping Planner) {
        precondition(cost != .light, "a planned route offloads its work: declare .compute or .heavy")
        precondition(replaysOn == nil || method == .get, "only GET answers are replayed")
        add(method, pattern, cost: cost, answers: answers, replaysOn: replaysOn?.map { $0.lowercased() }, .planner(planner))
    }

    /// The request headers any replayable route's planner reads (Replay.swift); nil when no route replays.
    public var replayKeyHeaders: [String]? {
        let lists = routes.compactMap(\.replayKeyHeaders)
        if lists.isEmpty { return nil }
        var names: [String] = []
        for list in lists { for n in list where !names.contains(n) { names.append(n) } }
        return names
    }

    /// Registers `handler` for `method` on `pattern` (`/a/{id}/b`, `/static/*`).
    public func add(_ method: HTTPMethod, _ pattern: String, cost: Cost = .light, _ handler: @escaping Handler) {
        add(method, pattern, cost: cost, .handler(handler))
    }

    private func add(_ method: HTTPMethod, _ pattern: String, cost: Cost, answers: AnswerSize = .large, replaysOn: [String]? = nil, _ action: Action) {
        do {
            precondition(!frozen.load(ordering: .acquiring), "register routes before the server starts")
            precondition(pattern.hasPrefix("/"), "route patterns start with /")
            let route = Route(method: method, pattern: pattern, cost: cost, answers: answers, replayKeyHeaders: replaysOn, action: action)
            var node = root
            let segments = Router.segments(pattern)
            for (i, seg) in segments.enumerated() {
                if seg == "*" || (seg.hasPrefix("{") && seg.hasSuffix("*}")) {
                    precondition(i == segments.count - 1, "a catch-all must be the last segment")
                    let name = seg == "*" ? "*" : String(seg.dropFirst().dropLast(2))
                    var all = node.catchAll ?? (name: name, routes: [:])
                    precondition(all.routes[method] == nil, "duplicate route \(method) \(pattern)")
                    all.routes[method] = route
                    node.catchAll = all
                    routes.append(route)
                    return
                }
                if seg.hasPrefix("{"), seg.hasSuffix("}") {
                    let name = String(seg.dropFirst().dropLast())
                    if let p = node.parameter {
                        precondition(p.name == name, "conflicting parameter names {\(p.name)} and {\(name)} in \(pattern)")
                        node = p.node
                    } else {
                        let n = Node()
                        node.parameter = (name, n)
                        node = n
                    }
                } else {
                    if let n = node.literals[String(seg)] { node = n } else {
                        let n = Node()
                        node.literals[String(seg)] = n
                        node = n
                    }
                }
            }
            precondition(node.routes[method] == nil, "duplicate route \(method) \(pattern)")
            node.routes[method] = route
            node.pattern = pattern
            routes.append(route)
            if !pattern.contains("{") { literalPaths["/" + segments.joined(separator: "/")] = node }
        }
    }

    func freeze() { frozen.store(true, ordering: .releasing) }

    /// Finds the route for `method` and `path`.
    public func match(_ method: HTTPMethod, path: String) -> Match {
        if path == "*" { return matchServerWide(method) }
        var params = RouteParameters()
        // A path naming a route with no parameters is one dictionary lookup (the walk below
        // finds the same node: literals are tried first).
        let exact = literalPaths[path].map { ($0.routes, $0) }
        guard let (routes, _) = exact ?? find(path, params: &params), !routes.isEmpty else { return .notFound }
        if let r = routes[method] { return .found(r, params) }
        if method == .head, let r = routes[.get] {
            return .found(r, params)
        }
        let allowed = Router.allowList(Set(routes.keys))
        if method == .options {
            let pattern = routes.values.first?.pattern ?? path
            let allowText = allowed.map(\.rawValue).joined(separator: ", ")
            let route = Route(method: .options, pattern: pattern, cost: .light, answers: .small, replayKeyHeaders: nil, action: .handler { _, _ in
                HTTPResponse(status: .noContent, headers: ["Allow": allowText])
            })
            return .found(route, params)
        }
        return .methodNotAllowed(allowed: allowed)
    }

    /// The asterisk-form target (the parser lets it through only with OPTIONS). The answer is
    /// 200 with an empty body rather than 204, so it carries `Content-Length: 0` as RFC 9110
    /// §9.3.7 asks of a content-less OPTIONS response.
    private func matchServerWide(_ method: HTTPMethod) -> Match {
        guard method == .options else { return .methodNotAllowed(allowed: [.options]) }
        let allowText = Router.allowList(Set(routes.map(\.method))).map(\.rawValue).joined(separator: ", ")
        let route = Route(method: .options, pattern: "*", cost: .light, answers: .small, replayKeyHeaders: nil, action: .handler { _, _ in
            HTTPResponse(status: .ok, headers: ["Allow": allowText])
        })
        return .found(route, RouteParameters())
    }

    static func allowList(_ methods: Set<HTTPMethod>) -> [HTTPMethod] {
        var set = methods
        if set.contains(.get) { set.insert(.head) }
        set.insert(.options)
        let canonical: [HTTPMethod] = [.get, .head, .post, .put, .patch, .delete, .options]
        return canonical.filter { set.contains($0) } + set.filter { !canonical.contains($0) }.sorted { $0.rawValue < $1.rawValue }
    }

    private func find(_ path: String, params: inout RouteParameters) -> ([HTTPMethod: Route], Node?)? {
        let segments = Router.segments(path)
        return walk(root, segments[...], &params)
    }

    private func walk(_ node: Node, _ rest: ArraySlice<Substring>, _ params: inout RouteParameters) -> ([HTTPMethod: Route], Node?)? {
        guard let seg = rest.first else {
            if !node.routes.isEmpty { return (node.routes, node) }
            return nil
        }
        let tail = rest.dropFirst()
        if let n = node.literals[String(seg)], let found = walk(n, tail, &params) { return found }
        if let p = node.parameter {
            let saved = params
            params.append(p.name, String(seg))
            if let found = walk(p.node, tail, &params) { return found }
            params = saved
        }
        if let all = node.catchAll {
            params.append(all.name, rest.joined(separator: "/"))
            return (all.routes, nil)
        }
        return nil
    }

    /// Path segments; empty segments (double or trailing slashes) are ignored.
    static func segments<S: StringProtocol>(_ path: S) -> [Substring] {
        Substring(path).split(separator: "/", omittingEmptySubsequences: true)
    }

    /// The one rule for empty path segments, for every route alike: a target whose path has
    /// them (`//earth.png`, `/v1/bodies/`, `/favicon.svg/`) names the same resource as the path
    /// without them, and is answered `308 Permanent Redirect` to it, query kept — so a resource
    /// has one URL, caches key one entry, and relative links resolve as the page expects. Nil
    /// when the target is already canonical (or is `*`).
    ///
    /// ```swift
    /// Router.canonicalTarget("/v1//bodies/?x=1")  // "/v1/bodies?x=1"
    /// ```
    public static func canonicalTarget(_ target: String) -> String? {
        guard target != "*" else { return nil }
        if target.utf8.first == UInt8(ascii: "/") {
            // Nearly every target is origin-form and canonical: a scan of its bytes says so
            // without building a string.
            var previous: UInt8 = 0, length = 0
            for byte in target.utf8 {
                if byte == UInt8(ascii: "?") { break }
                if byte == UInt8(ascii: "/") && previous == UInt8(ascii: "/") { length = -1; break }
                previous = byte
                length += 1
            }
            if length >= 0 && (length <= 1 || previous != UInt8(ascii: "/")) { return nil }
        }
        var pathStart = target.startIndex
        if !target.hasPrefix("/") {
            // absolute-form: the path starts at the first "/" after the authority.
            guard let scheme = target.range(of: "://"), let slash = target[scheme.upperBound...].firstIndex(of: "/") else { return nil }
            pathStart = slash
        }
        let queryStart = target[pathStart...].firstIndex(of: "?") ?? target.endIndex
        let rawPath = target[pathStart..<queryStart]
        let canonical = "/" + rawPath.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
        return canonical == rawPath ? nil : canonical + target[queryStart...]
    }
}
