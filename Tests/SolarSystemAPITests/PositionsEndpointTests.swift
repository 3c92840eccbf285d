import Ephemeris
import Foundation
import HTTPTestSupport
@testable import SolarSystemAPI
import Testing

@Suite("GET /v1/positions")
struct PositionsEndpointTests {
    @Test("defaults: all 25 bodies, heliocentric ecliptic J2000, AU and AU/day, with the model")
    func defaults() throws {
        let r = try APIServer.get("/v1/positions?date=2026-01-01T00:00:00Z")
        #expect(r.status == 200)
        let j = r.json
        #expect(j["date"] as? String == "2026-01-01T00:00:00Z")
        #expect(j["frame"] as? String == "ecliptic-j2000")
        #expect(j["center"] as? String == "sun")
        #expect(j["units"] as? String == "au")
        #expect(j["model"] is String)
        #expect(abs((number(j["jdTT"]) ?? 0) - 2_461_041.500_800_741) < 1e-8)
        let bodies = r.objects("bodies")
        #expect(bodies.count == 25)
        for b in bodies {
            let p = vector(b["position"]), v = vector(b["velocity"])
            #expect(p != nil && v != nil, "\(b["id"] ?? "?")")
            if let p, let d = number(b["distance"]) { #expect(abs(p.length - d) < 1e-12 * max(1, d)) }
        }
        let earth = bodies.first { $0["id"] as? String == "earth" }
        #expect(abs((number(earth?["distance"]) ?? 0) - 0.9833) < 0.001)
    }

    @Test("equatorial J2000 is the ecliptic vector turned by the J2000 obliquity")
    func equatorial() throws {
        let ecl = try APIServer.get("/v1/positions?date=2026-01-01&bodies=mars").objects("bodies")[0]
        let equ = try APIServer.get("/v1/positions?date=2026-01-01&bodies=mars&frame=equatorial-j2000").objects("bodies")[0]
        guard let e = vector(ecl["position"]), let q = vector(equ["position"]) else { Issue.record("vectors"); return }
        let eps = 84381.448 / 3600 * Double.pi / 180
        let expected = Vector3(e.x, e.y * cos(eps) - e.z * sin(eps), e.y * sin(eps) + e.z * cos(eps))
        #expect((expected - q).length < 1e-12)
    }

    @Test("center=earth: geocentric km and km/s; the ISS at 408 km altitude")
    func geocentric() throws {
        let r = try APIServer.get("/v1/positions?date=2026-01-01&bodies=moon,iss&center=earth")
        #expect(r.json["units"] as? String == "km")
        #expect(r.json["velocityUnits"] as? String == "km/s")
        let b = r.objects("bodies")
        let moon = number(b[0]["distance"]) ?? 0, iss = number(b[1]["distance"]) ?? 0
        #expect(moon > 356_000 && moon < 407_000)
        #expect(abs(iss - (6371 + 408)) < 1)
        let issSpeed = vector(b[1]["velocity"])?.length ?? 0
        #expect(abs(issSpeed - 7.66) < 0.05)
    }

    @Test("frame=scene gives the scene coordinates /v1/scene gives")
    func sceneFrame() throws {
        let p = try APIServer.get("/v1/positions?date=2026-01-01&bodies=io&frame=scene").objects("bodies")[0]
        let s = try APIServer.get("/v1/scene?date=2026-01-01").objects("bodies").first { $0["id"] as? String == "io" }
        guard let a = vector(p["position"]), let b = vector(s?["position"]) else { Issue.record("vectors"); return }
        #expect((a - b).length < 1e-9)
        // `scene` in either parameter selects the scene frame in scene units; aliases name the canonical frame.
        for query in ["units=scene", "frame=scene&units=km", "frame=equatorial&units=scene"] {
            let r = try APIServer.get("/v1/positions?date=2026-01-01&bodies=io&\(query)")
            #expect(r.json["frame"] as? String == "scene" && r.json["units"] as? String == "scene", "\(query)")
            #expect(vector(r.objects("bodies").first?["position"]).map { ($0 - b).length < 1e-9 } == true, "\(query)")
        }
        #expect(try APIServer.get("/v1/positions?date=2026-01-01&frame=ecliptic").json["frame"] as? String == "ecliptic-j2000")
        #expect(try APIServer.get("/v1/positions?date=2026-01-01&frame=icrf&units=au").json["frame"] as? String == "equatorial-j2000")
    }

    @Test("fixed dates are immutable with a strong ETag; If-None-Match gives 304; now is no-store")
    func caching() throws {
        let r = try APIServer.get("/v1/positions?date=2026-01-01&bodies=earth")
        #expect(r.header("cache-control") == "public, max-age=31536000, immutable")
        guard let etag = r.header("etag") else { Issue.record("no ETag"); return }
        #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
        let again = try APIServer.get("/v1/positions?date=2026-01-01&bodies=earth", headers: ["If-None-Match": etag])
        #expect(again.status == 304 && again.body.isEmpty)
        let now = try APIServer.get("/v1/positions?date=now&bodies=earth")
        #expect(now.header("cache-control") == "no-store")
        #expect(now.json["date"] as? String == "2026-11-22T12:00:00Z")
        let absent = try APIServer.get("/v1/positions?bodies=earth")
        #expect(absent.header("cache-control") == "no-store")
    }

    @Test("gzip when accepted, identical after inflating; HEAD has headers only; CORS preflight")
    func transport() throws {
        let plain = try APIServer.get("/v1/positions?date=2026-01-01")
        let gz = try APIServer.get("/v1/positions?date=2026-01-01", headers: ["Accept-Encoding": "gzip"])
        #expect(gz.header("content-encoding") == "gzip")
        #expect(gz.header("vary")?.lowercased().contains("accept-encoding") == true)
        #expect(gunzip(gz.body) == plain.body)
        let c = try APIServer.shared.client()
        defer { c.close() }
        try c.send("HEAD /v1/positions?date=2026-01-01 HTTP/1.1\r\nHost: t\r\n\r\n")
        let head = try c.readResponse(head: true)
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(Int(head.header("content-length") ?? "") == plain.body.count)
        try c.send("OPTIONS /v1/positions HTTP/1.1\r\nHost: t\r\nOrigin: https://app.example\r\nAccess-Control-Request-Method: GET\r\n\r\n")
        let pre = try c.readResponse()
        #expect(pre.status == 204)
        #expect(pre.header("access-control-allow-origin") != nil)
        #expect(pre.header("access-control-allow-methods")?.contains("GET") == true)
    }

    @Test("every bad parameter is a 400 problem naming it, the value and what is accepted", arguments: [
        ("date=3001-01-01", "date"), ("date=-3001-06-01", "date"), ("date=2026-13-01", "date"), ("date=yesterday", "date"),
        ("date=jd:abc", "date"), ("date=jd:625307.5", "date"), ("frame=galactic", "frame"), ("units=parsec", "units"), ("center=", "center"),
        ("date=2026-01-01&date=2026-01-02", "date"), ("foo=1", "foo"), ("units=lightyear", "units"),
    ])
    func badParameters(query: String, parameter: String) throws {
        let r = try APIServer.get("/v1/positions?\(query)")
        #expect(r.status == 400, "\(query): \(r.status) \(r.bodyText)")
        #expect(r.header("content-type")?.hasPrefix("application/problem+json") == true)
        #expect(r.json["parameter"] as? String == parameter, "\(query): \(r.bodyText)")
        #expect((r.json["detail"] as? String)?.isEmpty == false)
        #expect(r.json["status"] as? Int == 400)
    }

    @Test("an unknown id in bodies= or center= is a 404 naming it and listing the valid ids")
    func unknownBodies() throws {
        for (query, bad) in [("bodies=earth,vulcan", "vulcan"), ("center=nibiru", "nibiru")] {
            let r = try APIServer.get("/v1/positions?date=2026-01-01&\(query)")
            #expect(r.status == 404, "\(query)")
            #expect(r.json["value"] as? String == bad)
            #expect((r.json["validIds"] as? [String])?.contains("earth") == true)
        }
    }

    @Test("malformed percent-encoding in the query is a 400")
    func malformedPercent() throws {
        let r = try APIServer.get("/v1/positions?date=2026%2G01-01")
        #expect(r.status == 400)
        #expect(r.header("content-type")?.hasPrefix("application/problem+json") == true)
        #expect(r.json["parameter"] as? String == "date")
        #expect(r.json["instance"] as? String == "/v1/positions")
    }

    @Test("the API's answer is the CLI's answer, byte for byte")
    func sameAsCLI() throws {
        let query = try PositionsQuery.parse(date: "2026-11-22T00:00:00Z", bodies: "earth,moon,mars", frame: "equatorial-j2000",
                                            center: "earth", units: "km", now: { 0 })
        let cli = try APIServer.services.engine.positions(query).json()
        let api = try APIServer.get("/v1/positions?date=2026-11-22T00:00:00Z&bodies=earth,moon,mars&frame=equatorial-j2000&center=earth&units=km")
        #expect(api.body == cli)
        // And the real executable (swift test builds every product).
        let exe = RepositoryFiles.executable
        #expect(FileManager.default.isExecutableFile(atPath: exe.path), "no executable at \(exe.path)")
        if FileManager.default.isExecutableFile(atPath: exe.path) {
            let p = Process()
            p.executableURL = exe
            p.arguments = ["positions", "--date", "2026-11-22T00:00:00Z", "--bodies", "earth,moon,mars", "--frame", "equatorial-j2000",
                           "--center", "earth", "--units", "km", "--resources", RepositoryFiles.root.appendingPathComponent("Resources").path]
            let pipe = Pipe()
            p.standardOutput = pipe
            try p.run()
            let out = pipe.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            #expect(p.terminationStatus == 0)
            #expect([UInt8](out) == api.body + [0x0A])
        }
    }
}

extension RepositoryFiles {
    /// The `solarsystem` executable `swift test` built beside the test bundle.
    static var executable: URL {
        var candidates: [URL] = []
        for bundle in [Bundle.main] + Bundle.allBundles {
            let url = bundle.bundleURL
            candidates.append(url.appendingPathComponent("solarsystem"))
            candidates.append(url.deletingLastPathComponent().appendingPathComponent("solarsystem"))
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }
}
