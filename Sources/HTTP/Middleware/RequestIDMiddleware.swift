import HTTPCore
import Logging

/// Puts the request id in the logger's metadata and on the response (`X-Request-Id`). The id
/// itself is resolved by the server before the chain runs — the client's sane `X-Request-Id`,
/// else a generated one (`RequestID.resolve`) — so even responses the server makes on its own
/// carry one. A replayed answer gets its own id from the server (Replay.swift).
public struct RequestIDMiddleware: ReplayableMiddleware {
    public init() {}

    public func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPNext) throws -> HTTPResponse {
        var context = context
        context.logger[metadataKey: "requestId"] = .string(context.requestId)
        var response = try next(request, context)
        response.headers.replaceOrAdd(name: "X-Request-Id", value: context.requestId)
        return response
    }
}
