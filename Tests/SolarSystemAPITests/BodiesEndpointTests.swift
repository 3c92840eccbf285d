import Foundation
import HTTPTestSupport
import Testing

@Suite("GET /v1/bodies")
struct BodiesEndpointTests {
    @Test("lists all 25 bodies with physical, scene and model data")
    func list() throws {
        let r = try APIServer.get("/v1/bodies")
        #expect(r.status == 200)
        #expect(r.header("content-type")?.hasPrefix("application/json") == true)
        #expect(r.header("cache-control")?.contains("max-age=3600") == true)
        #expect(r.header("etag") != nil)
        let bodies = r.objects("bodies")
        #expect(bodies.count == 25)
        let ids = bodies.compactMap { $0["id"] as? String }
        #expect(Set(ids).count == 25 && ids.contains("iss") && ids.contains("iapetus"))
        for b in bodies {
            let id = b["id"] as? String ?? "?"
            #expect(b["name"] is String && b["type"] is String, "\(id)")
            #expect(number(b["radiusKm"]).map { $0 > 0 } == true, "\(id)")
            #expect(number(b["sceneRadius"]).map { $0 >= 0.012 } == true, "\(id)")
            #expect((b["colorRgb"] as? [Double])?.count == 3, "\(id)")
            #expect(b["rotation"] is [String: Any], "\(id)")
            let eph = b["ephemeris"] as? [String: Any]
            #expect(eph?["theory"] is String && eph?["accuracy"] is String, "\(id)")
        }
    }

    @Test("one body: the Earth's moons, parent and scene radius; Saturn's rings")
    func single() throws {
        let earth = try APIServer.get("/v1/bodies/earth").json
        #expect(earth["parent"] as? String == "sun")
        #expect(Set(earth["moons"] as? [String] ?? []) == ["moon", "iss"])
        #expect(abs((number(earth["sceneRadius"]) ?? 0) - 0.0998) < 0.001)
        let saturn = try APIServer.get("/v1/bodies/saturn").json
        #expect(saturn["rings"] is [String: Any])
        let moon = try APIServer.get("/v1/bodies/moon").json
        #expect(abs((number(moon["sceneRadius"]) ?? 0) - 0.027) < 0.0005)
    }

    @Test("unknown id: 404 problem listing the valid ids")
    func unknown() throws {
        let r = try APIServer.get("/v1/bodies/vulcan")
        #expect(r.status == 404)
        #expect(r.header("content-type")?.hasPrefix("application/problem+json") == true)
        #expect((r.json["validIds"] as? [String])?.count == 25)
        #expect((r.json["detail"] as? String)?.contains("vulcan") == true)
    }

    @Test("unknown query parameter: 400 naming it")
    func unknownParameter() throws {
        let r = try APIServer.get("/v1/bodies?colour=red")
        #expect(r.status == 400)
        #expect(r.json["parameter"] as? String == "colour")
    }
}
