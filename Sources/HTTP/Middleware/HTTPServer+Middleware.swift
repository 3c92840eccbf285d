import HTTPCore
import Logging

extension HTTPServer {
    /// - Parameters:
    ///   - middleware: the chain, outermost first; nil gives `standardMiddleware`.
    ///   - metrics: where the server's series go (default: a new registry).
    public convenience init(
        configuration: HTTPServerConfiguration, router: Router, middleware: [any HTTPMiddleware]? = nil,
        metrics: HTTPMetrics? = nil, logger: Logger = Logger(label: "http")
    ) {
        let metrics = metrics ?? HTTPMetrics(registry: MetricsRegistry())
        let chain = middleware ?? HTTPServer.standardMiddleware(configuration: configuration, metrics: metrics, logger: logger)
        self.init(configuration: configuration, router: router, responder: Responder(middleware: chain), metrics: metrics, logger: logger)
    }

    /// The default chain, outermost first: request id, metrics, access log, CORS, errors →
    /// problem+json, gzip, ETag. (Gzip must stay outside ETag: the ETag middleware predicts
    /// the representation the gzip middleware will choose.)
    public static func standardMiddleware(configuration: HTTPServerConfiguration, metrics: HTTPMetrics, logger: Logger, accessLog: Bool = true) -> [any HTTPMiddleware] {
        let policy = CompressionPolicy(minimumSize: configuration.gzipMinimumSize, level: configuration.gzipLevel, streamLevel: configuration.gzipStreamLevel)
        var chain: [any HTTPMiddleware] = [RequestIDMiddleware(), MetricsMiddleware(metrics: metrics)]
        if accessLog { chain.append(AccessLogMiddleware(logger: logger)) }
        chain += [
            CORSMiddleware(allowedOrigins: configuration.corsAllowedOrigins),
            ErrorMiddleware(),
            GzipMiddleware(policy: policy),
            ETagMiddleware(policy: policy),
        ]
        return chain
    }
}
