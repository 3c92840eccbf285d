import Foundation
import HTTPTestSupport
import Testing

@Suite("GET /v1/missions…")
struct MissionEndpointsTests {
    @Test("the list: 16 missions with frames, durations and time scales")
    func list() throws {
        let r = try APIServer.get("/v1/missions")
        #expect(r.status == 200)
        let missions = r.objects("missions")
        #expect(missions.compactMap { $0["id"] as? String } == ["artemis2", "apollo8", "apollo11", "apollo13", "cassini", "voyager1", "voyager2",
                                                               "juno", "osirisrex", "newhorizons", "parker", "bepicolombo", "perseverance", "mro", "maven", "marsodyssey"])
        let apollo11 = missions.first { $0["id"] as? String == "apollo11" }
        #expect(apollo11?["referenceFrame"] as? String == "geocentric")
        // Launch 13:32:00 to splashdown 16:50:35 UTC eight days later (no leap second between).
        #expect(abs((number(apollo11?["durationHours"]) ?? 0) - (195 + 18.0 / 60 + 35.0 / 3600)) < 1e-6)
        #expect(apollo11?["ongoing"] as? Bool == false)
        #expect(number(apollo11?["autoTimeScale"]) == 10_000)
        let voyager1 = missions.first { $0["id"] as? String == "voyager1" }
        #expect(voyager1?["ongoing"] as? Bool == true && voyager1?["end"] is NSNull)
        #expect(missions.first { $0["id"] as? String == "voyager1" }?["referenceFrame"] as? String == "heliocentric")
    }

    @Test("detail: events in time order, vehicles with spans and phases; unknown id 404 with the valid ids")
    func detail() throws {
        let j = try APIServer.get("/v1/missions/apollo11").json
        let events = j["events"] as? [[String: Any]] ?? []
        #expect(events.count == 13)
        let times = events.compactMap { number($0["t"]) }
        #expect(times == times.sorted())
        #expect(events.allSatisfy { $0["name"] is String && $0["detail"] is String && $0["showLabel"] is Bool })
        let vehicles = j["vehicles"] as? [[String: Any]] ?? []
        #expect(vehicles.compactMap { $0["id"] as? String } == ["csm_columbia", "lm_eagle"])
        #expect(vehicles.allSatisfy { ($0["phases"] as? [[String: Any]])?.isEmpty == false && $0["naifId"] is Double })
        #expect(vehicles.allSatisfy { $0["plannedFromHours"] is NSNull })
        // BepiColombo's path past its last flyby is the published plan: said in the detail and
        // in the telemetry (2026-11-30: in orbit about Mercury).
        let bepi = try APIServer.get("/v1/missions/bepicolombo").json
        let planned = number((bepi["vehicles"] as? [[String: Any]])?.first?["plannedFromHours"]) ?? 0
        let flyby6 = (bepi["events"] as? [[String: Any]])?.first { $0["key"] as? String == "mercury6" }
        #expect(abs(planned - (number(flyby6?["t"]) ?? 0)) < 1e-6)
        let now = (try APIServer.get("/v1/missions/bepicolombo/telemetry?date=2026-11-30T00:00:00Z").json["vehicles"] as? [[String: Any]])?.first
        #expect(now?["planned"] as? Bool == true && now?["extrapolated"] as? Bool == false)
        #expect((now?["nearestBody"] as? [String: Any])?["id"] as? String == "mercury")
        let before = (try APIServer.get("/v1/missions/bepicolombo/telemetry?date=2024-12-01T14:23:00Z").json["vehicles"] as? [[String: Any]])?.first
        #expect(before?["planned"] as? Bool == false)
        let missing = try APIServer.get("/v1/missions/apollo12")
        #expect(missing.status == 404)
        #expect((missing.json["validIds"] as? [String])?.contains("apollo11") == true)
    }

    @Test("telemetry: Columbia 110 km above the Moon at T+80 h, Eagle on the surface at T+105 h; t or date")
    func telemetry() throws {
        let at80 = try APIServer.get("/v1/missions/apollo11/telemetry?t=80").json
        #expect(at80["met"] as? String == "T+03:08:00:00")
        #expect(at80["date"] as? String == "1969-07-19T21:32:00Z")
        let columbia = (at80["vehicles"] as? [[String: Any]])?.first { $0["id"] as? String == "csm_columbia" }
        #expect(columbia?["phase"] as? String == "lunar orbit" && columbia?["phaseKind"] as? String == "ballistic")
        let d = number(columbia?["distanceKm"]) ?? 0
        #expect(d > 350_000 && d < 420_000)
        #expect((vector(columbia?["position"])?.length ?? 0) - d < 1e-6)
        // Relative to the nearest body: in the first lunar orbit (110 × 302 km), low over the Moon.
        let near = columbia?["nearestBody"] as? [String: Any]
        #expect(near?["id"] as? String == "moon")
        #expect(abs((number(near?["distanceKm"]) ?? 0) - 1_737.4 - (number(near?["altitudeKm"]) ?? 0)) < 1e-6)
        #expect((100...320).contains(number(near?["altitudeKm"]) ?? 0))
        #expect((1.5...1.8).contains(number(near?["speedKmS"]) ?? 0))
        #expect(abs((number(columbia?["lightTimeToEarthS"]) ?? 0) - d / 299_792.458) < 1e-6)
        #expect((columbia?["source"] as? String)?.hasSuffix("(apollo11.bsp)") == true && columbia?["extrapolated"] as? Bool == false)
        #expect(columbia?["planned"] as? Bool == false)
        #expect((at80["lastEvent"] as? [String: Any])?["name"] as? String == "Lunar orbit insertion")
        let at105 = try APIServer.get("/v1/missions/apollo11/telemetry?t=105").json
        let eagle = (at105["vehicles"] as? [[String: Any]])?.first { $0["id"] as? String == "lm_eagle" }
        #expect(eagle?["phase"] as? String == "on the Moon" && eagle?["phaseKind"] as? String == "landed")
        let surface = eagle?["nearestBody"] as? [String: Any]
        #expect(surface?["id"] as? String == "moon" && abs(number(surface?["altitudeKm"]) ?? 1) < 1e-6)
        // Turning with the Moon: 4.6 m/s at the equator.
        #expect((number(surface?["speedKmS"]) ?? 1) < 0.005)
        // In the translunar coast the nearest body is the Earth.
        let coast = (try APIServer.get("/v1/missions/apollo11/telemetry?t=10").json["vehicles"] as? [[String: Any]])?.first
        #expect((coast?["nearestBody"] as? [String: Any])?["id"] as? String == "earth" && coast?["phase"] as? String == "translunar coast")
        let byDate = try APIServer.get("/v1/missions/apollo11/telemetry?date=1969-07-19T21:32:00Z")
        #expect(byDate.body == (try APIServer.get("/v1/missions/apollo11/telemetry?t=80")).body)
        // Mission time is elapsed TT: a date across leap seconds comes back as itself.
        let cassini = try APIServer.get("/v1/missions/cassini/telemetry?date=2004-07-01T00:00:00Z").json
        #expect(cassini["date"] as? String == "2004-07-01T00:00:00Z")
        let end = try APIServer.get("/v1/missions/voyager2").json
        let lastDate = try APIServer.get("/v1/missions/voyager2/telemetry?t=\(number(end["replayEndHours"]) ?? 0)").json["date"] as? String ?? ""
        #expect(try APIServer.get("/v1/missions/voyager2/telemetry?date=\(lastDate)").status == 200)
        #expect(try APIServer.get("/v1/missions/apollo11/telemetry?t=0x10").status == 400)
        #expect(try APIServer.get("/v1/missions/apollo11/trajectory?samples=%2B5").status == 400)
        let helio = try APIServer.get("/v1/missions/voyager1/telemetry?t=20000").json
        let v = (helio["vehicles"] as? [[String: Any]])?.first
        #expect(v?["frame"] as? String == "heliocentric")
        #expect((number(v?["distanceAU"]) ?? 0) > 1)
    }

    @Test("bad mission requests are 400 problems naming the parameter and the range", arguments: [
        ("telemetry?t=1378691", "t"), ("telemetry?t=-1378691", "t"), ("telemetry?date=2999-12-31", "date"),
        ("telemetry?date=1800-01-01", "date"), ("framing?date=2999-12-31", "date"), ("stream?from=-1", "from"), ("telemetry?t=abc", "t"), ("telemetry?t=abc&date=1969-07-17", "t"),
        ("telemetry?date=2020-13-01", "date"), ("trajectory?samples=1", "samples"), ("trajectory?samples=20001", "samples"),
        ("trajectory?frame=galactic", "frame"), ("events?at=1&from=abc", "from"), ("events?at=-1378691", "at"),
        ("events?at=1378691", "at"), ("framing?aspect=0", "aspect"), ("framing?t=1378691", "t"), ("stream?speed=0", "speed"),
        ("stream?speed=2e8", "speed"), ("stream?rate=0", "rate"), ("stream?rate=31", "rate"), ("stream?from=1378691", "from"),
        ("telemetry?x=1", "x"),
    ])
    func badRequests(path: String, parameter: String) throws {
        let r = try APIServer.get("/v1/missions/apollo11/\(path)")
        #expect(r.status == 400, "\(path): \(r.bodyText)")
        #expect(r.json["parameter"] as? String == parameter, "\(path): \(r.bodyText)")
        // 100 years past the last launch (Artemis II, 57.3 years after Apollo 8's).
        if path.hasPrefix("telemetry?t=1378691") { #expect((r.json["accepted"] as? String)?.contains("-1378690…1378690") == true) }
    }

    @Test("times past the end or before launch, and overlapping parameters, are answered")
    func everyValidCombination() throws {
        let over = try APIServer.get("/v1/missions/apollo11/telemetry?t=500")
        #expect(over.status == 200 && (over.json["vehicles"] as? [Any])?.isEmpty == true)
        #expect((over.json["lastEvent"] as? [String: Any])?["name"] as? String == "Splashdown" && over.json["nextEvent"] is NSNull)
        let byDate = try APIServer.get("/v1/missions/apollo11/telemetry?t=1&date=1969-07-17T13:32:00Z").json
        #expect(number(byDate["t"]).map { abs($0 - 24) < 1e-9 } == true, "date decides over t")
        let before = try APIServer.get("/v1/missions/apollo11/telemetry?date=1969-07-16T12:32:00Z").json
        #expect(number(before["t"]).map { abs($0 + 1) < 1e-9 } == true)
        #expect((before["met"] as? String) == "T-00:01:00:00" && (before["nextEvent"] as? [String: Any])?["name"] as? String == "Launch")
        // `t` reaches as far before launch as `date` does: the same limits.
        let negative = try APIServer.get("/v1/missions/apollo11/telemetry?t=-1").json
        #expect((negative["met"] as? String) == "T-00:01:00:00")
        #expect(try APIServer.get("/v1/missions/apollo11/telemetry?date=2026-01-01").status == 200)
        #expect(try APIServer.get("/v1/missions/apollo11/events?from=10&to=5").objects("events").isEmpty)
        let at = try APIServer.get("/v1/missions/apollo11/events?at=1&from=0&to=200").json
        #expect(number(at["at"]) == 1 && at["events"] == nil, "at decides over the window")
        #expect(try APIServer.get("/v1/missions/apollo11/events?at=999").json["nextEvent"] is NSNull)
        #expect(try APIServer.get("/v1/missions/apollo11/framing?t=1000").status == 200)
        let past = try APIServer.get("/v1/missions/apollo11/stream?from=999")
        #expect(past.status == 204 && past.body.isEmpty)
    }

    @Test("events: from/to window and the at lookup")
    func events() throws {
        let window = try APIServer.get("/v1/missions/apollo11/events?from=100&to=130").objects("events")
        #expect(window.compactMap { $0["name"] as? String } == ["Undocking", "Descent orbit insertion", "Powered descent", "Eagle has landed", "First step",
                                                                "Lunar lift-off", "Docking"])
        let at = try APIServer.get("/v1/missions/apollo11/events?at=100").json
        #expect((at["lastEvent"] as? [String: Any])?["name"] as? String == "Lunar orbit insertion")
        #expect((at["nextEvent"] as? [String: Any])?["name"] as? String == "Undocking")
        #expect((at["visibleLabels"] as? [[String: Any]])?.isEmpty == false)
    }

    @Test("revolution: Cassini's flown revolution about Saturn ends where telemetry draws it; none outside an orbit; bad requests named")
    func revolution() throws {
        let r = try APIServer.get("/v1/missions/cassini/revolution?t=110000")
        #expect(r.status == 200, "\(r.bodyText)")
        #expect(r.json["body"] as? String == "saturn" && r.json["vehicle"] as? String == "cassini")
        let points = (r.json["positions"] as? [Any] ?? []).compactMap(vector)
        #expect(points.count == 121)
        let telemetry = try APIServer.get("/v1/missions/cassini/telemetry?t=110000").json
        let marker = vector((telemetry["vehicles"] as? [[String: Any]])?.first?["scenePosition"])
        let last = try #require(points.last), m = try #require(marker)
        let gap = ((last.x - m.x) * (last.x - m.x) + (last.y - m.y) * (last.y - m.y) + (last.z - m.z) * (last.z - m.z)).squareRoot()
        #expect(gap < 1e-3, "the revolution ends \(gap) scene units from the marker")
        #expect(r.headers["cache-control"]?.contains("immutable") == true)
        let outside = try APIServer.get("/v1/missions/voyager1/revolution?date=1980-01-01T00:00:00Z").json
        #expect(outside["body"] is NSNull && (outside["positions"] as? [Any])?.isEmpty == true)
        let missing = try APIServer.get("/v1/missions/cassini/revolution")
        #expect(missing.status == 400 && missing.json["parameter"] as? String == "t")
        let unknown = try APIServer.get("/v1/missions/cassini/revolution?t=1&vehicle=huygens")
        #expect(unknown.status == 404 && (unknown.json["validIds"] as? [String]) == ["cassini"])
    }

    @Test("trajectory: every vehicle or one, times ascending, colours, scene frame; the cache serves the same bytes")
    func trajectory() throws {
        let r = try APIServer.get("/v1/missions/apollo11/trajectory?samples=64")
        #expect(r.status == 200)
        #expect(r.json["units"] as? String == "km")
        let vehicles = r.objects("vehicles")
        #expect(vehicles.count == 2)
        for v in vehicles {
            let times = v["times"] as? [Double] ?? []
            #expect(times.count == 64 && times == times.sorted())
            #expect((v["positions"] as? [[Double]])?.count == 64)
            #expect((v["colors"] as? [[Double]])?.first == [1, 1, 1]) // white at launch
            #expect((v["orbits"] as? [Any])?.isEmpty == true) // geocentric: none
        }
        // Juno's line says where it orbits Jupiter: from its orbit insertion to the line's end.
        let juno = try APIServer.get("/v1/missions/juno/trajectory?samples=16").objects("vehicles").first
        let orbit = (juno?["orbits"] as? [[String: Any]])?.first
        #expect(orbit?["body"] as? String == "jupiter")
        #expect((juno?["times"] as? [Double])?.last.map { abs($0 - (number(orbit?["endHours"]) ?? 0)) < 1e-5 } == true)
        // Computed (SQLite miss), then from the SQLite samples (memory tier emptied, as after a
        // restart), then from the in-memory body: the same bytes every time.
        let url = "/v1/missions/perseverance/trajectory?samples=200&vehicle=perseverance&frame=scene"
        let before = APIServer.cache.statistics
        let one = try APIServer.get(url)
        APIServer.services.responses.removeAll()
        // The row reaches SQLite before the second request: a hit now cannot come from the
        // writer's queue, which `get` also answers from.
        #expect(APIServer.cache.waitForPendingWrites())
        #expect(APIServer.cache.statistics.pendingBytes == 0)
        let fromSQLite = try APIServer.get(url)
        let memoryHits = APIServer.services.responses.statistics.hits
        let fromMemory = try APIServer.get(url)
        #expect(one.status == 200, "\(one.bodyText)")
        #expect(one.body == fromSQLite.body && one.body == fromMemory.body)
        #expect(one.json["sceneOrigin"] as? String == "sun")
        let after = APIServer.cache.statistics
        #expect(after.misses >= before.misses + 1)
        #expect(after.hits >= before.hits + 1)
        #expect(APIServer.services.responses.statistics.hits >= memoryHits + 1)
        let unknown = try APIServer.get("/v1/missions/apollo11/trajectory?vehicle=enterprise")
        #expect(unknown.status == 404 && (unknown.json["validIds"] as? [String])?.contains("lm_eagle") == true)
    }

    @Test("framing: the seeds' follow camera for lunar missions (wider for portrait), overview for heliocentric ones")
    func framing() throws {
        let wide = try APIServer.get("/v1/missions/apollo11/framing?aspect=2").json
        #expect(wide["mode"] as? String == "follow")
        #expect(number(wide["elevationRad"]) == 0.3)
        // The seeds' camera, worked by hand: the radius × 1.4 fills the half field of 30°, so the
        // distance is radius × 1.4 × √3 = radius × 2.42487…; a portrait of aspect ½ needs twice it.
        let radius = number(wide["radius"]) ?? 0
        let distance = number(wide["distance"]) ?? 0
        #expect(radius * 2.42487 > 1.5, "radius \(radius): the floor would hide the fit")
        #expect(abs(distance / radius - 2.424_871_130_596_428) < 1e-12, "\(distance) for a radius of \(radius)")
        let tall = try APIServer.get("/v1/missions/apollo11/framing?aspect=0.5").json
        #expect(abs((number(tall["distance"]) ?? 0) / distance - 2) < 1e-12)
        let voyager = try APIServer.get("/v1/missions/voyager1/framing").json
        #expect(voyager["mode"] as? String == "overview")
    }
}
