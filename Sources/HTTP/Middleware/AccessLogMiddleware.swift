import Logging

/// One log line per request when its response completes: method, path, status, bytes,
/// durationMs, requestId, peer (and route). With the JSON log handler that is one JSON line.
public struct AccessLogMiddleware: HTTPMiddleware {
    let logger: Logger
    let level: Logger.Level

    public init(logger: Logger, level: Logger.Level = .info) {
        self.logger = logger
        self.level = level
    }

    public func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPNext) throws -> HTTPResponse {
        guard logger.logLevel <= level else { return try next(request, context) }
        let response = try next(request, context)
        let logger = self.logger, level = self.level
        let method = request.method.rawValue, path = request.path, peer = context.peer, id = context.requestId
        let route = context.route, start = context.receivedAtNanos
        context.onResponseComplete { outcome in
            let ms = Double(monotonicNanos() &- start) / 1e6
            // `.string` rather than interpolation: an interpolated String goes through generic,
            // conformance-checking paths, and this runs for every request.
            var metadata: Logger.Metadata = [
                "method": .string(method), "path": .string(path), "status": .stringConvertible(outcome.status.code),
                "bytes": .stringConvertible(outcome.bodyBytes), "durationMs": .stringConvertible((ms * 1000).rounded() / 1000),
                "requestId": .string(id), "peer": .string(peer), "route": .string(route),
            ]
            if !outcome.completed { metadata["aborted"] = .stringConvertible(true) }
            logger.log(level: level, "request", metadata: metadata)
        }
        return response
    }
}
