import Ephemeris
import Foundation
import HTTPCore
import HTTPTestSupport
@testable import SolarSystemAPI
import Testing

/// Satellites in `/v1/sky` and their passes in `/v1/sky/events`, through the real server with
/// the bundled ISS set and NOAA 19 (``SatelliteServer``). Reference values: Skyfield 1.55 with
/// the same set at London, from `Tests/SkyTests/Fixtures/satellite-passes.json`.
@Suite("Satellites in the observer's sky")
struct SkySatelliteEndpointsTests {
    static let london = "lat=51.5074&lon=-0.1278&elevation=11"
    /// Skyfield's geometric altitude, azimuth and range of the ISS from London at 2026-09-24T14:34:03.831991Z.
    static let skyfield = (altitudeDeg: 17.867856943454868, azimuthDeg: 97.00075783074266, distanceKm: 1114.479599257776)
    /// Skyfield's culminations above 10° at London, 2026-09-24 … 2026-09-27.
    static let culminations = ["2026-09-24T14:32:07.302Z", "2026-09-24T16:08:42.239Z", "2026-09-24T17:45:31.818Z", "2026-09-24T19:22:06.547Z",
                               "2026-09-25T13:44:33.212Z", "2026-09-25T15:21:00.619Z", "2026-09-25T16:57:49.153Z", "2026-09-25T18:34:29.947Z",
                               "2026-09-25T20:10:37.901Z", "2026-09-26T12:57:00.796Z", "2026-09-26T14:33:19.208Z", "2026-09-26T16:10:04.814Z",
                               "2026-09-26T17:46:50.419Z", "2026-09-26T19:23:08.204Z"]

    @Test("bodies=iss: alt/az within 1′ of Skyfield, with the element set's epoch, age, light and ground point")
    func issInTheSky() throws {
        let r = try SatelliteServer.shared.get("/v1/sky?\(Self.london)&date=2026-09-24T14:34:03.831991Z&bodies=iss,sun&refraction=false")
        #expect(r.status == 200)
        let bodies = r.objects("bodies")
        #expect(bodies.map { $0["id"] as? String } == ["iss", "sun"])
        let iss = bodies.first ?? [:]
        let alt = number(iss["altitudeDeg"]) ?? .nan, az = number(iss["azimuthDeg"]) ?? .nan
        #expect(abs(alt - Self.skyfield.altitudeDeg) < 1.0 / 60)
        #expect(abs(az - Self.skyfield.azimuthDeg) * cos(alt * .pi / 180) < 1.0 / 60)
        #expect(abs((number(iss["distanceKm"]) ?? 0) - Self.skyfield.distanceKm) < 0.3)
        #expect(iss["noradId"] as? Int == 25_544)
        #expect(iss["elementSetEpoch"] as? String == "2026-09-24T03:24:21.453Z")
        #expect(iss["stale"] as? Bool == false)
        #expect(["sunlit", "penumbra", "umbra"].contains(iss["illumination"] as? String ?? ""))
        #expect(iss["subpoint"] as? [String: Any] != nil)
        #expect(iss["magnitude"] is NSNull)
        #expect((number(iss["lightTimeS"]) ?? 0) > 0.003 && (number(iss["lightTimeS"]) ?? 1) < 0.004)
        // Refracted by default, as every body.
        let refracted = try SatelliteServer.shared.get("/v1/sky?\(Self.london)&date=2026-09-24T14:34:03.831991Z&bodies=iss").objects("bodies").first ?? [:]
        let lift = (number(refracted["altitudeDeg"]) ?? 0) - alt
        #expect(lift > 2.5 / 60 && lift < 3.5 / 60)
        #expect(r.header("Cache-Control") == "public, max-age=60")
    }

    @Test("the observer table carries satellites: JSON with their light, CSV with an illumination column")
    func table() throws {
        let q = "/v1/sky?\(Self.london)&bodies=moon,norad:33591&start=2026-09-24T14:00:00Z&stop=2026-09-24T15:00:00Z&step=10m"
        let r = try SatelliteServer.shared.get(q)
        #expect(r.status == 200)
        let samples = r.objects("samples")
        #expect(samples.count == 7)
        let first = (samples.first?["bodies"] as? [[String: Any]]) ?? []
        #expect(first.map { $0["id"] as? String } == ["moon", "norad:33591"])
        #expect(first.last?["noradId"] as? Int == 33_591)
        let csv = try SatelliteServer.shared.get(q + "&format=csv").bodyText.split(separator: "\n")
        #expect(csv.first?.hasSuffix(",angular_diameter_arcsec,illumination") == true)
        #expect(csv.count == 15)
        #expect(csv.filter { $0.contains(",norad:33591,") }.allSatisfy { $0.hasSuffix(",sunlit") || $0.hasSuffix(",umbra") || $0.hasSuffix(",penumbra") })
        #expect(csv.filter { $0.contains(",moon,") }.allSatisfy { $0.hasSuffix(",") })
    }

    @Test("kinds=pass: the ISS's passes over London as Skyfield finds them, each with rise, culmination, set and visibility")
    func passes() throws {
        let r = try SatelliteServer.shared.get("/v1/sky/events?\(Self.london)&bodies=iss&kinds=pass&start=2026-09-24T00:00:00Z&stop=2026-09-27T00:00:00Z")
        #expect(r.status == 200)
        #expect(number(r.json["minAltitudeDeg"]) == 10)
        let events = r.objects("events")
        #expect(events.count == Self.culminations.count)
        for (e, reference) in zip(events, Self.culminations) {
            #expect(e["kind"] as? String == "pass")
            #expect(e["body"] as? String == "iss")
            let culmination = e["culmination"] as? [String: Any] ?? [:]
            let date = try TimeScale.parse(culmination["date"] as? String ?? "")
            #expect(abs(date.seconds(since: try TimeScale.parse(reference))) < 1)
            #expect(e["date"] as? String == culmination["date"] as? String)
            let rise = e["rise"] as? [String: Any] ?? [:], set = e["set"] as? [String: Any] ?? [:]
            #expect(abs((number(rise["altitudeDeg"]) ?? 0) - 10) < 0.01)
            #expect(abs((number(set["altitudeDeg"]) ?? 0) - 10) < 0.01)
            #expect((rise["date"] as? String ?? "") < (culmination["date"] as? String ?? "") && (culmination["date"] as? String ?? "") < (set["date"] as? String ?? ""))
            #expect((number(culmination["altitudeDeg"]) ?? 0) >= 10)
            let visible = e["visible"] as? Bool
            #expect(visible == !(e["visibleFrom"] is NSNull))
            #expect(e["elementSetEpoch"] as? String == "2026-09-24T03:24:21.453Z")
        }
        #expect(events.contains { $0["visible"] as? Bool == true } && events.contains { $0["visible"] as? Bool == false })
        // A higher minimum gives fewer passes; CSV lists each point of a pass as a row.
        let high = try SatelliteServer.shared.get("/v1/sky/events?\(Self.london)&bodies=iss&kinds=pass&start=2026-09-24T00:00:00Z&stop=2026-09-27T00:00:00Z&minAltitude=40")
        #expect(high.objects("events").count < events.count && !high.objects("events").isEmpty)
        let csv = try SatelliteServer.shared.get("/v1/sky/events?\(Self.london)&bodies=iss&kinds=pass&start=2026-09-24T00:00:00Z&stop=2026-09-25T00:00:00Z&format=csv").bodyText
        #expect(csv.components(separatedBy: ",iss,pass-culmination,").count - 1 == 4)
        #expect(csv.components(separatedBy: ",iss,pass-rise,").count - 1 == 4)
    }

    @Test("passes mix with the Sun's events in time order; the default kinds include them")
    func mixed() throws {
        let r = try SatelliteServer.shared.get("/v1/sky/events?\(Self.london)&bodies=sun,iss&start=2026-09-24T00:00:00Z&stop=2026-09-25T00:00:00Z")
        #expect(r.status == 200)
        let events = r.objects("events")
        #expect(events.filter { $0["kind"] as? String == "pass" }.count == 4)
        #expect(events.contains { $0["kind"] as? String == "rise" })
        let dates = events.compactMap { $0["date"] as? String }
        #expect(dates == dates.sorted())
    }

    @Test("errors: span, kinds, minAltitude, unknown satellite, and a date SGP4 cannot reach")
    func errors() throws {
        let s = SatelliteServer.shared
        for (query, parameter) in [("bodies=iss&start=2026-09-24&stop=2026-11-24", "stop"),
                                   ("bodies=iss,norad:33591&start=2026-09-24&stop=2026-10-10", "stop"),
                                   ("bodies=iss&kinds=rise", "kinds"), ("bodies=iss&kinds=pass&minAltitude=95", "minAltitude")] {
            let r = try s.get("/v1/sky/events?\(Self.london)&\(query)")
            #expect(r.status == 400, "\(query)")
            #expect(r.json["parameter"] as? String == parameter, "\(query)")
        }
        #expect(try s.get("/v1/sky?\(Self.london)&bodies=norad:99999").status == 404)
        #expect(try s.get("/v1/sky?\(Self.london)&bodies=earth").status == 400)
        let decayed = try s.get("/v1/sky?\(Self.london)&bodies=iss&date=2036-01-01")
        #expect(decayed.status == 422)
        #expect(decayed.json["body"] as? String == "iss")
        #expect(decayed.json["sgp4Error"] as? Int == 6)
        let decayedPasses = try s.get("/v1/sky/events?\(Self.london)&bodies=iss&kinds=pass&start=2036-01-01&stop=2036-01-02")
        #expect(decayedPasses.status == 422)
        #expect(decayedPasses.json["noradId"] as? Int == 25_544)
        let table = try s.get("/v1/sky?\(Self.london)&bodies=iss&start=2035-12-31&stop=2036-01-02&step=1h")
        #expect(table.status == 422)
    }
}

/// The request that cost 700 s of CPU (issue 34): a day of passes of a geostationary set a
/// thousand years from its epoch. It is answered now (the figure is `bench sky`'s); and with a
/// CPU budget too small for it, it is stopped with a 503 naming the limit instead of holding a
/// worker.
@Suite("Deep-space satellites in the sky: bounded work")
struct DeepSpaceSkyEndpointsTests {
    /// AMC-4 (geostationary) and Molniya 1-36 from the SGP4 verification set (Vallado et al. 2006).
    static let deepSpace = ["AMC-4",
                            "1 25954U 99060A   04039.68057285 -.00000108  00000-0  00000-0 0  6847",
                            "2 25954   0.0004 243.8136 0001765  15.5294  22.7134  1.00271289 15615",
                            "MOLNIYA 1-36",
                            "1 09880U 77021A   06176.56157475  .00000421  00000-0  10000-3 0  9814",
                            "2 09880  64.5968 349.3786 7069051 270.0229  16.3320  2.00813614112380"]
    static let query = "/v1/sky/events?kinds=pass&bodies=norad:25954&lat=0&lon=0&start=2999-01-01&stop=2999-01-02"

    static func server(configure: @escaping @Sendable (inout HTTPServerConfiguration) -> Void = { _ in }) throws -> TestServer {
        let services = SatelliteServer.services(SatelliteFeed(ElementSetWatcher.catalogue(
            bundled: [("iss.tle", SatelliteServer.file(SatelliteServer.iss))], file: ("ops.tle", SatelliteServer.file(deepSpace)))))
        let api = V1API(services: services)
        return try TestServer(configure: configure) { router in api.register(on: router) }
    }

    @Test("a day of a geostationary satellite's passes a thousand years from its epoch is answered")
    func farDeepSpacePassesAreAnswered() throws {
        let s = try Self.server()
        let r = try s.get(Self.query)
        #expect(r.status == 200, "\(r.bodyText.prefix(300))")
        #expect(r.json["events"] is [Any])
        // The same again, and the Molniya's near its epoch, from the warm propagator.
        #expect(try s.get(Self.query).status == 200)
        #expect(try s.get("/v1/sky/events?kinds=pass&bodies=norad:9880&lat=51.5&lon=0&start=2006-06-26&stop=2006-06-29").objects("events").count >= 6)
    }

    @Test("with a budget too small for it, it is stopped with a 503 naming the limit, and the next request is served")
    func budgetStopsIt() throws {
        let s = try Self.server { $0.requestCPULimit = 0.001; $0.workerPoolSize = 1 }
        let r = try s.get(Self.query)
        #expect(r.status == 503)
        #expect(r.json["limit"] as? String == "--request-cpu-limit")
        #expect((r.json["detail"] as? String)?.contains("CPU budget") == true)
        #expect(try s.get("/v1/positions?date=2026-01-01&bodies=mars").status == 200)
    }
}
