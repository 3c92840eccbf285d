import Foundation
import Testing
import Ephemeris
@testable import Missions

@Suite struct MissionCatalogueTests {
    @Test func decodesEveryMissionEventAndWaypoint() {
        let c = TestMissions.catalogue
        #expect(c.missions.count == 11)
        #expect(c.missions.reduce(0) { $0 + $1.events.count } == 58)
        #expect(c.missions.reduce(0) { $0 + $1.vehicles.reduce(0) { $0 + $1.waypoints.count } } == 213)
        #expect(c.ids == ["artemis2", "apollo8", "apollo11", "apollo13", "cassini", "voyager1", "voyager2", "perseverance", "newhorizons", "parker", "bepicolombo"])
    }

    @Test func framesAndTransferFlag() {
        let c = TestMissions.catalogue
        let helio = c.missions.filter { $0.referenceFrame == .heliocentric }.map(\.id)
        #expect(Set(helio) == ["cassini", "voyager1", "voyager2", "perseverance", "newhorizons", "parker", "bepicolombo"])
        #expect(c["perseverance"]?.vehicles.first?.autoTrajectory == .transfer)
        #expect(c.missions.filter { $0.id != "perseverance" }.allSatisfy { $0.vehicles.allSatisfy { $0.autoTrajectory == nil } })
    }

    @Test func apollo11Details() throws {
        let m = TestMissions.mission("apollo11")
        #expect(m.launchDate == "1969-07-16T13:32:00.000Z")
        #expect(m.launch.iso8601.hasPrefix("1969-07-16T13:32:00"))
        #expect(m.durationHours == 195.3) // splashdown at 195:18:35 GET
        #expect(m.flybyTimeHours == 76)
        #expect(m.vehicles.map(\.id) == ["saturn_v", "csm_columbia", "lm_eagle"])
        #expect(m.primaryVehicle?.id == "csm_columbia")
        let eagle = try #require(m.vehicle("lm_eagle"))
        #expect(eagle.moonLanding == MoonLandingPhase(startHours: 102.75, endHours: 124.3))
        #expect(eagle.moonOrbitReturn?.radiusKm == 25_000)
        #expect(eagle.color == RGB(0.9, 0.8, 0.4))
        #expect(m.events.map(\.timeHours) == m.events.map(\.timeHours).sorted())
    }

    @Test func shippedMissionsLoadWithoutWarnings() {
        #expect(TestMissions.catalogue.warnings.isEmpty, "\(TestMissions.catalogue.warnings)")
        #expect(TestMissions.mission("apollo11").replayEndHours == 195.3)
        #expect(TestMissions.mission("artemis2").replayEndHours == 210)
    }

    @Test func eventAfterDurationIsAWarningAndExtendsTheReplay() throws {
        var all = TestMissions.rawMissions()
        let i = try #require(all.firstIndex { $0["id"] as? String == "apollo11" })
        all[i]["durationHours"] = 195
        let c = try MissionCatalogue(json: TestMissions.encode(all))
        #expect(c.warnings.count == 1, "\(c.warnings)")
        let s = c.warnings.first { $0.mission == "apollo11" }
        #expect(s?.field == "events[8].t")
        #expect(s?.problem.contains("Splashdown") == true)
        #expect(s?.problem.contains("195.3") == true)
        #expect(c["apollo11"]?.replayEndHours == 195.3)
    }

    @Test func missingFieldNamesMissionAndField() throws {
        let e = try #require(TestMissions.error(editing: "apollo11") { $0.removeValue(forKey: "durationHours") })
        #expect(e.mission == "apollo11")
        #expect(e.field == "durationHours")
        #expect(e.problem.contains("missing"))
        #expect(e.description.contains("apollo11") && e.description.contains("durationHours"))
    }

    @Test func missingNestedFieldNamesItsPath() throws {
        let e = try #require(TestMissions.error(editing: "cassini") { m in
            var vehicles = m["vehicles"] as! [[String: Any]]
            var wps = vehicles[0]["waypoints"] as! [[String: Any]]
            wps[3].removeValue(forKey: "t")
            vehicles[0]["waypoints"] = wps
            m["vehicles"] = vehicles
        })
        #expect(e.mission == "cassini")
        #expect(e.field == "vehicles[0].waypoints[3].t")
    }

    @Test func wrongTypeNamesMissionAndField() throws {
        let e = try #require(TestMissions.error(editing: "apollo13") { m in
            var vehicles = m["vehicles"] as! [[String: Any]]
            var wps = vehicles[1]["waypoints"] as! [[String: Any]]
            wps[2]["x"] = "far away"
            vehicles[1]["waypoints"] = wps
            m["vehicles"] = vehicles
        })
        #expect(e.mission == "apollo13")
        #expect(e.field == "vehicles[1].waypoints[2].x")
        #expect(e.problem.contains("number"))
    }

    @Test func unknownFrameNamesMissionAndField() throws {
        let e = try #require(TestMissions.error(editing: "voyager1") { $0["referenceFrame"] = "galactocentric" })
        #expect(e.mission == "voyager1")
        #expect(e.field == "referenceFrame")
        #expect(e.problem.contains("galactocentric"))
    }

    @Test func semanticErrors() throws {
        let body = try #require(TestMissions.error(editing: "cassini") { m in
            var vehicles = m["vehicles"] as! [[String: Any]]
            var wps = vehicles[0]["waypoints"] as! [[String: Any]]
            wps[3]["anchorBody"] = "vulcan"
            vehicles[0]["waypoints"] = wps
            m["vehicles"] = vehicles
        })
        #expect(body.mission == "cassini" && body.field == "vehicles[0].waypoints[3].anchorBody")
        let order = try #require(TestMissions.error(editing: "apollo8") { m in
            var vehicles = m["vehicles"] as! [[String: Any]]
            var wps = vehicles[0]["waypoints"] as! [[String: Any]]
            wps[4]["t"] = 0.0
            vehicles[0]["waypoints"] = wps
            m["vehicles"] = vehicles
        })
        #expect(order.mission == "apollo8" && order.field == "vehicles[0].waypoints[4].t")
        let date = try #require(TestMissions.error(editing: "parker") { $0["launchDate"] = "yesterday" })
        #expect(date.mission == "parker" && date.field == "launchDate")
        let color = try #require(TestMissions.error(editing: "parker") { m in
            var vehicles = m["vehicles"] as! [[String: Any]]
            vehicles[0]["color"] = [1, 2]
            m["vehicles"] = vehicles
        })
        #expect(color.field == "vehicles[0].color")
    }

    @Test func lunarPhysicsIsDecodedWithItsSource() throws {
        let apollo11 = try #require(TestMissions.mission("apollo11").physics)
        #expect(apollo11.orbit == LunarPhysics.Orbit(startHours: 75.8, endHours: 135.6, altitudeKm: 110))
        let landing = try #require(apollo11.landing)
        #expect(landing.vehicleID == "lm_eagle" && landing.latitudeDeg == 0.674 && landing.longitudeDeg == 23.473)
        #expect(abs(landing.descentHours - 12.6 / 60) < 1e-12 && abs(landing.ascentHours - 7.25 / 60) < 1e-12)
        #expect(apollo11.source.contains("Mission Report"))
        #expect(TestMissions.mission("apollo13").physics?.flyby == LunarPhysics.Flyby(timeHours: 77, altitudeKm: 254))
        #expect(TestMissions.mission("apollo13").physics?.orbit == nil)
        #expect(TestMissions.mission("apollo8").physics?.orbit?.altitudeKm == 111.5)
        #expect(TestMissions.mission("artemis2").physics?.flyby?.altitudeKm == 7_600)
        #expect(TestMissions.catalogue.missions.filter { $0.physics != nil }.map(\.id) == ["artemis2", "apollo8", "apollo11", "apollo13"])
    }

    @Test func lunarPhysicsErrorsNameTheField() throws {
        func editPhysics(_ id: String, _ edit: @escaping (inout [String: Any]) -> Void) -> MissionDataError? {
            TestMissions.error(editing: id) { m in
                var p = m["physics"] as! [String: Any]
                edit(&p)
                m["physics"] = p
            }
        }
        let altitude = try #require(editPhysics("apollo8") { p in p["lunarOrbit"] = ["startTime": 69, "endTime": 89, "altitudeKm": -5] })
        #expect(altitude.mission == "apollo8" && altitude.field == "physics.lunarOrbit.altitudeKm")
        let both = try #require(editPhysics("apollo8") { p in p["lunarFlyby"] = ["time": 70, "altitudeKm": 100] })
        #expect(both.field == "physics.lunarFlyby")
        let vehicle = try #require(editPhysics("apollo11") { p in
            var l = p["lunarLanding"] as! [String: Any]
            l["vehicle"] = "lm_falcon"
            p["lunarLanding"] = l
        })
        #expect(vehicle.field == "physics.lunarLanding.vehicle" && vehicle.problem.contains("lm_eagle"))
        let outside = try #require(editPhysics("apollo11") { p in
            var l = p["lunarLanding"] as! [String: Any]
            l["endTime"] = 135.5
            p["lunarLanding"] = l
        })
        #expect(outside.field == "physics.lunarLanding" && outside.problem.contains("inside the lunarOrbit"))
        let source = try #require(editPhysics("apollo13") { p in p["source"] = "" })
        #expect(source.field == "physics.source")
        let helio = try #require(TestMissions.error(editing: "cassini") { $0["physics"] = ["source": "x", "lunarFlyby": ["time": 1, "altitudeKm": 1]] })
        #expect(helio.field == "physics")
    }

    @Test func garbageAndWrongTopLevel() {
        #expect(throws: MissionDataError.self) { try MissionCatalogue(json: Array("{not json".utf8)) }
        do {
            _ = try MissionCatalogue(json: Array("{\"missions\": []}".utf8))
            Issue.record("an object is not a mission array")
        } catch {
            #expect(error.mission == nil)
        }
        #expect(throws: MissionDataError.self) { try MissionCatalogue(json: Array("[]".utf8)) }
    }

    @Test func derivedNumbers() {
        #expect(abs(TestMissions.mission("apollo11").labelWindowHours - 5.859) < 1e-12)
        #expect(TestMissions.mission("voyager2").labelWindowHours == 500)
        #expect(MissionClock.labelWindowHours(durationHours: 10) == 1)
        #expect(abs(TestMissions.mission("perseverance").labelWindowHours - 147.6) < 1e-9)
    }

    @Test func autoTimeScales() {
        let expected: [String: Double] = [
            "apollo11": 10_000, "apollo8": 10_000, "apollo13": 10_000, "artemis2": 10_000,
            "perseverance": 200_000, "cassini": 2_000_000, "voyager1": 2_000_000, "voyager2": 5_000_000,
            "newhorizons": 5_000_000, "parker": 2_000_000, "bepicolombo": 5_000_000,
        ]
        for m in TestMissions.catalogue.missions {
            #expect(m.autoTimeScale == expected[m.id], "\(m.id): \(m.autoTimeScale)")
        }
        #expect(MissionClock.niceNumber(7_354) == 10_000)
        #expect(MissionClock.niceNumber(3_000) == 2_000)
        #expect(MissionClock.niceNumber(3_500) == 5_000)
    }

    @Test func dataHashIsStableAndSensitive() throws {
        let again = try MissionCatalogue(json: TestMissions.missionBytes)
        for m in TestMissions.catalogue.missions {
            #expect(again[m.id]?.dataHash == m.dataHash)
            #expect(m.dataHash.count == 16)
        }
        #expect(Set(TestMissions.catalogue.missions.map(\.dataHash)).count == 11)
        var all = TestMissions.rawMissions()
        let i = try #require(all.firstIndex { $0["id"] as? String == "apollo11" })
        var vehicles = all[i]["vehicles"] as! [[String: Any]]
        var wps = vehicles[1]["waypoints"] as! [[String: Any]]
        wps[2]["x"] = 25_001.0
        vehicles[1]["waypoints"] = wps
        all[i]["vehicles"] = vehicles
        let edited = try MissionCatalogue(json: TestMissions.encode(all))
        #expect(edited["apollo11"]?.dataHash != TestMissions.mission("apollo11").dataHash)
        #expect(edited["apollo8"]?.dataHash == TestMissions.mission("apollo8").dataHash)
        // The physics counts as data too.
        var physics = all[i]["physics"] as! [String: Any]
        physics["lunarOrbit"] = ["startTime": 75.8, "endTime": 135.6, "altitudeKm": 111]
        all[i]["physics"] = physics
        #expect(try MissionCatalogue(json: TestMissions.encode(all))["apollo11"]?.dataHash != edited["apollo11"]?.dataHash)
        #expect(!MissionEngine.engineVersion.isEmpty)
    }
}
