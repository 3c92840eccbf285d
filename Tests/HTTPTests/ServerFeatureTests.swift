import Foundation
import Logging
import Testing
@testable import HTTP
@testable import HTTPCore
import HTTPTestSupport

private let document: [UInt8] = Array(("{\"bodies\":[" + (0..<120).map { #"{"id":"b\#($0)","position":[\#($0).5,-\#($0).25,0.125]}"# }.joined(separator: ",") + "]}").utf8)

private func featureRoutes(_ r: Router) {
    r.get("/fixed") { _, _ in HTTPResponse.json(document).immutable() }
    r.get("/now") { _, _ in HTTPResponse.json(document).noStore() }
    r.get("/small") { _, _ in .json(Array(#"{"a":1}"#.utf8)) }
    r.get("/png") { _, _ in .bytes(document, contentType: "image/png") }
    r.get("/boom") { _, _ in
        struct Exploded: Error {}
        throw Exploded()
    }
    r.get("/series") { _, _ in
        .stream(contentType: "text/csv", BodyProducer(state: 0) { i in
            guard i < 20_000 else { return nil }
            defer { i += 1 }
            return Array("\(i),\(Double(i) * 0.001)\n".utf8)
        })
    }
}

@Suite("Server: ETag, gzip, CORS, metrics, errors")
struct ServerFeatureTests {
    @Test func etagAnd304OverTheWire() throws {
        let s = try TestServer(routes: featureRoutes)
        let c = try s.client()
        try c.send("GET /fixed HTTP/1.1\r\nHost: t\r\n\r\n")
        let first = try c.readResponse()
        let tag = try #require(first.header("etag"))
        #expect(first.header("cache-control") == "public, max-age=31536000, immutable")
        #expect(first.body == document)
        try c.send("GET /fixed HTTP/1.1\r\nHost: t\r\nIf-None-Match: \(tag)\r\n\r\n")
        let second = try c.readResponse()
        #expect(second.status == 304)
        #expect(second.body.isEmpty)
        #expect(second.header("etag") == tag)
        #expect(second.header("cache-control") == "public, max-age=31536000, immutable")
        #expect(second.header("content-length") == nil)
        // The connection is still in sync after a bodiless 304.
        try c.send("HEAD /fixed HTTP/1.1\r\nHost: t\r\nIf-None-Match: \"other\"\r\n\r\n")
        let head = try c.readResponse(head: true)
        #expect(head.status == 200)
        #expect(head.header("etag") == tag)
        #expect(head.header("content-length") == String(document.count))
        // Fixed answers carry a tag; `now` answers do not and are not stored.
        let now = try s.get("/now")
        #expect(now.header("etag") == nil)
        #expect(now.header("cache-control") == "no-store")
    }

    @Test func gzipRoundTripInflatedWithZlib() throws {
        let s = try TestServer(routes: featureRoutes)
        let r = try s.get("/fixed", headers: ["Accept-Encoding": "gzip, deflate"])
        #expect(r.header("content-encoding") == "gzip")
        #expect(r.header("vary") == "Accept-Encoding")
        #expect(Int(r.header("content-length") ?? "") == r.body.count)
        #expect(r.body.count < document.count / 2)
        #expect(gunzip(r.body) == document)
        let tag = try #require(r.header("etag"))
        #expect(tag.hasSuffix("-gzip\""))
        let revalidated = try s.get("/fixed", headers: ["Accept-Encoding": "gzip", "If-None-Match": tag])
        #expect(revalidated.status == 304)
        #expect(revalidated.header("etag") == tag)
        // identity for clients that do not accept gzip, small bodies and PNG
        #expect(try s.get("/fixed").header("content-encoding") == nil)
        #expect(try s.get("/small", headers: ["Accept-Encoding": "gzip"]).header("content-encoding") == nil)
        #expect(try s.get("/png", headers: ["Accept-Encoding": "gzip"]).header("content-encoding") == nil)
        // a streamed CSV series is compressed as it streams
        let series = try s.get("/series", headers: ["Accept-Encoding": "gzip"])
        #expect(series.chunked)
        #expect(series.header("content-encoding") == "gzip")
        let csv = String(decoding: try #require(gunzip(series.body)), as: UTF8.self)
        #expect(csv.split(separator: "\n").count == 20_000)
        #expect(csv.hasPrefix("0,0.0\n1,0.001\n"))
    }

    @Test func corsPreflightAndSimpleRequests() throws {
        let s = try TestServer(configure: { $0.corsAllowedOrigins = ["https://orrery.example"] }, routes: featureRoutes)
        let c = try s.client()
        try c.send("OPTIONS /fixed HTTP/1.1\r\nHost: t\r\nOrigin: https://orrery.example\r\nAccess-Control-Request-Method: GET\r\nAccess-Control-Request-Headers: If-None-Match\r\n\r\n")
        let preflight = try c.readResponse()
        #expect(preflight.status == 204)
        #expect(preflight.header("access-control-allow-origin") == "https://orrery.example")
        #expect(preflight.header("access-control-allow-methods") == "GET, HEAD, OPTIONS")
        #expect(preflight.header("access-control-allow-headers") == "If-None-Match")
        #expect(preflight.header("vary") == "Origin, Access-Control-Request-Method, Access-Control-Request-Headers")
        try c.send("GET /small HTTP/1.1\r\nHost: t\r\nOrigin: https://orrery.example\r\n\r\n")
        let simple = try c.readResponse()
        #expect(simple.header("access-control-allow-origin") == "https://orrery.example")
        #expect(simple.header("access-control-expose-headers") == "ETag, X-Request-Id, Retry-After, Allow, Link")
        try c.send("GET /small HTTP/1.1\r\nHost: t\r\nOrigin: https://elsewhere.example\r\n\r\n")
        let other = try c.readResponse()
        #expect(other.header("access-control-allow-origin") == nil)
        #expect(other.header("vary") == "Origin")
        // A cached answer first fetched without Origin, revalidated (304), and an error: all vary by Origin.
        let fixed = try s.get("/fixed", headers: ["Accept-Encoding": "gzip"])
        #expect(fixed.header("vary") == "Accept-Encoding, Origin")
        let tag = try #require(fixed.header("etag"))
        let revalidated = try s.get("/fixed", headers: ["Accept-Encoding": "gzip", "If-None-Match": tag, "Origin": "https://orrery.example"])
        #expect(revalidated.status == 304)
        #expect(revalidated.header("access-control-allow-origin") == "https://orrery.example")
        #expect(revalidated.header("vary") == "Accept-Encoding, Origin")
        let missing = try s.get("/nowhere", headers: ["Origin": "https://orrery.example"])
        #expect(missing.status == 404)
        #expect(missing.header("access-control-allow-origin") == "https://orrery.example")
    }

    @Test("with any origin, answers cached without Origin are shareable cross-origin, 304s and problems too")
    func corsAnyOriginEverywhere() throws {
        let s = try TestServer(routes: featureRoutes)
        let plain = try s.get("/fixed")
        #expect(plain.header("access-control-allow-origin") == "*")
        #expect(plain.header("vary") == "Accept-Encoding", "not Origin")
        let tag = try #require(plain.header("etag"))
        let revalidated = try s.get("/fixed", headers: ["If-None-Match": tag])
        #expect(revalidated.status == 304)
        #expect(revalidated.header("access-control-allow-origin") == "*")
        let boom = try s.get("/boom")
        #expect(boom.status == 500)
        #expect(boom.header("access-control-allow-origin") == "*")
        #expect(boom.header("access-control-expose-headers")?.contains("X-Request-Id") == true)
    }

    @Test func handlerErrorBecomesLogged500WithRequestId() throws {
        let s = try TestServer(routes: featureRoutes)
        let r = try s.get("/boom", headers: ["X-Request-Id": "trace-77"])
        #expect(r.status == 500)
        #expect(r.header("content-type") == "application/problem+json")
        #expect(r.json["requestId"] as? String == "trace-77")
        #expect(r.header("x-request-id") == "trace-77")
        #expect(TestServer.eventually { s.logs.lines.contains { $0.contains("\"level\":\"error\"") && $0.contains("trace-77") && $0.contains("Exploded") } })
        #expect(try s.get("/small").status == 200)
    }

    @Test func accessLogWritesOneJSONLinePerRequest() throws {
        let s = try TestServer(routes: featureRoutes)
        _ = try s.get("/small", headers: ["X-Request-Id": "log-1"])
        #expect(TestServer.eventually { s.logs.lines.contains { $0.contains("log-1") && $0.contains("\"message\":\"request\"") } })
        let line = try #require(s.logs.lines.first { $0.contains("log-1") && $0.contains("\"message\":\"request\"") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["method"] as? String == "GET")
        #expect(object["path"] as? String == "/small")
        #expect(object["status"] as? Int == 200)
        #expect(object["bytes"] as? Int == 7)
        #expect(object["durationMs"] is Double || object["durationMs"] is Int)
        #expect((object["peer"] as? String)?.hasPrefix("127.0.0.1:") == true)
    }

    @Test("probes (/healthz, /readyz) are logged at debug, other requests at info")
    func probesLogAtDebug() throws {
        let routes: (Router) -> Void = { r in
            featureRoutes(r)
            r.get("/healthz") { _, _ in .json(Array(#"{"status":"ok"}"#.utf8)) }
        }
        let s = try TestServer(routes: routes)
        _ = try s.get("/healthz", headers: ["X-Request-Id": "probe-1"])
        _ = try s.get("/small", headers: ["X-Request-Id": "log-2"])
        #expect(TestServer.eventually { s.logs.lines.contains { $0.contains("log-2") } })
        #expect(!s.logs.lines.contains { $0.contains("probe-1") })
        // With the logger at debug the probe is there, at debug, through the direct writer.
        let out = LogOutput.memory()
        let debug = Logger(label: "http") { JSONLogHandler(label: $0, level: .debug, output: out) }
        let middleware = AccessLogMiddleware(logger: debug)
        #expect(middleware.directProbe != nil && middleware.probeLevel == .debug && middleware.probePaths == ["/healthz", "/readyz"])
    }

    @Test("the event loops and the CPU quota are gauges")
    func loopGauges() throws {
        let s = try TestServer(configure: { $0.eventLoopCount = 3 }, routes: featureRoutes)
        let text = String(decoding: s.server.metrics.registry.render(), as: UTF8.self)
        #expect(text.contains("http_event_loops 3"))
        #expect(text.contains("process_cpu_quota_cores "))
    }

    @Test func metricsEndpointReportsRoutesStatusesAndConnections() throws {
        let s = try TestServer(routes: { r in
            featureRoutes(r)
        })
        let registry = s.server.registry
        s.server.metrics.registry.counter("cache_hits_total", help: "Cache hits.", labelNames: ["cache"]).increment(labels: ["samples"])
        _ = try s.get("/small")
        _ = try s.get("/small")
        _ = try s.get("/missing/thing")
        _ = try s.get("/fixed", headers: ["Accept-Encoding": "gzip"])
        let text = String(decoding: registry.render(), as: UTF8.self)
        #expect(text.contains(#"http_requests_total{route="/small",method="GET",status="200"} 2"#))
        #expect(text.contains(#"http_requests_total{route="unmatched",method="GET",status="404"} 1"#))
        #expect(text.contains("# TYPE http_request_duration_seconds histogram"))
        #expect(text.contains(#"http_request_duration_seconds_bucket{route="/small",method="GET",le="+Inf"} 2"#))
        #expect(text.contains("http_open_connections "))
        #expect(text.contains(#"http_response_bytes_total{route="/small"} 14"#))
        #expect(text.contains(#"cache_hits_total{cache="samples"} 1"#))
        #expect(!text.contains("/missing/thing"))
    }
}
