import Testing
import Logging
@testable import HTTP
@testable import HTTPCore
import HTTPTestSupport

/// Runs `middleware` around `handler` for one request.
private func run(_ middleware: [any HTTPMiddleware], _ request: HTTPRequest, context: RequestContext = RequestContext(), _ handler: @escaping Router.Handler) -> HTTPResponse {
    var ctx = context
    ctx.handler = handler
    return Responder(middleware: middleware).respond(to: request, context: ctx)
}

private let bigJSON: [UInt8] = Array(("[" + (0..<200).map { #"{"id":\#($0),"name":"body\#($0)"}"# }.joined(separator: ",") + "]").utf8)

@Suite("Middleware")
struct MiddlewareTests {
    let policy = CompressionPolicy(minimumSize: 1024)

    @Test func gzipRoundTripsAndVaries() throws {
        let request = try HTTPRequest(target: "/x", headers: ["Host": "a", "Accept-Encoding": "br;q=1, gzip;q=0.5"])
        let response = run([GzipMiddleware(policy: policy)], request) { _, _ in .json(bigJSON) }
        #expect(response.headers["content-encoding"] == "gzip")
        #expect(response.headers["vary"] == "Accept-Encoding")
        #expect(response.bodyBytes.count < bigJSON.count)
        #expect(gunzip(response.bodyBytes) == bigJSON)
    }

    @Test("whole bodies from largeBodySize on are deflated at largeBodyLevel (gzip's XFL byte says which: 4 fastest, 0 default)")
    func gzipLevelBySize() throws {
        let large = Array(repeating: bigJSON, count: 16).joined().map { $0 }   // ~100 KB
        #expect(large.count >= policy.largeBodySize && bigJSON.count < policy.largeBodySize)
        #expect(policy.level(forSize: large.count) == 1 && policy.level(forSize: bigJSON.count) == 6)
        let kept = EncodedBody(bytes: large, contentType: "application/json", policy: policy, ledger: MemoryLedger())
        let small = EncodedBody(bytes: bigJSON, contentType: "application/json", policy: policy, ledger: MemoryLedger())
        let keptGzip = try #require(kept.gzip), smallGzip = try #require(small.gzip)
        #expect(keptGzip[8] == 4 && smallGzip[8] == 0)
        #expect(gunzip(keptGzip) == large && gunzip(smallGzip) == bigJSON)
        let request = try HTTPRequest(target: "/x", headers: ["Host": "a", "Accept-Encoding": "gzip"])
        let response = run([GzipMiddleware(policy: policy)], request) { _, _ in .json(large) }
        #expect(response.bodyBytes[8] == 4 && gunzip(response.bodyBytes) == large)
    }

    @Test func gzipDecisions() throws {
        let accepts = try HTTPRequest(target: "/x", headers: ["Host": "a", "Accept-Encoding": "gzip"])
        let refuses = try HTTPRequest(target: "/x", headers: ["Host": "a", "Accept-Encoding": "gzip;q=0, identity"])
        let star = try HTTPRequest(target: "/x", headers: ["Host": "a", "Accept-Encoding": "*"])
        let gz = GzipMiddleware(policy: policy)
        #expect(run([gz], refuses) { _, _ in .json(bigJSON) }.headers["content-encoding"] == nil)
        #expect(run([gz], refuses) { _, _ in .json(bigJSON) }.headers["vary"] == "Accept-Encoding")
        #expect(run([gz], star) { _, _ in .json(bigJSON) }.headers["content-encoding"] == "gzip")
        // small, already compressed, event streams and opted-out responses stay identity
        #expect(run([gz], accepts) { _, _ in .json(Array(#"{"a":1}"#.utf8)) }.headers["content-encoding"] == nil)
        #expect(run([gz], accepts) { _, _ in .bytes(bigJSON, contentType: "image/png") }.headers["content-encoding"] == nil)
        #expect(run([gz], accepts) { _, _ in .eventStream { _ in } }.headers["content-encoding"] == nil)
        var opted = HTTPResponse.json(bigJSON)
        opted.allowsCompression = false
        let keep = opted
        #expect(run([gz], accepts) { _, _ in keep }.headers["content-encoding"] == nil)
        #expect(CompressionPolicy.acceptsGzip(["Accept-Encoding": "deflate"]) == false)
        #expect(CompressionPolicy.acceptsGzip(["Accept-Encoding": "x-gzip"]) == true)
        #expect(CompressionPolicy.acceptsGzip(["Accept-Encoding": "*;q=0"]) == false)
    }

    @Test func gzipStreamsPulledBodies() throws {
        let request = try HTTPRequest(target: "/x", headers: ["Host": "a", "Accept-Encoding": "gzip"])
        let rows = (0..<5000).map { Array("row \($0),\(Double($0) * 0.5)\n".utf8) }
        let response = run([GzipMiddleware(policy: policy)], request) { _, _ in
            .stream(contentType: "text/csv", BodyProducer(chunks: rows))
        }
        #expect(response.headers["content-encoding"] == "gzip")
        guard case .pull(let producer) = response.body else {
            Issue.record("expected a pulled body")
            return
        }
        var compressed: [UInt8] = []
        while let chunk = try producer.nextChunk() {
            #expect(!chunk.isEmpty)
            compressed += chunk
        }
        #expect(gunzip(compressed) == rows.flatMap { $0 })
    }

    @Test func etagAnd304() throws {
        let chain: [any HTTPMiddleware] = [ErrorMiddleware(), GzipMiddleware(policy: policy), ETagMiddleware(policy: policy)]
        let handler: Router.Handler = { _, _ in HTTPResponse.json(bigJSON).immutable() }
        let plain = try HTTPRequest(target: "/x")
        let first = run(chain, plain, handler)
        let tag = try #require(first.headers["etag"])
        #expect(tag.hasPrefix("\"") && tag.count == 34)
        #expect(first.headers["cache-control"] == "public, max-age=31536000, immutable")
        // same body, same tag
        #expect(run(chain, plain, handler).headers["etag"] == tag)
        // identity revalidation
        let again = run(chain, try HTTPRequest(target: "/x", headers: ["Host": "a", "If-None-Match": "\"nope\", \(tag)"]), handler)
        #expect(again.status == .notModified)
        #expect(again.bodyBytes.isEmpty)
        #expect(again.headers["etag"] == tag)
        #expect(again.headers["cache-control"] == "public, max-age=31536000, immutable")
        // the gzip representation has its own tag, and revalidates against it
        let gzipHeaders: HTTPHeaders = ["Host": "a", "Accept-Encoding": "gzip"]
        let zipped = run(chain, try HTTPRequest(target: "/x", headers: gzipHeaders), handler)
        let zipTag = try #require(zipped.headers["etag"])
        #expect(zipTag != tag)
        #expect(zipTag == ETagMiddleware.gzipVariant(of: tag))
        var revalidate = gzipHeaders
        revalidate.add(name: "If-None-Match", value: zipTag)
        let zip304 = run(chain, try HTTPRequest(target: "/x", headers: revalidate), handler)
        #expect(zip304.status == .notModified)
        #expect(zip304.headers["etag"] == zipTag)
        #expect(zip304.headers["vary"] == "Accept-Encoding")
        // the identity tag does not validate the gzip representation
        var mismatched = gzipHeaders
        mismatched.add(name: "If-None-Match", value: tag)
        #expect(run(chain, try HTTPRequest(target: "/x", headers: mismatched), handler).status == .ok)
        // responses that did not opt in get no tag
        #expect(run(chain, plain) { _, _ in .json(bigJSON) }.headers["etag"] == nil)
        #expect(ETagMiddleware.matches("*", tag))
        #expect(ETagMiddleware.matches("W/\(tag)", tag))
    }

    @Test("CORS with a list: every answer varies by Origin; listed origins are allowed and see the exposed headers")
    func corsList() throws {
        let cors = CORSMiddleware(allowedOrigins: ["https://app.example"])
        let exposed = "ETag, X-Request-Id, Retry-After, Allow, Link"
        let ok = run([cors], try HTTPRequest(target: "/x", headers: ["Host": "a", "Origin": "https://app.example"])) { _, _ in .text("hi") }
        #expect(ok.headers["access-control-allow-origin"] == "https://app.example")
        #expect(ok.headers["access-control-expose-headers"] == exposed)
        #expect(ok.headers["vary"] == "Origin")
        // Another origin, and no origin at all: no grant, but the answer still varies by Origin,
        // so a shared cache cannot hand it to the listed origin.
        for headers: HTTPHeaders in [["Host": "a", "Origin": "https://evil.example"], ["Host": "a"]] {
            let r = run([cors], try HTTPRequest(target: "/x", headers: headers)) { _, _ in .text("hi") }
            #expect(r.headers["access-control-allow-origin"] == nil)
            #expect(r.headers["access-control-expose-headers"] == nil)
            #expect(r.headers["vary"] == "Origin")
        }
        // Vary joins what inner layers set; problems (made by the error middleware inside) get it too.
        let gz = run([cors, ErrorMiddleware(), GzipMiddleware(policy: policy)], try HTTPRequest(target: "/x", headers: ["Host": "a", "Accept-Encoding": "gzip"])) { _, _ in .json(bigJSON) }
        #expect(gz.headers["vary"] == "Accept-Encoding, Origin")
        let problem = run([cors, ErrorMiddleware()], try HTTPRequest(target: "/x", headers: ["Host": "a", "Origin": "https://app.example"])) { _, _ in
            throw ProblemDetails(status: .notFound, detail: "nothing here")
        }
        #expect(problem.status == .notFound)
        #expect(problem.headers["access-control-allow-origin"] == "https://app.example")
        #expect(problem.headers["vary"] == "Origin")
    }

    @Test("CORS preflights: allowed origins get 204 with methods and headers, varying by what they echo")
    func corsPreflight() throws {
        let preflightHeaders: HTTPHeaders = [
            "Host": "a", "Origin": "https://app.example", "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "x-request-id, if-none-match",
        ]
        let refuse: Router.Handler = { _, _ in
            Issue.record("an allowed preflight must not reach the handler")
            return .text("no")
        }
        let listed = run([CORSMiddleware(allowedOrigins: ["https://app.example"])], try HTTPRequest(method: .options, target: "/x", headers: preflightHeaders), refuse)
        #expect(listed.status == .noContent)
        #expect(listed.headers["access-control-allow-origin"] == "https://app.example")
        #expect(listed.headers["access-control-allow-methods"] == "GET, HEAD, OPTIONS")
        #expect(listed.headers["access-control-allow-headers"] == "x-request-id, if-none-match")
        #expect(listed.headers["access-control-max-age"] == "86400")
        #expect(listed.headers["vary"] == "Origin, Access-Control-Request-Method, Access-Control-Request-Headers")
        let any = run([CORSMiddleware()], try HTTPRequest(method: .options, target: "/x", headers: preflightHeaders), refuse)
        #expect(any.status == .noContent)
        #expect(any.headers["access-control-allow-origin"] == "*")
        #expect(any.headers["vary"] == "Access-Control-Request-Headers")
        // A preflight from an origin not listed is an ordinary OPTIONS: no grant.
        var other = preflightHeaders
        other.replaceOrAdd(name: "Origin", value: "https://evil.example")
        let refused = run([CORSMiddleware(allowedOrigins: ["https://app.example"])], try HTTPRequest(method: .options, target: "/x", headers: other)) { _, _ in
            HTTPResponse(status: .noContent, headers: ["Allow": "GET, HEAD, OPTIONS"])
        }
        #expect(refused.headers["access-control-allow-origin"] == nil)
        #expect(refused.headers["allow"] == "GET, HEAD, OPTIONS")
        #expect(refused.headers["vary"] == "Origin, Access-Control-Request-Method, Access-Control-Request-Headers")
    }

    @Test("CORS with any origin: every answer is shareable, with or without Origin, and never varies by it")
    func corsAny() throws {
        let cors = CORSMiddleware()
        for headers: HTTPHeaders in [["Host": "a", "Origin": "https://x.example"], ["Host": "a"]] {
            let r = run([cors, ErrorMiddleware()], try HTTPRequest(target: "/x", headers: headers)) { _, _ in .text("hi") }
            #expect(r.headers["access-control-allow-origin"] == "*")
            #expect(r.headers["access-control-expose-headers"] == "ETag, X-Request-Id, Retry-After, Allow, Link")
            #expect(r.headers["vary"] == nil)
            let problem = run([cors, ErrorMiddleware()], try HTTPRequest(target: "/x", headers: headers)) { _, _ in
                throw ProblemDetails(status: .badRequest, detail: "bad")
            }
            #expect(problem.headers["access-control-allow-origin"] == "*")
        }
    }

    @Test func errorsBecomeProblemsAndUnknownErrorsA500WithTheRequestId() throws {
        struct Boom: Error {}
        struct Teapot: HTTPResponseError, CustomStringConvertible {
            var status: HTTPStatus { HTTPStatus(code: 418, reasonPhrase: "I'm a teapot") }
            var description: String { "short and stout" }
        }
        let logs = LogOutput.memory()
        let logger = Logger(label: "t") { JSONLogHandler(label: $0, output: logs) }
        let ctx = RequestContext(requestId: "req-42", logger: logger)
        let request = try HTTPRequest(target: "/v1/x")
        let boom = run([ErrorMiddleware()], request, context: ctx) { _, _ in throw Boom() }
        #expect(boom.status == .internalServerError)
        let text = String(decoding: boom.bodyBytes, as: UTF8.self)
        #expect(text.contains("req-42"))
        #expect(text.contains(#""instance":"/v1/x""#))
        #expect(logs.lines.contains { $0.contains("\"level\":\"error\"") && $0.contains("req-42") && $0.contains("Boom") })
        let teapot = run([ErrorMiddleware()], request, context: ctx) { _, _ in throw Teapot() }
        #expect(teapot.status.code == 418)
        #expect(String(decoding: teapot.bodyBytes, as: UTF8.self).contains("short and stout"))
        let problem = run([ErrorMiddleware()], request, context: ctx) { _, _ in
            throw ProblemDetails(status: .notFound, detail: "no body vulcan").with("validIds", ["earth", "mars"])
        }
        #expect(problem.headers["content-type"] == "application/problem+json")
        #expect(String(decoding: problem.bodyBytes, as: UTF8.self) == #"{"type":"about:blank","title":"Not Found","status":404,"detail":"no body vulcan","instance":"/v1/x","validIds":["earth","mars"]}"#)
        // Without ErrorMiddleware the responder still converts (one conversion function).
        #expect(run([], request, context: ctx) { _, _ in throw Boom() }.status == .internalServerError)
    }

    @Test func metricsCountByRoutePatternNotRawPath() throws {
        let metrics = HTTPMetrics(registry: MetricsRegistry())
        var ctx = RequestContext()
        ctx.route = "/v1/bodies/{id}"
        for id in ["earth", "mars", "venus"] {
            _ = run([MetricsMiddleware(metrics: metrics), ErrorMiddleware()], try HTTPRequest(target: "/v1/bodies/\(id)"), context: ctx) { _, _ in .text(id) }
        }
        _ = run([MetricsMiddleware(metrics: metrics), ErrorMiddleware()], try HTTPRequest(method: HTTPMethod("BREW"), target: "/v1/bodies/x"), context: ctx) { _, _ in
            throw ProblemDetails(status: .notFound)
        }
        let text = String(decoding: metrics.registry.render(), as: UTF8.self)
        #expect(text.contains(#"http_requests_total{route="/v1/bodies/{id}",method="GET",status="200"} 3"#))
        #expect(text.contains(#"http_requests_total{route="/v1/bodies/{id}",method="OTHER",status="404"} 1"#))
        #expect(text.contains(#"http_request_duration_seconds_count{route="/v1/bodies/{id}",method="GET"} 3"#))
        #expect(!text.contains("earth"))
    }
}
