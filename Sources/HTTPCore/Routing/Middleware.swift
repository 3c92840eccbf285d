/// The rest of the chain, as seen by a middleware.
public typealias HTTPNext = (HTTPRequest, RequestContext) throws -> HTTPResponse

/// A link in the request chain: inspect or change the request and context, call `next`, then
/// inspect or change the response. Middleware runs on the connection's queue, or on the worker
/// pool for offloaded routes.
///
/// ```swift
/// struct Timing: HTTPMiddleware {
///     func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPNext) throws -> HTTPResponse {
///         var response = try next(request, context)
///         response.headers.add(name: "Server-Timing", value: "app;dur=\(context.elapsedSeconds * 1000)")
///         return response
///     }
/// }
/// ```
public protocol HTTPMiddleware: Sendable {
    func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPNext) throws -> HTTPResponse
}

/// A middleware from a closure.
public struct ClosureMiddleware: HTTPMiddleware {
    let body: @Sendable (HTTPRequest, RequestContext, HTTPNext) throws -> HTTPResponse
    public init(_ body: @escaping @Sendable (HTTPRequest, RequestContext, HTTPNext) throws -> HTTPResponse) { self.body = body }
    public func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPNext) throws -> HTTPResponse {
        try body(request, context, next)
    }
}

/// A composed chain: middleware in order (first = outermost) around the routed handler.
public struct Responder: Sendable {
    public typealias Function = @Sendable (HTTPRequest, RequestContext) throws -> HTTPResponse
    let function: Function
    /// Set when every middleware is replayable: answers may then be replayed (Replay.swift).
    let replay: ReplayChain?

    /// Composes `middleware` around `terminal` (by default: the handler the router matched).
    public init(middleware: [any HTTPMiddleware], terminal: @escaping Function = Responder.routedHandler) {
        replay = ReplayChain(middleware)
        var f = terminal
        for m in middleware.reversed() {
            let next = f
            f = { request, context in try m.handle(request, context: context, next: next) }
        }
        function = f
    }

    /// Runs the chain; any error that escapes it becomes a problem response here (the same
    /// conversion `ErrorMiddleware` makes), so nothing thrown ever reaches the connection.
    public func respond(to request: HTTPRequest, context: RequestContext) -> HTTPResponse {
        do {
            return try function(request, context)
        } catch {
            return ErrorMiddleware.response(for: error, request: request, context: context)
        }
    }

    /// The terminal of every chain: the matched handler, or the router's 404/405 problem.
    public static let routedHandler: Function = { request, context in
        if let h = context.handler { return try h(request, context) }
        throw context.routingError ?? ProblemDetails(status: .notFound, detail: "no route for \(request.path)")
    }
}
