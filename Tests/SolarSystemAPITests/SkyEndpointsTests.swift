import Foundation
import HTTPTestSupport
import Testing

@Suite("GET /v1/sky, /v1/sky/events, /v1/moon/phases, /v1/moon/apsides, /v1/seasons, /v1/stars from a place")
struct SkyEndpointsTests {
    static let paris = "lat=48.8566&lon=2.3522&elevation=35"

    @Test("/v1/sky names its ΔT and gives every field for each default body")
    func sky() throws {
        let r = try APIServer.get("/v1/sky?date=2026-11-22T20:00:00Z&\(Self.paris)")
        #expect(r.status == 200)
        let j = r.json
        #expect(j["deltaTSource"] as? String == "IERS finals2000A (Bulletin A prediction)")
        #expect((69...70).contains(number(j["deltaTSeconds"]) ?? 0))
        #expect(abs(number(j["ut1MinusUtcSeconds"]) ?? 9) < 0.9)
        // The pole it applied, from the same IERS rows (Bulletin A predicts x_p ≈ 0.1–0.3″, y_p ≈ 0.2–0.5″ for late 2026).
        let pole = (j["polarMotionArcsec"] as? [Any])?.compactMap(number) ?? []
        #expect(pole.count == 2 && (0.0...0.6).contains(pole.first ?? -1) && (0.0...0.7).contains(pole.last ?? -1), "\(pole)")
        // Before the IERS finals table: measured ΔT (C04) from 1962, no polar motion.
        let apollo = try APIServer.get("/v1/sky?date=1969-07-20T20:17:40Z&\(Self.paris)&bodies=moon").json
        #expect((apollo["deltaTSource"] as? String)?.hasPrefix("IERS EOP 20 C04") == true)
        #expect((39.7...39.8).contains(number(apollo["deltaTSeconds"]) ?? 0))
        #expect(apollo["polarMotionArcsec"] is NSNull)
        let bodies = r.objects("bodies")
        #expect(bodies.map { $0["id"] as? String ?? "" } == ["sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto"])
        for b in bodies {
            for key in ["raDeg", "decDeg", "raJ2000Deg", "decJ2000Deg", "azimuthDeg", "altitudeDeg", "hourAngleDeg", "distanceKm", "lightTimeS", "magnitude", "angularDiameterArcsec"] {
                #expect(number(b[key]) != nil, "\(b["id"] ?? "") \(key)")
            }
        }
        // The Sun has no phase; the Moon, a day before full on 2026-11-24, is nearly full and up in the east.
        #expect(bodies[0]["phaseAngleDeg"] is NSNull)
        let moon = bodies[1]
        #expect((0.9...1).contains(number(moon["illuminatedFraction"]) ?? 0))
        #expect((30...70).contains(number(moon["altitudeDeg"]) ?? 0))
        #expect(r.header("cache-control")?.contains("immutable") == true)
        let airless = try APIServer.get("/v1/sky?date=2026-11-22T20:00:00Z&\(Self.paris)&bodies=moon&refraction=false")
        #expect(airless.json["refraction"] is NSNull)
        let refracted = number(moon["altitudeDeg"]) ?? 0, plain = number(airless.objects("bodies").first?["altitudeDeg"]) ?? 0
        #expect(refracted > plain && refracted - plain < 0.02)
    }

    @Test("/v1/sky as an observer table: CSV rows per instant and body; too many rows is 400")
    func table() throws {
        let r = try APIServer.get("/v1/sky?\(Self.paris)&start=2026-01-01&stop=2026-01-02&step=6h&bodies=sun,moon&format=csv")
        #expect(r.status == 200)
        #expect(r.header("content-type")?.hasPrefix("text/csv") == true)
        let rows = r.csvRows
        #expect(rows.first?.first == "date" && rows.count == 1 + 5 * 2)
        let json = try APIServer.get("/v1/sky?\(Self.paris)&start=2026-01-01&stop=2026-01-02&step=12h&bodies=venus")
        #expect(number(json.json["count"]) == 3)
        #expect(json.objects("samples").count == 3)
        // Over 2,000 rows the table streams as the client reads: still one JSON document.
        let streamed = try APIServer.get("/v1/sky?\(Self.paris)&start=2026-01-01&stop=2026-01-11&step=5m&bodies=moon")
        #expect(number(streamed.json["count"]) == 2881)
        #expect(streamed.objects("samples").count == 2881)
        let long = try APIServer.get("/v1/sky?\(Self.paris)&start=2026-01-01&stop=2026-03-01&step=1m")
        #expect(long.status == 400)
        #expect(long.json["parameter"] as? String == "step")
    }

    @Test("out-of-range places and bad bodies are 400 naming the parameter and what is accepted", arguments: [
        ("lat=90.5&lon=0", "lat"), ("lat=-91&lon=0", "lat"), ("lat=0&lon=180.01", "lon"), ("lat=0&lon=-200", "lon"),
        ("lat=0&lon=0&elevation=-501", "elevation"), ("lat=0&lon=0&elevation=10001", "elevation"), ("lon=0", "lat"),
        ("lat=abc&lon=0", "lat"), ("lat=0&lon=0&bodies=earth", "bodies"), ("lat=0&lon=0&bodies=iss", "bodies"),
        ("lat=0&lon=0&temperature=100", "temperature"), ("lat=0&lon=0&refraction=maybe", "refraction"),
    ])
    func errors(query: String, parameter: String) throws {
        for path in ["/v1/sky", "/v1/sky/events"] where !(path == "/v1/sky/events" && ["temperature", "refraction"].contains(parameter)) {
            let r = try APIServer.get("\(path)?\(query)")
            #expect(r.status == 400, "\(path)?\(query)")
            #expect(r.header("content-type")?.hasPrefix("application/problem+json") == true)
            #expect(r.json["parameter"] as? String == parameter)
            #expect((r.json["accepted"] as? String)?.isEmpty == false)
        }
    }

    @Test("/v1/sky/events: a day at Tromsø in December is polar night; CSV; spans over 10 years are 400")
    func events() throws {
        let r = try APIServer.get("/v1/sky/events?lat=69.6492&lon=18.9553&start=2025-12-10&stop=2025-12-11")
        #expect(r.status == 200)
        let events = r.objects("events")
        let kinds = events.map { "\($0["body"] ?? "") \($0["kind"] ?? "")" }
        #expect(kinds.contains("sun polar-night"))
        #expect(kinds.contains("sun transit"))
        #expect(!kinds.contains("sun rise") && !kinds.contains("sun set"))
        #expect(kinds.contains("sun civil-dawn"))
        for e in events { #expect(number(e["azimuthDeg"]) != nil && number(e["altitudeDeg"]) != nil && e["date"] is String) }
        #expect((r.json["deltaTSeconds"] as? [Double])?.count == 2)
        #expect(r.json["deltaTSource"] as? String == "IERS finals2000A (observed)")
        let csv = try APIServer.get("/v1/sky/events?lat=51.48&lon=0&start=2025-01-01&stop=2026-01-01&bodies=sun&kinds=rise&format=csv")
        #expect(csv.csvRows.count == 1 + 365)
        #expect(csv.csvRows.dropFirst().allSatisfy { $0[1] == "sun" && $0[2] == "rise" })
        let long = try APIServer.get("/v1/sky/events?lat=51.48&lon=0&start=2020-01-01&stop=2030-06-01")
        #expect(long.status == 400)
        #expect(long.json["parameter"] as? String == "stop")
        #expect(try APIServer.get("/v1/sky/events?lat=51.48&lon=0&kinds=sunrise").json["parameter"] as? String == "kinds")
        let wide = try APIServer.get("/v1/sky/events?lat=51.48&lon=0&start=2016-01-01&stop=2025-01-01&bodies=sun,moon,venus")
        #expect(wide.status == 400)
        #expect(wide.json["parameter"] as? String == "stop")
    }

    @Test("/v1/moon/phases, /v1/moon/apsides, /v1/seasons")
    func almanac() throws {
        let phases = try APIServer.get("/v1/moon/phases?start=2026-11-26&stop=2026-12-31").objects("phases")
        #expect(phases.map { number($0["quarter"]) ?? -1 } == [3, 0, 1, 2, 3])
        #expect(phases[3]["name"] as? String == "Full Moon")
        #expect((phases[3]["date"] as? String)?.hasPrefix("2026-12-24T01:2") == true)
        let moon = try APIServer.get("/v1/moon/phases?date=2026-12-24T01:28:00Z").json
        #expect(moon["name"] as? String == "Full Moon")
        #expect((number(moon["illuminatedFraction"]) ?? 0) > 0.99)
        // start/stop decide over date, which is only validated.
        #expect(try APIServer.get("/v1/moon/phases?date=2026-12-24&start=2026-12-01").objects("phases").count == 5)
        #expect(try APIServer.get("/v1/moon/phases?date=yesterday&start=2026-12-01").json["parameter"] as? String == "date")
        let apsides = try APIServer.get("/v1/moon/apsides?start=2026-11-01&stop=2026-12-31").objects("apsides")
        #expect(apsides.map { $0["kind"] as? String ?? "" } == ["apogee", "perigee", "apogee", "perigee"])
        #expect(apsides.allSatisfy { (356_000...407_000).contains(number($0["distanceKm"]) ?? 0) })
        let seasons = try APIServer.get("/v1/seasons?year=2026").objects("events")
        #expect(seasons.map { $0["kind"] as? String ?? "" } == ["perihelion", "march-equinox", "june-solstice", "aphelion", "september-equinox", "december-solstice"])
        #expect((seasons[1]["date"] as? String)?.hasPrefix("2026-03-20T14:4") == true)
        #expect(seasons[1]["distanceKm"] is NSNull)
        #expect(try APIServer.get("/v1/seasons?year=5000").json["parameter"] as? String == "year")
        // Over ten years the first ten are answered, with a link to the rest.
        let long = try APIServer.get("/v1/moon/apsides?start=2000-01-01&stop=2020-01-01")
        #expect(long.json["truncated"] as? Bool == true)
        #expect((long.json["stop"] as? String)?.hasPrefix("2010-01-08") == true)
        #expect(long.header("link")?.contains("rel=\"next\"") == true)
        let reversed = try APIServer.get("/v1/moon/apsides?start=2026-12-01&stop=2026-11-01")
        #expect(reversed.status == 200 && number(reversed.json["count"]) == 0)
    }

    @Test("/v1/stars with a place: azimuth and altitude per star")
    func stars() throws {
        let r = try APIServer.get("/v1/stars?lat=51.48&lon=0&date=2026-01-01T22:00:00Z&maxMagnitude=0.5&named=true")
        #expect(r.status == 200)
        let stars = r.objects("stars")
        #expect(stars.count == 10)
        #expect(stars.allSatisfy { number($0["azimuthDeg"]) != nil && number($0["altitudeDeg"]) != nil })
        #expect((r.json["polarMotionArcsec"] as? [Any])?.count == 2)
        // Sirius culminates near 23:50 UT in early January at 17° from Greenwich.
        let sirius = try #require(stars.first { $0["name"] as? String == "Sirius" })
        #expect((14...20).contains(number(sirius["altitudeDeg"]) ?? 0))
        #expect(try APIServer.get("/v1/stars?lat=95&lon=0").status == 400)
        #expect(try APIServer.get("/v1/stars?lat=45").json["parameter"] as? String == "lon")
        // Without a place its other parameters are only validated.
        #expect(try APIServer.get("/v1/stars?maxMagnitude=0&date=2026-01-01&elevation=35").objects("stars").first?["azimuthDeg"] == nil)
        #expect(try APIServer.get("/v1/stars?maxMagnitude=0&elevation=20000").json["parameter"] as? String == "elevation")
    }
}
