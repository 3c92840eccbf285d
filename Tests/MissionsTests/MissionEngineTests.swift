import Foundation
import Testing
import Ephemeris
import Scene
@testable import Missions

@Suite struct MissionEngineTests {
    @Test func curvesPassEveryResolvedWaypointAtItsTimestamp() {
        for m in TestMissions.catalogue.missions {
            let engine = TestMissions.engine(m.id)
            for v in engine.vehicles {
                for (t, p) in zip(v.times, v.points) {
                    #expect(engine.curvePosition(v, atHours: t) == p, "\(m.id)/\(v.vehicle.id) at \(t) h")
                }
                let line = engine.sample(v, count: 7, frame: .native).samples
                #expect(line.first?.position == v.points.first)
                #expect(line.last?.position == v.points.last)
                #expect(line.first?.timeHours == v.times.first && line.last?.timeHours == v.times.last)
            }
        }
    }

    @Test func anchorMoonWaypointsSitAtTheSemiMajorAxisInTheMoonsTrueDirection() throws {
        let engine = TestMissions.engine("apollo11")
        let columbia = try engine.vehicle("csm_columbia")
        let anchored = columbia.vehicle.waypoints.enumerated().filter { $0.element.anchorMoon }
        #expect(anchored.count == 3)
        for (i, w) in anchored {
            let p = columbia.points[i]
            let moon = TestMissions.ephemeris.parentRelativeState(.moon, at: engine.mission.instant(atHours: w.timeHours)).positionKm
            #expect(abs(p.length - 384_400) <= 384_400 * 0.01, "\(p.length)")
            #expect(p.angle(to: moon) < 1e-9, "angle \(p.angle(to: moon)) rad at \(w.timeHours) h")
        }
    }

    @Test func anchoredMoonWaypointsMeetTheRenderedMoon() throws {
        let engine = TestMissions.engine("apollo11")
        let columbia = try engine.vehicle("csm_columbia")
        let i = try #require(columbia.vehicle.waypoints.firstIndex { $0.anchorMoon })
        let t = columbia.times[i]
        let snap = TestMissions.ephemeris.snapshot(at: engine.mission.instant(atHours: t))
        let moonScene = TestMissions.layout.positions(snap)[BodyID.moon.index]
        let earthScene = TestMissions.layout.positions(snap)[BodyID.earth.index]
        let waypointScene = engine.scenePosition(native: columbia.points[i], atHours: t)
        #expect((waypointScene - moonScene).length < 1e-9 * moonScene.length, "\(waypointScene) vs \(moonScene)")
        #expect(abs(engine.sceneOffset(geocentricKm: columbia.points[i]).length - TestMissions.layout.moonDistances[BodyID.moon.index]) < 1e-12)
        #expect(((engine.earthScenePosition(atHours: t)) - earthScene).length < 1e-12)
    }

    @Test func anchorBodyWaypointsCoincideWithThePlanet() {
        var checked = 0
        for m in TestMissions.catalogue.missions where m.referenceFrame == .heliocentric {
            let engine = TestMissions.engine(m.id)
            for v in engine.vehicles {
                for w in v.vehicle.waypoints {
                    guard let body = w.anchorBody else { continue }
                    let planet = TestMissions.ephemeris.state(body, at: m.instant(atHours: w.timeHours)).positionAU
                    let p = engine.curvePosition(v, atHours: w.timeHours)
                    #expect((p - planet).length < 1e-12, "\(m.id) \(body) at \(w.timeHours) h")
                    checked += 1
                }
            }
        }
        #expect(checked >= 20)
        // Cassini's Jupiter flyby waypoint is really at Jupiter (about 5.2 AU), not at (0, 0, 0).
        let cassini = TestMissions.engine("cassini")
        #expect(abs(cassini.curvePosition(cassini.vehicles[0], atHours: 25_560).length - 5.2) < 0.2)
    }

    @Test func moonAlignmentRotatesUnanchoredGeocentricWaypoints() throws {
        let engine = TestMissions.engine("artemis2")
        let moon = TestMissions.ephemeris.parentRelativeState(.moon, at: engine.mission.instant(atHours: 112)).positionKm
        #expect(abs(engine.moonAlignmentAngleRad - atan2(moon.y, moon.x)) < 1e-15)
        let orion = try engine.vehicle("orion")
        let i = try #require(orion.vehicle.waypoints.firstIndex { $0.timeHours == 112 })
        let raw = orion.vehicle.waypoints[i].position
        let p = orion.points[i]
        #expect(p.z == raw.z)
        #expect(abs(p.length - raw.length) < 1e-6)
        // Authored "toward the Moon" (+x, 398,000 km, 18,000 km off-axis) → within 3° of the Moon's longitude.
        let lonDiff = atan2(p.y, p.x) - atan2(moon.y, moon.x)
        #expect(abs(remainder(lonDiff, 2 * Double.pi)) < 3 * Double.pi / 180)
        #expect(MissionEngine.rotateAboutEclipticPole(Vector3(1, 0, 5), by: Double.pi / 2).y == 1)
    }

    @Test func perseveranceTransferArcIsMonotonicAndEndsAtMars() throws {
        let engine = TestMissions.engine("perseverance")
        let v = try engine.vehicle("perseverance")
        #expect(v.points.count == 13)
        #expect(zip(v.times, v.times.dropFirst()).allSatisfy { $0 < $1 })
        let m = engine.mission
        let earth = TestMissions.ephemeris.state(.earth, at: m.launch).positionAU
        let mars = TestMissions.ephemeris.state(.mars, at: m.instant(atHours: 4920)).positionAU
        #expect(v.points.first == earth)
        #expect(v.points.last == mars)
        let line = try engine.sample("perseverance", count: 400, frame: .native).samples
        #expect(zip(line, line.dropFirst()).allSatisfy { $0.timeHours < $1.timeHours })
        #expect((line[line.count - 1].position - mars).length < 1e-12)
        // Prograde: the ecliptic longitude never decreases along the line.
        var previous = atan2(line[0].position.y, line[0].position.x)
        var swept = 0.0
        for s in line.dropFirst() {
            let a = atan2(s.position.y, s.position.x)
            let step = remainder(a - previous, 2 * Double.pi)
            #expect(step > 0)
            swept += step
            previous = a
        }
        #expect(abs(swept - TransferArc.proGradeSweep(from: atan2(earth.y, earth.x), to: atan2(mars.y, mars.x))) < 1e-9)
        // Outbound bulge: mid-arc radius beats the straight radial blend by 0.05·(r0 + r1).
        let mid = TransferArc.point(from: earth, to: mars, fraction: 0.5)
        let blend = (earth.length + mars.length) / 2
        #expect(abs(Vector3(mid.x, mid.y, 0).length - (blend + 0.05 * (earth.length + mars.length))) < 1e-12)
    }

    @Test func inboundTransferBulgesInward() {
        let p = TransferArc.point(from: Vector3(1.5, 0, 0), to: Vector3(0, 1, 0), fraction: 0.5)
        #expect(abs(p.length - (1.25 - 0.03 * 2.5)) < 1e-12)
        #expect(TransferArc.proGradeSweep(from: 1, to: 0.5) > Double.pi)
    }

    @Test func apollo11ColumbiaMarkerCirclesTheRenderedMoonAtT80() throws {
        let engine = TestMissions.engine("apollo11")
        let tm = try engine.telemetry(at: 80)
        let c = try #require(tm.vehicles.first { $0.id == "csm_columbia" })
        #expect(c.phase == .moonOrbit)
        #expect(c.primary)
        // The marker (scene only) is the seeds' decorative 25,000 km, 4 h circle around the
        // rendered Moon, in the plane perpendicular to the Earth–Moon line.
        let (marker, phase) = try #require(engine.position(try engine.vehicle("csm_columbia"), atHours: 80))
        #expect(phase == .moonOrbit)
        let moon = engine.moonAnchorKm(atHours: 80)
        #expect(abs((marker - moon).length - 25_000) < 1e-6)
        #expect(abs((marker - moon).dot(moon.normalized)) < 1e-6)
        #expect((c.scenePosition - (engine.earthScenePosition(atHours: 80) + engine.sceneOffset(geocentricKm: marker))).length < 1e-12)
        // The reported position is the physical one (LunarPhysicsTests): not the marker.
        #expect((c.position - marker).length > 20_000)
        #expect(abs(c.distanceAU * Constants.auKm - c.distanceKm) < 1e-6)
        #expect(abs(c.position.length - c.distanceKm) < 1e-6)
        #expect(tm.met == "T+03:08:00:00")
        #expect(tm.date.hasPrefix("1969-07-19T21:32:00"))
        #expect(tm.lastEvent?.name == "LOI")
        #expect(tm.nextEvent?.name == "LM Undock")
        #expect(tm.visibleLabels.map(\.name) == ["LOI"])
    }

    @Test func apollo11TranslunarCoastMatchesTheSeedsTelemetryPanel() throws {
        // Seeds: "the telemetry panel reading T+10:19:39 / 39k km / 1.26 km/s during translunar coast".
        let t: Double = 10 + 19.0 / 60 + 39.0 / 3600
        let tm = try TestMissions.engine("apollo11").telemetry(at: t)
        let c = try #require(tm.vehicles.first { $0.primary })
        #expect(tm.met == "T+00:10:19:39")
        #expect(c.phase == .trajectory)
        #expect(abs(c.distanceKm - 39_000) < 1_000, "\(c.distanceKm)")
        #expect(abs(c.speedKmS - 1.26) < 0.03, "\(c.speedKmS)")
    }

    @Test func apollo11EagleMarkerSitsOnTheRenderedMoonDuringTheLandingWindow() throws {
        let engine = TestMissions.engine("apollo11")
        let eagle = try engine.vehicle("lm_eagle")
        for t in [102.75, 109.4, 120.0, 124.29] {
            let tm = try engine.telemetry(at: t)
            let e = try #require(tm.vehicles.first { $0.id == "lm_eagle" })
            #expect(e.phase == .moonLanding)
            let (marker, _) = try #require(engine.position(eagle, atHours: t))
            #expect((marker - engine.moonAnchorKm(atHours: t)).length < 1e-6)
            #expect(e.speedKmS < 1.2, "moves with the Moon only: \(e.speedKmS)")
        }
        let before = try #require(try engine.telemetry(at: 101).vehicles.first { $0.id == "lm_eagle" })
        #expect(before.phase == .moonOrbit)
        let after = try #require(try engine.telemetry(at: 125).vehicles.first { $0.id == "lm_eagle" })
        #expect(after.phase == .moonOrbitReturn)
    }

    @Test func vehiclesExistOnlyWithinTheirWaypointSpan() throws {
        let engine = TestMissions.engine("apollo11")
        #expect(try engine.telemetry(at: 50).vehicles.map(\.id) == ["csm_columbia"])
        #expect(try engine.telemetry(at: 0.02).vehicles.map(\.id) == ["saturn_v"])
        #expect(try engine.telemetry(at: 0.05).vehicles.map(\.id) == ["saturn_v", "csm_columbia"])
        #expect(try engine.telemetry(at: 110).vehicles.map(\.id) == ["csm_columbia", "lm_eagle"])
        #expect(try engine.telemetry(at: 126.6).vehicles.map(\.id) == ["csm_columbia"])
        #expect(try engine.telemetry(at: -1).vehicles.isEmpty)
        #expect(try engine.telemetry(at: 195.2).vehicles.isEmpty)
        #expect(try engine.telemetry(at: -1).met == "T-00:01:00:00")
        #expect(throws: MissionQueryError.self) { try engine.telemetry(at: .nan) }
    }

    @Test func heliocentricTelemetryIsInAU() throws {
        let engine = TestMissions.engine("cassini")
        let tm = try engine.telemetry(at: 25_560)
        let c = try #require(tm.vehicles.first)
        #expect(c.frame == .heliocentric && c.phase == .trajectory)
        let jupiter = TestMissions.ephemeris.state(.jupiter, at: engine.mission.instant(atHours: 25_560)).positionAU
        #expect((c.position - jupiter).length < 1e-12)
        #expect(abs(c.distanceAU - jupiter.length) < 1e-12)
        #expect(abs(c.distanceKm - jupiter.length * Constants.auKm) < 1e-3)
        #expect((c.scenePosition - SceneLayout.scenePosition(heliocentricAU: jupiter)).length < 1e-12)
        #expect(c.speedKmS > 1 && c.speedKmS < 60, "\(c.speedKmS)")
        #expect(tm.lastEvent?.name == "Jupiter Flyby")
    }

    @Test func sceneSamplesOfGeocentricMissionsAreEarthRelative() throws {
        let engine = TestMissions.engine("apollo11")
        let native = try engine.sample("csm_columbia", count: 200, frame: .native)
        let scene = try engine.sample("csm_columbia", count: 200, frame: .scene)
        #expect(scene.sceneOrigin == .earth && scene.unit == "scene" && native.unit == "km")
        for (n, s) in zip(native.samples, scene.samples) {
            #expect(n.timeHours == s.timeHours)
            #expect((engine.sceneOffset(geocentricKm: n.position) - s.position).length < 1e-12)
        }
        // Moon's scene distance: 0.0998 × 60.3^0.6 × 1.5 ≈ 1.76; the line never reaches twice that.
        #expect(scene.samples.map(\.position.length).max()! < 2 * TestMissions.layout.moonDistances[BodyID.moon.index])
        let helio = try TestMissions.engine("voyager1").sample("voyager1", count: 50, frame: .scene)
        #expect(helio.sceneOrigin == .sun)
    }

    @Test func samplingValidatesAndIsDeterministic() throws {
        let engine = TestMissions.engine("apollo13")
        #expect(throws: MissionQueryError.self) { try engine.sample("odyssey_aquarius", count: 1, frame: .native) }
        #expect(throws: MissionQueryError.self) { try engine.sample("odyssey_aquarius", count: 20_001, frame: .native) }
        #expect(throws: MissionQueryError.self) { try engine.sample("lm_eagle", count: 10, frame: .native) }
        let a = try engine.sample("odyssey_aquarius", count: 20_000, frame: .scene).samples
        let b = try TestMissions.engine("apollo13").sample("odyssey_aquarius", count: 20_000, frame: .scene).samples
        #expect(a == b)
        #expect(a.count == 20_000)
    }

    @Test func colourGradient() throws {
        let engine = TestMissions.engine("apollo8")
        let s = try engine.sample("apollo8_csm", count: 1001, frame: .native).samples
        let base = engine.mission.vehicles[0].color
        #expect(s[0].color == .white)
        let flybyIndex = s.indices.min { abs(s[$0].timeHours - 69) < abs(s[$1].timeHours - 69) }!
        func luminance(_ c: RGB) -> Double { c.r + c.g + c.b }
        #expect(luminance(s[flybyIndex].color) > luminance(base))
        #expect(luminance(s[s.count - 1].color) < luminance(base))
        #expect(abs(luminance(s[s.count - 1].color) - luminance(base) * TrajectoryColor.returnBrightness) < 1e-12)
        // Heliocentric: launch fade only, then the plain vehicle colour.
        let p = try TestMissions.engine("voyager1").sample("voyager1", count: 101, frame: .native).samples
        #expect(p[0].color == .white && p[50].color == TestMissions.mission("voyager1").vehicles[0].color)
        #expect(TrajectoryColor.color(base: RGB(0, 0, 0), fraction: TrajectoryColor.launchFadeShare / 2, flybyFraction: nil) == RGB(0.5, 0.5, 0.5))
    }

    @Test func framingFollowsGeocentricMissions() throws {
        let engine = TestMissions.engine("apollo11")
        let f = engine.framing()
        #expect(f.mode == .follow)
        let pose = try #require(f.pose)
        let earth = engine.earthScenePosition(atHours: 0)
        let radius = try #require(f.radius)
        let center = try #require(f.localCenter)
        #expect(abs(pose.distance - max(radius * 1.4 / tan(Double.pi / 6), 1.5)) < 1e-12)
        #expect(abs(pose.azimuthRad - (atan2(-earth.x, -earth.z) + 0.55)) < 1e-12)
        #expect(pose.elevationRad == 0.3)
        #expect((pose.target - (earth + center)).length < 1e-12)
        // The trajectory reaches the Moon (1.76 scene units) from the Earth: half-size ≈ 1…2.
        #expect(radius > 0.8 && radius < 2.5, "\(radius)")
        #expect(pose.distance > 1.5)
        // The camera sits on the Sun side of the Earth.
        #expect((pose.position - pose.target).dot(-earth) > 0)
        let helio = TestMissions.engine("cassini").framing()
        #expect(helio.mode == .overview && helio.pose == nil)
    }

    @Test func datesConvertToMissionTime() throws {
        let m = TestMissions.mission("apollo11")
        let t = try TimeScale.parse("1969-07-19T21:32:00Z")
        #expect(abs(m.hours(at: t) - 80) < 1e-9)
        #expect(abs(m.hours(at: m.instant(atHours: 123.456)) - 123.456) < 1e-9)
        let engines = MissionEngine.all(TestMissions.catalogue, ephemeris: TestMissions.ephemeris)
        #expect(engines.count == 11 && engines["apollo11"]?.vehicles.count == 3)
    }

    @Test func smallTrajectoriesClampTheDistance() {
        #expect(CameraFraming.fit(center: .zero, radius: 0.1, sunSideOf: Vector3(1, 0, 0)).distance == 1.5)
    }
}
