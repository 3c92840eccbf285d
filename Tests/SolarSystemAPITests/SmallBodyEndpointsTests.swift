import Ephemeris
import Foundation
import HTTPTestSupport
import Logging
import Sky
import SmallBodies
@testable import SolarSystemAPI
import Testing

/// Asteroids and comets through the real server, from the bundled element files
/// (`Resources/smallbodies/`, as `serve` loads them).
enum SmallBodyServer {
    static let files: [ElementFile] = ["mpc-MPCORB.excerpt.DAT", "jplsbdb-ceres.dat", "jplsbdb-apophis.dat", "jplsbdb-67P.dat",
                                       "jplsbdb-phaethon.dat", "mpc-CometEls.txt"].map { name in
        do { return try ElementFile(name: "smallbodies/\(name)", bytes: RepositoryFiles.bytes("Resources/smallbodies/\(name)")) } catch {
            fatalError("\(name): \(error)")
        }
    }

    static let feed = SmallBodyFeed(kernel: APIServer.kernel, files: files)

    static let shared: TestServer = {
        do {
            let services = try APIServices(
                catalogue: try Catalogue(json: RepositoryFiles.bytes("Resources/bodies.json")), kernel: APIServer.kernel,
                stars: try StarCatalogue(csv: RepositoryFiles.bytes("Resources/stars.csv")), missions: APIServer.missions,
                bodies: APIServer.bodies, deltaT: try DeltaTTable(csv: RepositoryFiles.bytes("Resources/iers-delta-t.csv")),
                textures: APIServer.textures, openAPIDocument: [], smallBodies: feed, clock: { APIServer.pinnedNow })
            let api = V1API(services: services)
            return try TestServer { router in api.register(on: router) }
        } catch {
            fatalError("cannot start the small-body test server: \(error)")
        }
    }()
}

@Suite("Asteroids and comets through the API")
struct SmallBodyEndpointsTests {
    @Test("GET /v1/bodies/sb:99942: the elements as loaded, epoch, source, H/G, orbit class, trusted span")
    func detail() throws {
        let r = try SmallBodyServer.shared.get("/v1/bodies/sb:99942")
        #expect(r.status == 200)
        #expect(r.json["id"] as? String == "sb:99942")
        #expect(r.json["fullName"] as? String == "99942 Apophis (2004 MN4)")
        #expect(r.json["nameSlug"] as? String == "apophis")
        #expect((r.json["orbitClass"] as? [String: Any])?["code"] as? String == "ATE")
        // Every digit of the source (the text, not a JSON parser's reading of it).
        let text = String(decoding: r.body, as: UTF8.self)
        #expect(text.contains(#""eccentricity":0.1911953048308701"#))
        #expect(text.contains(#""a2AUPerDay2":-5.592840054057059e-14"#) || text.contains(#""a2AUPerDay2":-5.592840054057059E-14"#), "\(text)")
        #expect(number((r.json["epoch"] as? [String: Any])?["jdTDB"]) == 2_454_733.5)
        let b = r.json["brightness"] as? [String: Any] ?? [:]
        #expect(b["law"] as? String == "H-G" && number(b["h"]) == 19.7 && number(b["g"]) == 0.25)
        let source = r.json["source"] as? [String: Any] ?? [:]
        #expect(source["file"] as? String == "smallbodies/jplsbdb-apophis.dat" && source["format"] as? String == "sbdb-json")
        #expect((r.json["trustedSpan"] as? [String])?.first?.hasPrefix("1899-12") == true)
        // 3 Juno's name is the Juno spacecraft's id: the asteroid is sb:3 alone.
        let juno = try SmallBodyServer.shared.get("/v1/bodies/sb:3")
        #expect(juno.status == 200 && juno.json["name"] as? String == "Juno" && juno.json["nameSlug"] is NSNull)
        for alias in ["apophis", "sb:2004-mn4", "hale-bopp", "sb:c-1995-o1", "sb:1p", "sb:67p", "ceres", "sb:1"] {
            #expect(try SmallBodyServer.shared.get("/v1/bodies/\(alias)").status == 200, "\(alias)")
        }
    }

    @Test("unknown small bodies are 404 problems naming the id")
    func unknown() throws {
        for id in ["sb:99999999", "sb:2099-zz9"] {
            let r = try SmallBodyServer.shared.get("/v1/bodies/\(id)")
            #expect(r.status == 404)
            #expect(r.header("Content-Type")?.hasPrefix("application/problem+json") == true)
            #expect((r.json["detail"] as? String)?.contains(id) == true, "\(r.json)")
            #expect(try SmallBodyServer.shared.get("/v1/positions?bodies=\(id)&date=2026-01-01").status == 404)
        }
    }

    @Test("GET /v1/bodies?kind=small-body&q=: search, paged")
    func search() throws {
        let r = try SmallBodyServer.shared.get("/v1/bodies?kind=small-body&q=apo")
        #expect(r.status == 200)
        #expect(number(r.json["total"]) == 1)
        #expect(r.objects("bodies").first?["id"] as? String == "sb:99942")
        let page = try SmallBodyServer.shared.get("/v1/bodies?kind=small-body&limit=3&offset=3")
        #expect(number(page.json["total"]) == 10 && page.objects("bodies").count == 3)
        #expect(try SmallBodyServer.shared.get("/v1/bodies?kind=comet").objects("bodies").count == 4)
        #expect(try SmallBodyServer.shared.get("/v1/bodies?q=apo").status == 400)
        #expect(try SmallBodyServer.shared.get("/v1/bodies?kind=small-body&limit=0").status == 400)
    }

    @Test("positions: one instant, a series as JSON and CSV, model=kepler for comparison; a date beyond the integration is 422 naming the span")
    func positions() throws {
        let r = try SmallBodyServer.shared.get("/v1/positions?bodies=apophis,earth&date=2029-04-13T21:46:00Z&center=earth&units=km")
        #expect(r.status == 200)
        let apophis = try #require(r.objects("bodies").first)
        let d = try #require(number(apophis["distance"]))
        // JPL: 0.000252173 AU (37,725 km) at 21:46 TDB; a minute earlier in UTC the distance is within 500 km of it.
        #expect(abs(d - 37_725) < 500)
        #expect((apophis["theory"] as? String)?.hasPrefix("n-body") == true)
        #expect((r.json["model"] as? String)?.contains("Schwarzschild") == true)
        let kepler = try SmallBodyServer.shared.get("/v1/positions?bodies=apophis&date=2029-04-13T21:46:00Z&center=earth&units=km&model=kepler")
        let dk = try #require(number(kepler.objects("bodies").first?["distance"]))
        #expect(abs(dk - d) > 10_000) // two-body misses the flyby by far
        let series = try SmallBodyServer.shared.get("/v1/positions/sb:67p?start=2021-11-01&stop=2021-11-20&step=1d&center=earth")
        #expect(series.status == 200)
        #expect(number(series.json["count"]) == 20)
        let csv = try SmallBodyServer.shared.get("/v1/positions/hale-bopp?start=1997-03-01&stop=1997-03-03&format=csv")
        #expect(csv.status == 200 && String(decoding: csv.body, as: UTF8.self).split(separator: "\n").count == 4)
        let far = try SmallBodyServer.shared.get("/v1/positions?bodies=sb:1p&date=2150-01-01")
        #expect(far.status == 422)
        #expect((far.json["trusted"] as? [String])?.count == 2)
        #expect((far.json["detail"] as? String)?.contains("sb:1p") == true)
        #expect(try SmallBodyServer.shared.get("/v1/positions?bodies=sb:1p&date=2150-01-01&model=kepler").status == 200)
        #expect(try SmallBodyServer.shared.get("/v1/positions?bodies=ceres&model=orbits").status == 400)
    }

    @Test("close approaches: one body, and every loaded body, with JPL's fields")
    func closeApproaches() throws {
        let r = try SmallBodyServer.shared.get("/v1/close-approaches?body=sb:99942&center=earth&start=2029-01-01&stop=2030-01-01&maxDistanceAU=0.01")
        #expect(r.status == 200)
        let a = try #require(r.objects("approaches").first)
        #expect(r.objects("approaches").count == 1)
        #expect(abs((number(a["jdTDB"]) ?? 0) - 2_462_240.407032288) * 86_400 < 60)
        #expect(abs((number(a["distanceAU"]) ?? 0) / 0.000252172816142565 - 1) < 0.01)
        #expect(abs((number(a["vInfinityKmS"]) ?? 0) - 5.84141384414201) < 0.01)
        #expect(abs((number(a["relativeSpeedKmS"]) ?? 0) - 7.43332261672295) < 0.01)
        #expect((a["dateTDB"] as? String)?.hasPrefix("2029-04-13T21:46") == true)
        #expect((a["date"] as? String)?.hasPrefix("2029-04-13T21:44") == true)
        let all = try SmallBodyServer.shared.get("/v1/close-approaches?center=earth&start=2029-04-01&stop=2029-05-01&maxDistanceAU=0.05")
        #expect(all.status == 200)
        #expect(all.objects("approaches").map { $0["body"] as? String } == ["sb:99942"])
        #expect(try SmallBodyServer.shared.get("/v1/close-approaches?center=vesta&start=2029-01-01&stop=2030-01-01").status == 400)
        #expect(try SmallBodyServer.shared.get("/v1/close-approaches?body=ceres&start=2029-01-01").status == 400)
        #expect(try SmallBodyServer.shared.get("/v1/close-approaches?body=sb:1p&start=2140-01-01&stop=2141-01-01").status == 422)
    }

    @Test("the observer's sky: apparent place with light time, H-G and comet magnitudes; rise, set and transit")
    func sky() throws {
        let r = try SmallBodyServer.shared.get("/v1/sky?bodies=ceres,sb:67p,moon&date=2026-03-01T00:00:00Z&lat=51.48&lon=0")
        #expect(r.status == 200)
        let bodies = r.objects("bodies")
        #expect(bodies.map { $0["id"] as? String } == ["ceres", "sb:67p", "moon"])
        let ceres = bodies[0]
        #expect((number(ceres["lightTimeS"]) ?? 0) > 500)
        let m = try #require(number(ceres["magnitude"]))
        #expect(m > 6 && m < 10)
        #expect(number(bodies[1]["magnitude"]) != nil)
        let events = try SmallBodyServer.shared.get("/v1/sky/events?bodies=ceres&lat=51.48&lon=0&start=2026-03-01&stop=2026-03-03&kinds=rise,set,transit")
        #expect(events.status == 200)
        let kinds = events.objects("events").map { $0["kind"] as? String ?? "" }
        #expect(kinds.filter { $0 == "transit" }.count == 2)
        #expect(kinds.contains("rise") && kinds.contains("set"))
        #expect(events.objects("events").allSatisfy { $0["body"] as? String == "ceres" })
    }
}

extension SmallBodyEndpointsTests {
    @Test("the scene places small bodies as it places the planets; beyond their span they are listed as unavailable")
    func scene() throws {
        let r = try SmallBodyServer.shared.get("/v1/scene?date=2026-01-01&smallBodies=ceres,sb:1p")
        #expect(r.status == 200)
        let small = r.objects("smallBodies")
        #expect(small.map { $0["id"] as? String } == ["ceres", "sb:1p"])
        let ceres = try #require(small.first)
        let helio = try #require(vector(ceres["heliocentricAU"]))
        let scene = try #require(vector(ceres["position"]))
        // scene = (x, z, −y) of ecliptic, log-scaled 15 ln(1 + r/0.5) along the direction.
        let expected = Vector3(helio.x, helio.z, -helio.y).normalized * (15 * log(1 + helio.length / 0.5))
        #expect((scene - expected).length < 1e-9)
        #expect(r.objects("bodies").count == 25)
        let far = try SmallBodyServer.shared.get("/v1/scene?date=2150-01-01&smallBodies=ceres")
        #expect(far.status == 200 && far.objects("smallBodiesUnavailable").first?["id"] as? String == "ceres")
        #expect(try SmallBodyServer.shared.get("/v1/scene?date=2026-01-01&smallBodies=mars").status == 400)
        // An id that names no small body: 404 naming the parameter (openapi.yaml lists it).
        let unknown = try SmallBodyServer.shared.get("/v1/scene?date=2026-01-01&smallBodies=sb:999999999")
        #expect(unknown.status == 404 && (unknown.json["detail"] as? String ?? "").contains("smallBodies"))
    }

    @Test("pictures draw a small body's path and name")
    func picture() throws {
        let plain = try SmallBodyServer.shared.get("/v1/views/system.svg?date=2026-01-01&width=400&height=300")
        let r = try SmallBodyServer.shared.get("/v1/views/system.svg?date=2026-01-01&width=400&height=300&smallBodies=ceres,hale-bopp")
        #expect(r.status == 200)
        let svg = String(decoding: r.body, as: UTF8.self)
        #expect(svg.contains("Ceres") && svg.contains("Hale-Bopp"))
        #expect(svg.components(separatedBy: "<polyline").count > String(decoding: plain.body, as: UTF8.self).components(separatedBy: "<polyline").count)
    }
}

@Suite("--elements: read at start, re-read on change")
struct SmallBodyReloadTests {
    @Test("a changed file is served whole; a broken or empty one keeps the previous bodies")
    func reload() throws {
        let lines = String(decoding: RepositoryFiles.bytes("Resources/smallbodies/mpc-MPCORB.excerpt.DAT"), as: UTF8.self)
            .split(separator: "\n").map(String.init)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sb-reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("ops.dat").path
        // Pallas only, then Pallas and Juno; a bad line in between is skipped.
        try (lines[1] + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let feed = SmallBodyFeed(kernel: APIServer.kernel, files: [])
        let watcher = ElementSetWatcher(path: path, source: SmallBodyElementSource(feed: feed, logger: Logger(label: "test")), logger: Logger(label: "test"))
        try watcher.loadNow()
        #expect(feed.current.catalogue.resolve("pallas") != nil)
        #expect(feed.current.catalogue.resolve("juno") == nil)
        watcher.start(intervalSeconds: 0.05)
        defer { watcher.stop() }
        try (lines[1] + "\nnot an orbit\n" + lines[2] + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        for _ in 0..<100 where feed.current.catalogue.resolve("juno") == nil { Thread.sleep(forTimeInterval: 0.05) }
        #expect(feed.current.catalogue.resolve("juno") != nil)
        let generation = feed.current.generation
        #expect(generation >= 1)
        for broken in ["", "hello\n"] {
            try broken.write(toFile: path, atomically: true, encoding: .utf8)
            Thread.sleep(forTimeInterval: 0.4)
            #expect(feed.current.catalogue.resolve("juno") != nil)
            #expect(feed.current.generation == generation)
        }
    }
}
