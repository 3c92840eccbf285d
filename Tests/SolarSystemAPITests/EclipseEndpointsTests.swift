import Foundation
import HTTPTestSupport
import Testing

@Suite("GET /v1/eclipses, /v1/eclipses/{id}, /{id}/path, /v1/eclipses/local, /v1/transits, /v1/views/eclipse.*")
struct EclipseEndpointsTests {
    @Test("the list: the next 10 without stop, kinds, conventions named, CSV; spans over 1,000 years are 400")
    func list() throws {
        let r = try APIServer.get("/v1/eclipses?start=2024-01-01")
        #expect(r.status == 200)
        let eclipses = r.objects("eclipses")
        #expect(eclipses.count == 10 && number(r.json["count"]) == 10)
        #expect(eclipses.first?["id"] as? String == "2024-03-25-lunar")
        let total = try #require(eclipses.first { $0["id"] as? String == "2024-04-08-solar" })
        #expect(total["type"] as? String == "total" && number(total["saros"]) == 139)
        #expect(abs((number(total["gamma"]) ?? 0) - 0.3431) < 0.002)
        #expect(abs((number(total["centralDurationSeconds"]) ?? 0) - 268) < 2)
        #expect((r.json["conventions"] as? [String: Any])?["deltaT"] as? String == "table")
        let solar = try APIServer.get("/v1/eclipses?kind=solar&start=2024-01-01&stop=2025-01-01").objects("eclipses")
        #expect(solar.map { $0["id"] as? String ?? "" } == ["2024-04-08-solar", "2024-10-02-solar"])
        let csv = try APIServer.get("/v1/eclipses?kind=lunar&start=2025-01-01&stop=2026-01-01&format=csv")
        #expect(csv.csvRows.count == 3 && csv.csvRows.first?.first == "id")
        let long = try APIServer.get("/v1/eclipses?start=1500-01-01&stop=2500-02-01")
        #expect(long.status == 400 && long.json["parameter"] as? String == "stop")
        #expect(try APIServer.get("/v1/eclipses?kind=venus").json["parameter"] as? String == "kind")
        #expect(try APIServer.get("/v1/eclipses?shadow=huge").json["parameter"] as? String == "shadow")
    }

    @Test("one eclipse by id; an unknown id is 404 naming the form or the eclipses near that date; the conventions change the answer")
    func byID() throws {
        let lunar = try APIServer.get("/v1/eclipses/2025-09-07-lunar")
        #expect(lunar.status == 200 && lunar.json["type"] as? String == "total")
        #expect(((lunar.json["contacts"] as? [String: Any])?["U2"] as? [String: Any])?["date"] is String)
        let near = try APIServer.get("/v1/eclipses/2024-04-09-solar")
        #expect(near.status == 404)
        #expect((near.json["validIds"] as? [String])?.contains("2024-04-08-solar") == true)
        let malformed = try APIServer.get("/v1/eclipses/2024-4-8")
        #expect(malformed.status == 404 && (malformed.json["detail"] as? String)?.contains("YYYY-MM-DD-solar") == true)
        let danjon = try APIServer.get("/v1/eclipses/2025-09-07-lunar?shadow=danjon")
        #expect((number(danjon.json["penumbralMagnitude"]) ?? 9) < (number(lunar.json["penumbralMagnitude"]) ?? 0) - 0.02)
        let nasaDeltaT = try APIServer.get("/v1/eclipses/2027-08-02-solar?deltaT=71.7").json
        #expect(number(nasaDeltaT["deltaTSeconds"]) == 71.7)
    }

    @Test("the path is GeoJSON with the central line, the limits and the horizon curves; a lunar id has none")
    func path() throws {
        let r = try APIServer.get("/v1/eclipses/2024-04-08-solar/path")
        #expect(r.status == 200 && r.header("content-type") == "application/geo+json")
        #expect(r.json["type"] as? String == "FeatureCollection")
        let ids = r.objects("features").map { $0["id"] as? String ?? "" }
        for id in ["greatest-eclipse", "central-line", "northern-limit", "southern-limit", "penumbral-southern-limit", "partial-begins-at-sunrise", "partial-ends-at-sunset"] {
            #expect(ids.contains(id), "\(id) missing from \(ids)")
        }
        let line = try #require(r.objects("features").first { $0["id"] as? String == "central-line" })
        let coordinates = ((line["geometry"] as? [String: Any])?["coordinates"] as? [[Double]]) ?? []
        let times = ((line["properties"] as? [String: Any])?["times"] as? [String]) ?? []
        #expect(coordinates.count > 150 && coordinates.count == times.count)
        #expect(coordinates.allSatisfy { $0.count == 2 && abs($0[0]) <= 180 && abs($0[1]) <= 90 })
        #expect(try APIServer.get("/v1/eclipses/2025-09-07-lunar/path").status == 404)
    }

    @Test("from a place: contacts with the Sun's altitude, below-horizon eclipses only on request; lat/lon checked")
    func local() throws {
        let dallas = try APIServer.get("/v1/eclipses/local?lat=32.7767&lon=-96.797&start=2024-01-01&stop=2025-01-01")
        let e = try #require(dallas.objects("eclipses").first)
        #expect(e["id"] as? String == "2024-04-08-solar" && e["type"] as? String == "total")
        let contacts = try #require(e["contacts"] as? [String: Any])
        let c2 = try #require(contacts["centralBegin"] as? [String: Any])
        #expect((c2["date"] as? String)?.hasPrefix("2024-04-08T18:40:4") == true)
        #expect((60...70).contains(number(c2["sunAltitudeDeg"]) ?? 0) && c2["aboveHorizon"] as? Bool == true)
        // Sydney: the 2024-10-02 annular eclipse is not seen; the 2024-04-08 one is at night.
        let hidden = try APIServer.get("/v1/eclipses/local?lat=-33.87&lon=151.21&start=2024-04-01&stop=2024-04-30")
        #expect(hidden.objects("eclipses").isEmpty)
        let below = try APIServer.get("/v1/eclipses/local?lat=-33.87&lon=151.21&start=2024-04-01&stop=2024-04-30&includeBelowHorizon=true")
        let night = below.objects("eclipses")
        #expect(night.isEmpty || night.allSatisfy { $0["visible"] as? Bool == false })
        let lunar = try APIServer.get("/v1/eclipses/local?lat=48.8566&lon=2.3522&kind=lunar&start=2025-09-01&stop=2025-10-01")
        let moon = try #require(lunar.objects("eclipses").first)
        #expect(((moon["contacts"] as? [String: Any])?["U2"] as? [String: Any])?["moonAltitudeDeg"] != nil)
        // The poles: east is undefined there, the answers are still numbers.
        for pole in ["lat=90&lon=0", "lat=-90&lon=180"] {
            let r = try APIServer.get("/v1/eclipses/local?\(pole)&start=2020-01-01&stop=2030-01-01&includeBelowHorizon=true")
            #expect(r.status == 200 && !r.objects("eclipses").isEmpty, "\(pole)")
        }
        #expect(try APIServer.get("/v1/eclipses/2021-12-04-solar/path").status == 200)   // total over Antarctica
        #expect(try APIServer.get("/v1/eclipses/local?lat=91&lon=0").json["parameter"] as? String == "lat")
        #expect(try APIServer.get("/v1/eclipses/local?lat=10&lon=-181").json["parameter"] as? String == "lon")
        #expect(try APIServer.get("/v1/eclipses/local?lat=10").json["parameter"] as? String == "lon")
    }

    @Test("transits geocentric and from a place; eclipses and occultations as sky events; the map as PNG and SVG")
    func transitsEventsAndMaps() throws {
        let t = try APIServer.get("/v1/transits?start=2001-01-01&stop=2021-01-01")
        #expect(t.objects("transits").map { $0["id"] as? String ?? "" } == ["2003-05-07-mercury", "2004-06-08-venus", "2006-11-08-mercury", "2012-06-06-venus", "2016-05-09-mercury", "2019-11-11-mercury"])
        let local = try APIServer.get("/v1/transits?body=mercury&start=2019-11-01&stop=2019-12-01&lat=40.7&lon=-74").objects("transits")
        #expect(((local.first?["contacts"] as? [String: Any])?["I"] as? [String: Any])?["sunAltitudeDeg"] != nil)
        let events = try APIServer.get("/v1/sky/events?lat=48.8566&lon=2.3522&start=2026-03-01&stop=2026-09-30&kinds=solar-eclipse,lunar-eclipse,occultation,rise")
        #expect(events.status == 200)
        let kinds = Set(events.objects("events").map { $0["kind"] as? String ?? "" })
        // Paris 2026: the Regulus occultation of March 29, the partial solar eclipse of August 12
        // (at sunset), the partial lunar eclipse of August 28 (at moonset), moonrises.
        #expect(Set(["solar-eclipse", "lunar-eclipse", "occultation", "rise"]).isSubset(of: kinds), "\(kinds)")
        let occultation = try #require(events.objects("events").first { $0["kind"] as? String == "occultation" }?["occultation"] as? [String: Any])
        #expect(["bright", "dark"].contains((occultation["disappearance"] as? [String: Any])?["limb"] as? String ?? ""))
        let png = try APIServer.get("/v1/views/eclipse.png?id=2027-08-02-solar&width=256")
        #expect(png.status == 200 && png.header("content-type") == "image/png" && png.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let svg = try APIServer.get("/v1/views/eclipse.svg?id=2027-08-02-solar&width=256")
        #expect(String(decoding: svg.body, as: UTF8.self).contains("central line"))
        #expect(try APIServer.get("/v1/views/eclipse.png").json["parameter"] as? String == "id")
        // A lunar id is a bad parameter; a solar id that names no date names no eclipse, as
        // /v1/eclipses/{id} answers it (both ids fit the spec's pattern).
        #expect(try APIServer.get("/v1/views/eclipse.svg?id=2026-08-28-lunar").json["parameter"] as? String == "id")
        let undated = try APIServer.get("/v1/views/eclipse.svg?id=-0000000000-00-00-solar")
        #expect(undated.status == 404 && undated.json["title"] as? String == "Unknown eclipse")
        #expect(try APIServer.get("/v1/eclipses/-0000000000-00-00-solar").status == 404)
        #expect(try APIServer.get("/v1/views/eclipse.svg?id=2027-08-02-solar&width=99999").json["parameter"] as? String == "width")
    }
}
