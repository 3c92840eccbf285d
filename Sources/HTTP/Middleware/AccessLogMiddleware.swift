import HTTPCore
import Logging

/// One log line per request when its response completes: method, path, status, bytes,
/// durationMs, requestId, peer, route (and `aborted` when the response did not finish). With the
/// JSON log handler that is one JSON line.
///
/// When the logger writes through this module's `JSONLogHandler` with no metadata of its own, the
/// line is formatted straight into bytes — exactly the line the handler would write (same members,
/// same sorted order) — instead of building a metadata dictionary for the handler to merge, sort
/// and convert: on every request that was half the server's own cost of a `/healthz`.
///
/// Probes (`/healthz`, `/readyz`: an orchestrator asks every few seconds) are logged at
/// `probeLevel`, debug by default, so they do not drown the requests at info.
public struct AccessLogMiddleware: ReplayableMiddleware {
    let logger: Logger
    let level: Logger.Level
    let probeLevel: Logger.Level
    let probePaths: Set<String>
    /// Set when the line can be written directly (see above), for requests and for probes.
    let direct: DirectJSONLine?
    let directProbe: DirectJSONLine?

    public init(logger: Logger, level: Logger.Level = .info, probeLevel: Logger.Level = .debug, probePaths: Set<String> = ["/healthz", "/readyz"]) {
        self.logger = logger
        self.level = level
        self.probeLevel = probeLevel
        self.probePaths = probePaths
        if let json = logger.handler as? JSONLogHandler, json.metadata.isEmpty, json.metadataProvider == nil {
            direct = DirectJSONLine(output: json.output, label: json.label, level: level)
            directProbe = DirectJSONLine(output: json.output, label: json.label, level: probeLevel)
        } else {
            direct = nil
            directProbe = nil
        }
    }

    public func handle(_ request: HTTPRequest, context: RequestContext, next: HTTPNext) throws -> HTTPResponse {
        let probe = probePaths.contains(request.path)
        let level = probe ? probeLevel : self.level
        guard logger.logLevel <= level else { return try next(request, context) }
        let response = try next(request, context)
        let logger = self.logger, direct = probe ? directProbe : self.direct
        let method = request.method.rawValue, path = request.path, peer = context.peer, id = context.requestId
        let route = context.route, start = context.receivedAtNanos
        context.onResponseComplete { outcome in
            Self.log(logger: logger, level: level, direct: direct, method: method, path: path, status: outcome.status.code, bytes: outcome.bodyBytes,
                     start: start, requestId: id, peer: peer, route: route, completed: outcome.completed)
        }
        return response
    }

    /// A replayed answer is logged as any other: the level is decided once, when it is kept.
    public func replayAction(for answer: ReplayedAnswer) -> (@Sendable (ReplayedExchange) -> Void)? {
        let probe = probePaths.contains(answer.path)
        let level = probe ? probeLevel : self.level
        guard logger.logLevel <= level else { return nil }
        let logger = self.logger, direct = probe ? directProbe : self.direct, method = answer.method.rawValue
        return { e in
            Self.log(logger: logger, level: level, direct: direct, method: method, path: e.path, status: e.status.code, bytes: e.bodyBytes,
                     start: e.receivedAtNanos, requestId: e.requestId, peer: e.peer, route: e.route, completed: true)
        }
    }

    private static func log(logger: Logger, level: Logger.Level, direct: DirectJSONLine?, method: String, path: String, status: Int, bytes: Int,
                            start: UInt64, requestId: String, peer: String, route: String, completed: Bool) {
        let ms = (Double(monotonicNanos() &- start) / 1e3).rounded() / 1000
        if let direct {
            direct.write(method: method, path: path, status: status, bytes: bytes, durationMs: ms,
                         requestId: requestId, peer: peer, route: route, aborted: !completed)
            return
        }
        // `.string` rather than interpolation: an interpolated String goes through generic,
        // conformance-checking paths, and this runs for every request.
        var metadata: Logger.Metadata = [
            "method": .string(method), "path": .string(path), "status": .stringConvertible(status),
            "bytes": .stringConvertible(bytes), "durationMs": .stringConvertible(ms),
            "requestId": .string(requestId), "peer": .string(peer), "route": .string(route),
        ]
        if !completed { metadata["aborted"] = .stringConvertible(true) }
        logger.log(level: level, "request", metadata: metadata)
    }
}

/// The access-log line `JSONLogHandler` writes, formatted directly: members in the handler's
/// sorted order (aborted, bytes, durationMs, method, path, peer, requestId, route, status).
struct DirectJSONLine: Sendable {
    let output: LogOutput
    /// `","level":"info","logger":"http","message":"request"` — fixed for the middleware's life.
    let fixedPart: [UInt8]

    init(output: LogOutput, label: String, level: Logger.Level) {
        self.output = output
        var fixed: [UInt8] = Array("\",\"level\":".utf8)
        JSONValue.writeString(level.rawValue, into: &fixed)
        fixed.append(contentsOf: ",\"logger\":".utf8)
        JSONValue.writeString(label, into: &fixed)
        fixed.append(contentsOf: ",\"message\":\"request\"".utf8)
        fixedPart = fixed
    }

    func write(method: String, path: String, status: Int, bytes: Int, durationMs: Double, requestId: String, peer: String,
               route: String, aborted: Bool) {
        var out: [UInt8] = []
        out.reserveCapacity(256 + path.utf8.count)
        out.append(contentsOf: "{\"ts\":\"".utf8)
        HTTPDate.appendISO8601Now(to: &out)
        out.append(contentsOf: fixedPart)
        if aborted { out.append(contentsOf: ",\"aborted\":true".utf8) }
        out.append(contentsOf: ",\"bytes\":".utf8)
        JSONValue.int(bytes).write(into: &out)
        out.append(contentsOf: ",\"durationMs\":".utf8)
        JSONValue.double(durationMs).write(into: &out)
        out.append(contentsOf: ",\"method\":".utf8)
        JSONValue.writeString(method, into: &out)
        out.append(contentsOf: ",\"path\":".utf8)
        JSONValue.writeString(path, into: &out)
        out.append(contentsOf: ",\"peer\":".utf8)
        JSONValue.writeString(peer, into: &out)
        out.append(contentsOf: ",\"requestId\":".utf8)
        JSONValue.writeString(requestId, into: &out)
        out.append(contentsOf: ",\"route\":".utf8)
        JSONValue.writeString(route, into: &out)
        out.append(contentsOf: ",\"status\":".utf8)
        JSONValue.int(status).write(into: &out)
        out.append(contentsOf: "}\n".utf8)
        output.write(line: out)
    }
}
