import Ephemeris
import Foundation
import HTTPTestSupport
import Logging
import Satellites
import Sky
@testable import SolarSystemAPI
import Testing

/// Element sets through the real server: `iss`, `norad:`, slugs, errors, caching, series, the
/// scene, and a reload when the file changes.
enum SatelliteServer {
    static let iss = ["ISS (ZARYA)",
                      "1 25544U 98067A   26267.14191496  .00009634  00000+0  18116-3 0  9999",
                      "2 25544  51.6318 170.3464 0004691 174.6338 185.4701 15.49258637587098"]
    static let noaa = ["NOAA 19",
                       "1 33591U 09005A   26267.29309843  .00000009  00000+0  28340-4 0  9995",
                       "2 33591  98.9434 338.1952 0014779 109.0362 251.2412 14.13486774908481"]

    static func file(_ lines: [String]) -> ElementSetFile {
        do { return try ElementSetFile(bytes: Array(lines.joined(separator: "\n").utf8)) } catch { fatalError("\(error)") }
    }

    static func services(_ feed: SatelliteFeed) -> APIServices {
        do {
            return try APIServices(
                catalogue: try Catalogue(json: RepositoryFiles.bytes("Resources/bodies.json")), kernel: APIServer.kernel,
                stars: try StarCatalogue(csv: RepositoryFiles.bytes("Resources/stars.csv")), missions: APIServer.missions,
                bodies: APIServer.bodies, deltaT: try DeltaTTable(csv: RepositoryFiles.bytes("Resources/iers-delta-t.csv")),
                openAPIDocument: [], satellites: feed,
                clock: { APIServer.pinnedNow })
        } catch {
            fatalError("services: \(error)")
        }
    }

    static func start(_ services: APIServices) -> TestServer {
        do {
            let api = V1API(services: services)
            return try TestServer { router in api.register(on: router) }
        } catch {
            fatalError("cannot start the satellite test server: \(error)")
        }
    }

    /// The bundled ISS set and NOAA 19.
    static let shared: TestServer = start(services(SatelliteFeed(ElementSetWatcher.catalogue(
        bundled: [("iss.tle", file(iss))], file: ("ops.tle", file(noaa))))))
}

@Suite("Satellites through the API")
struct SatelliteEndpointsTests {
    /// Skyfield 1.55 (python-sgp4 2.27) for the ISS set above at 2026-09-25T00:00:00Z: geocentric
    /// ecliptic J2000 km (`frame_xyz(ecliptic_J2000_frame)`), and the WGS-84 sub-point.
    static let skyfieldEclipticKm = Vector3(1185.8863467, -2045.07209922, 6364.37609592)
    static let skyfieldSubpoint = (latitudeDeg: 47.96881989985313, longitudeDeg: -78.58850036743536, altitudeKm: 422.87022977421185)

    @Test("iss is SGP4: within metres of Skyfield, with epoch, age, stale and sub-point")
    func issFromElementSet() throws {
        let r = try SatelliteServer.shared.get("/v1/positions?bodies=iss&date=2026-09-25T00:00:00Z&center=earth")
        #expect(r.status == 200)
        let b = r.objects("bodies")
        #expect(b.count == 1)
        guard let iss = b.first, let p = vector(iss["position"]) else { Issue.record("no iss"); return }
        #expect((p - Self.skyfieldEclipticKm).length < 0.005)
        #expect(iss["noradId"] as? Int == 25_544)
        #expect(iss["name"] as? String == "ISS (ZARYA)")
        #expect(iss["elementSetEpoch"] as? String == "2026-09-24T03:24:21.453Z")
        #expect(abs((number(iss["elementSetAgeDays"]) ?? 0) - 0.858085) < 1e-5)
        #expect(iss["stale"] as? Bool == false)
        #expect((iss["theory"] as? String)?.hasPrefix("SGP4") == true)
        let sub = iss["subpoint"] as? [String: Any] ?? [:]
        #expect(abs((number(sub["latitudeDeg"]) ?? 0) - Self.skyfieldSubpoint.latitudeDeg) < 0.001)
        #expect(abs((number(sub["longitudeDeg"]) ?? 0) - Self.skyfieldSubpoint.longitudeDeg) < 0.005)
        #expect(abs((number(sub["altitudeKm"]) ?? 0) - Self.skyfieldSubpoint.altitudeKm) < 0.05)
        #expect(iss["illumination"] as? String == "sunlit")
        // Fixed date, but the element sets can change: revalidated, never immutable.
        #expect(r.header("Cache-Control") == "public, max-age=60")
        #expect(r.header("ETag") != nil)
    }

    @Test("heliocentric and equatorial frames are the geocentric state moved and turned")
    func frames() throws {
        let geo = try SatelliteServer.shared.get("/v1/positions?bodies=iss,earth&date=2026-09-25&center=earth&frame=equatorial-j2000").objects("bodies")
        let helio = try SatelliteServer.shared.get("/v1/positions?bodies=iss,earth&date=2026-09-25&units=km&frame=equatorial-j2000").objects("bodies")
        guard let g = vector(geo[0]["position"]), let h = vector(helio[0]["position"]), let e = vector(helio[1]["position"]) else {
            Issue.record("vectors"); return
        }
        #expect(((h - e) - g).length < 1e-4)
        #expect(abs(g.length - 6789.25) < 0.1)
    }

    @Test("norad:NNNNN and the name's slug; stale beyond 14 days")
    func noradAndSlug() throws {
        let r = try SatelliteServer.shared.get("/v1/positions?bodies=norad:33591,noaa-19&date=2026-10-20&center=earth")
        #expect(r.status == 200)
        let b = r.objects("bodies")
        #expect(b.map { $0["id"] as? String } == ["norad:33591", "noaa-19"])
        #expect(vector(b[0]["position"]) == vector(b[1]["position"]))
        #expect(b[0]["stale"] as? Bool == true)
        #expect(abs((number((b[0]["subpoint"] as? [String: Any])?["altitudeKm"]) ?? 0) - 850) < 30)
    }

    @Test("unknown NORAD number: 404 naming it; malformed norad: id too")
    func unknown() throws {
        let r = try SatelliteServer.shared.get("/v1/positions?bodies=norad:99999&date=2026-09-25")
        #expect(r.status == 404)
        #expect(r.header("Content-Type") == "application/problem+json")
        #expect((r.json["reason"] as? String)?.contains("NORAD 99999") == true)
        #expect((r.json["validIds"] as? [String])?.contains("norad:33591") == true)
        #expect(try SatelliteServer.shared.get("/v1/positions?bodies=norad:033591").status == 404)
    }

    @Test("a date where the satellite has decayed: 422 naming it and the reason")
    func decayed() throws {
        let r = try SatelliteServer.shared.get("/v1/positions?bodies=iss&date=2036-01-01")
        #expect(r.status == 422)
        #expect(r.header("Content-Type") == "application/problem+json")
        #expect(r.json["body"] as? String == "iss")
        #expect(r.json["noradId"] as? Int == 25_544)
        #expect(r.json["sgp4Error"] as? Int == 6)
        #expect((r.json["detail"] as? String)?.contains("decayed") == true)
        // In the default list the ISS is left out and named, the other bodies answered.
        let all = try SatelliteServer.shared.get("/v1/positions?date=2036-01-01")
        #expect(all.status == 200)
        #expect(all.objects("bodies").count == 24)
        #expect(all.objects("unavailable").first?["id"] as? String == "iss")
    }

    @Test("the default list carries the ISS from its element set; date=now is not stored")
    func defaultList() throws {
        let r = try SatelliteServer.shared.get("/v1/positions?date=now&center=earth")
        #expect(r.status == 200)
        #expect(r.header("Cache-Control") == "no-store")
        let iss = r.objects("bodies").first { $0["id"] as? String == "iss" }
        #expect(iss?["noradId"] as? Int == 25_544)
        // Pinned now is 2026-11-22: 59 days after the epoch.
        #expect(iss?["stale"] as? Bool == true)
    }

    @Test("a series of the ISS: CSV rows equal the snapshots; the JSON head names the element set")
    func series() throws {
        let csv = try SatelliteServer.shared.get("/v1/positions/iss?start=2026-09-25T00:00:00Z&stop=2026-09-25T00:10:00Z&step=60s&center=earth&format=csv")
        #expect(csv.status == 200)
        let rows = csv.csvRows
        #expect(rows.count == 12)
        let snap = try SatelliteServer.shared.get("/v1/positions?bodies=iss&date=2026-09-25T00:10:00Z&center=earth").objects("bodies")[0]
        guard let last = rows.last, let p = vector(snap["position"]) else { Issue.record("rows"); return }
        let q = Vector3(Double(last[3]) ?? 0, Double(last[4]) ?? 0, Double(last[5]) ?? 0)
        // The series reuses the TEME rotation within ten minutes: centimetres at most.
        #expect((p - q).length < 0.001)
        let json = try SatelliteServer.shared.get("/v1/positions/iss?start=2026-09-25&stop=2026-09-25T00:01:00Z&step=30s&center=earth")
        #expect(json.json["noradId"] as? Int == 25_544)
        #expect(json.json["elementSetEpoch"] as? String == "2026-09-24T03:24:21.453Z")
        #expect(json.json["stale"] as? Bool == false)
        #expect(json.header("Cache-Control") == "public, max-age=60")
        // Heliocentric (the default centre), km: the Earth's DE440 state plus the geocentric one.
        let helio = try SatelliteServer.shared.get("/v1/positions/iss?start=2026-09-25T00:10:00Z&units=km&format=csv").csvRows
        let helioSnap = try SatelliteServer.shared.get("/v1/positions?bodies=iss&date=2026-09-25T00:10:00Z&units=km").objects("bodies")[0]
        guard helio.count == 2, let h = vector(helioSnap["position"]) else { Issue.record("heliocentric rows"); return }
        #expect((Vector3(Double(helio[1][3]) ?? 0, Double(helio[1][4]) ?? 0, Double(helio[1][5]) ?? 0) - h).length < 0.001)
        let decayed = try SatelliteServer.shared.get("/v1/positions/iss?start=2026-09-25&stop=2036-01-01&step=1d")
        #expect(decayed.status == 422)
    }

    @Test("the scene places the ISS from SGP4, as the positions answer does")
    func scene() throws {
        let scene = try SatelliteServer.shared.get("/v1/scene?date=2026-09-25")
        #expect(scene.header("Cache-Control") == "public, max-age=60")
        let bodies = scene.objects("bodies")
        let iss = bodies.first { $0["id"] as? String == "iss" }
        let positions = try SatelliteServer.shared.get("/v1/positions?bodies=iss&date=2026-09-25&frame=scene").objects("bodies")[0]
        guard let a = vector(iss?["position"] ?? iss?["scenePosition"]), let b = vector(positions["position"]) else { Issue.record("scene vectors"); return }
        // The engine reuses its TEME rotation for ten minutes (centimetres): a few 1e-9 scene units.
        #expect((a - b).length < 1e-6)
    }
}

@Suite("Element sets reload when the file changes")
struct ElementSetReloadTests {
    @Test("write a file, serve it, replace it: the new epoch is served, the cache does not hold the old one")
    func reload() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("sets.tle").path
        try SatelliteServer.noaa.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)

        let feed = SatelliteFeed()
        let watcher = ElementSetWatcher(path: path, bundled: [("iss.tle", SatelliteServer.file(SatelliteServer.iss))], feed: feed,
                                        logger: Logger(label: "test"))
        try watcher.loadNow()
        let server = SatelliteServer.start(SatelliteServer.services(feed))
        watcher.start(intervalSeconds: 0.05)
        defer { watcher.stop() }

        let target = "/v1/positions?bodies=norad:33591&date=2026-09-25&center=earth"
        let before = try server.get(target)
        #expect(before.objects("bodies").first?["elementSetEpoch"] as? String == "2026-09-24T07:02:03.704Z")

        // A newer NOAA 19 set (epoch day 268.0), written by rename as a cron job would.
        var newer = SatelliteServer.noaa
        newer[1] = "1 33591U 09005A   26268.00000000  .00000009  00000+0  28340-4 0  9999"
        let line = Array(newer[1].utf8)
        newer[1] = String(newer[1].dropLast()) + String(TLEParser.checksum(line[0..<68]))
        try newer.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)

        var served: String?
        for _ in 0..<100 {
            served = try server.get(target).objects("bodies").first?["elementSetEpoch"] as? String
            if served == "2026-09-25T00:00:00Z" { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(served == "2026-09-25T00:00:00Z")
        #expect(feed.current.generation >= 2)

        // A broken replacement keeps the previous sets in service.
        try "1 33591U garbage".write(toFile: path, atomically: true, encoding: .utf8)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try server.get(target).objects("bodies").first?["elementSetEpoch"] as? String == "2026-09-25T00:00:00Z")
    }
}
