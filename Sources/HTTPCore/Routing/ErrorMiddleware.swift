import Logging

/// The one place that turns errors into responses: a `ProblemDetails` or any other
/// `HTTPResponseError` becomes its `problem` (`application/problem+json`, `instance` set to the
/// request path); anything else becomes a logged 500 that carries the request id.
public struct ErrorMiddleware: ReplayableMiddleware {
    public init() {}

    public func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPNext) throws -> HTTPResponse {
        do {
            return try next(request, context)
        } catch {
            return ErrorMiddleware.response(for: error, request: request, context: context)
        }
    }

    /// The response for `error` (also used by `Responder` for errors that escape the chain).
    public static func response(for error: any Error, request: HTTPRequest, context: RequestContext) -> HTTPResponse {
        var problem: ProblemDetails
        switch error {
        case let e as any HTTPResponseError:
            problem = e.problem
        default:
            context.logger.error("unhandled error in handler", metadata: [
                "error": "\(String(reflecting: error))", "requestId": "\(context.requestId)",
                "method": "\(request.method)", "path": "\(request.path)", "route": "\(context.route)",
            ])
            problem = ProblemDetails(
                status: .internalServerError,
                detail: "the server failed to answer this request; quote request id \(context.requestId) when reporting it",
                extensions: [("requestId", .string(context.requestId))]
            )
        }
        if problem.instance == nil { problem.instance = request.path }
        return .problem(problem)
    }
}
