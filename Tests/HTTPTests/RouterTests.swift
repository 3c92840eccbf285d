import Testing
import HTTPTestSupport
@testable import HTTPCore

@Suite("Router")
struct RouterTests {
    private func router() -> Router {
        let r = Router()
        r.get("/v1/bodies") { _, _ in .text("list") }
        r.get("/v1/bodies/{id}") { _, c in .text(try c.parameters.require("id")) }
        r.get("/v1/bodies/earth") { _, _ in .text("literal") }
        r.post("/v1/bodies/{id}") { _, _ in .text("post") }
        r.get("/v1/missions/{id}/stream") { _, c in .text("stream \(c.parameters["id"] ?? "")") }
        r.get("/static/*") { _, c in .text(c.parameters["*"] ?? "") }
        r.get("/heavy", cost: .heavy) { _, _ in .text("heavy") }
        return r
    }

    private func call(_ r: Router, _ method: HTTPMethod, _ path: String) throws -> (Router.Route, RouteParameters)? {
        if case .found(let route, let p) = r.match(method, path: path) { return (route, p) }
        return nil
    }

    @Test func parametersAndLiteralsPreferLiterals() throws {
        let r = router()
        let earth = try #require(try call(r, .get, "/v1/bodies/earth"))
        #expect(earth.0.pattern == "/v1/bodies/earth")
        let mars = try #require(try call(r, .get, "/v1/bodies/mars"))
        #expect(mars.0.pattern == "/v1/bodies/{id}")
        #expect(mars.1["id"] == "mars")
        let stream = try #require(try call(r, .get, "/v1/missions/apollo11/stream"))
        #expect(stream.1["id"] == "apollo11")
        let files = try #require(try call(r, .get, "/static/a/b.css"))
        #expect(files.1["*"] == "a/b.css")
        #expect(try call(r, .get, "/v1/bodies/")?.0.pattern == "/v1/bodies")
        #expect(try call(r, .get, "/heavy")?.0.cost == .heavy)
    }

    @Test func notFoundVersusMethodNotAllowed() {
        let r = router()
        guard case .notFound = r.match(.get, path: "/v2/nothing") else {
            Issue.record("expected 404")
            return
        }
        guard case .methodNotAllowed(let allowed) = r.match(.delete, path: "/v1/bodies/mars") else {
            Issue.record("expected 405")
            return
        }
        #expect(allowed == [.get, .head, .post, .options])
    }

    @Test func automaticHeadAndOptions() throws {
        let r = router()
        let head = try #require(try call(r, .head, "/v1/bodies"))
        #expect(head.0.method == .get)
        let options = try #require(try call(r, .options, "/v1/bodies/mars"))
        guard case .handler(let handler) = options.0.action else {
            Issue.record("OPTIONS is answered by a handler")
            return
        }
        let response = try handler(try HTTPRequest(method: .options, target: "/v1/bodies/mars"), RequestContext())
        #expect(response.status == .noContent)
        #expect(response.headers["allow"] == "GET, HEAD, POST, OPTIONS")
    }

    @Test func responderTurnsRoutingErrorsIntoProblems() throws {
        let r = router()
        let responder = Responder(middleware: [ErrorMiddleware()])
        var ctx = RequestContext()
        guard case .methodNotAllowed = r.match(.put, path: "/v1/bodies") else {
            Issue.record("expected 405")
            return
        }
        ctx.routingError = ProblemDetails(status: .methodNotAllowed).withHeader("Allow", "GET, HEAD, OPTIONS")
        let response = responder.respond(to: try HTTPRequest(method: .put, target: "/v1/bodies"), context: ctx)
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["allow"] == "GET, HEAD, OPTIONS")
        #expect(response.headers["content-type"] == "application/problem+json")
        #expect(String(decoding: response.bodyBytes, as: UTF8.self).contains(#""instance":"/v1/bodies""#))
    }
}

@Suite("One rule for empty path segments, and no encoded slashes")
struct CanonicalPathTests {
    @Test("a target with empty segments names the path without them; a canonical one is left alone")
    func canonicalTargets() {
        let cases: [(String, String?)] = [
            ("/v1/bodies", nil), ("/", nil), ("/?date=now", nil), ("*", nil), ("/v1/bodies?x=1&y=%2F", nil),
            ("/v1/bodies/", "/v1/bodies"), ("//earth.png", "/earth.png"), ("/v1//textures/earth.png/", "/v1/textures/earth.png"),
            ("/favicon.svg/", "/favicon.svg"), ("/v1/bodies/?q=a//b", "/v1/bodies?q=a//b"), ("///", "/"),
            ("http://example.org/v1//bodies?x", "/v1/bodies?x"), ("http://example.org", nil),
        ]
        for (target, expected) in cases {
            #expect(Router.canonicalTarget(target) == expected, "\(target)")
        }
    }

    @Test("through the server: empty segments are a 308 to the canonical path for every route; an encoded slash is a 400")
    func redirectsAndEncodedSlashes() throws {
        let s = try TestServer(routes: { r in
            r.get("/files/{name}") { _, ctx in .text(try ctx.parameters.require("name")) }
            r.get("/a/b") { _, _ in .text("ab") }
        })
        for (target, location) in [("/files/x.png/", "/files/x.png"), ("//files/x.png", "/files/x.png"), ("/a//b?q=1", "/a/b?q=1")] {
            let r = try s.get(target)
            #expect(r.status == 308, "\(target)")
            #expect(r.header("location") == location, "\(target)")
            #expect(try s.get(location).status == 200)
        }
        for target in ["/a%2Fb", "/files/x%2fy.png", "/files/%2F"] {
            let r = try s.get(target)
            #expect(r.status == 400, "\(target)")
            #expect(r.bodyText.contains("encoded slash"), "\(target): \(r.bodyText)")
        }
    }
}
