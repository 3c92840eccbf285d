import Foundation
import Testing
import Ephemeris
import Scene
@testable import Missions
import MissionScene

/// The engine against its kernels, against published figures and against the drawn scene. The
/// missions whose kernels are all in `Resources/missions` (``ServedMissions/engines``).
@Suite("Mission engine: kernels, telemetry, events, sampling, scene")
struct MissionEngineTests {
    /// The engine as served: the moons where the mission kernels (or the published flybys) put them.
    static let eph = ServedMissions.served
    static let kernels = ServedMissions.kernels
    static let layout = TestMissions.layout

    static func tdb(_ iso: String) -> Double { TestMissions.tdbSeconds(TestMissions.date(iso)) }

    /// Heliocentric state of a NAIF body the engine places itself.
    static func body(_ b: BodyID, at t: Instant) throws -> (positionKm: Vector3, velocityKmS: Vector3) {
        try #require(eph.naifState(NAIFBody.id(b), at: t))
    }

    /// The least distance of a vehicle from a body's centre between two instants (TDB seconds),
    /// read from the kernels directly: a scan at `step` seconds, then second by second around
    /// the least sample.
    static func closestApproach(naifID: Int, to b: BodyID, from s0: Double, to s1: Double, step: Double = 60) throws -> (seconds: Double, distanceKm: Double) {
        func distance(_ s: Double) throws -> Double {
            let t = TimeScale.instant(tdbSecondsPastJ2000: s)
            let v = try kernels.state(naifID, at: t, ephemeris: eph)
            return (v.positionKm - (try body(b, at: t)).positionKm).length
        }
        var best = (seconds: s0, distanceKm: Double.infinity)
        var s = s0
        while s <= s1 {
            let d = try distance(s)
            if d < best.distanceKm { best = (s, d) }
            s += step
        }
        s = max(s0, best.seconds - step)
        let stop = min(s1, best.seconds + step)
        while s <= stop {
            let d = try distance(s)
            if d < best.distanceKm { best = (s, d) }
            s += 1
        }
        return best
    }

    /// Scene positions of every body at an instant, as `/v1/scene` draws them.
    static func scene(at t: Instant) -> [Vector3] { layout.positions(eph.snapshot(at: t)) }

    // MARK: - Kernels

    @Test("every vehicle is where its kernel puts it, at its mission time; native samples are the kernel's states")
    func statesAreTheKernels() throws {
        #expect(Set(ServedMissions.engines.keys) == ["apollo8", "apollo11", "apollo13", "artemis2", "voyager1", "voyager2", "cassini", "juno", "osirisrex",
                                                     "newhorizons", "parker", "bepicolombo", "perseverance", "mro", "maven", "marsodyssey"])
        for (id, engine) in ServedMissions.engines.sorted(by: { $0.key < $1.key }) {
            for track in engine.tracks {
                let label = "\(id)/\(track.vehicle.id)"
                let end = track.endHours ?? track.dataEndHours
                for k in 0...24 {
                    let t = k == 24 ? end : track.startHours + (end - track.startHours) * Double(k) / 24
                    let s = try engine.state(track, atHours: t)
                    // Mission time is TT from launch; the state's instant is that many hours later
                    // (the engine counts TDB, which runs ±1.7 ms against TT over a year).
                    #expect(abs(engine.mission.hours(at: s.instant) - t) * 3600 < 0.0035, "\(label) at \(t) h")
                    // The first and last instants are read a microsecond inside the data: centimetres.
                    let seconds = TestMissions.tdbSeconds(s.instant)
                    let span = try #require(Self.kernels.coverage(of: track.vehicle.naifID).first { $0.lowerBound - 1 < seconds && seconds < $0.upperBound + 1 })
                    let inside = TimeScale.instant(tdbSecondsPastJ2000: min(max(seconds, span.lowerBound + 1e-6), span.upperBound - 1e-6))
                    let kernel = try Self.kernels.state(track.vehicle.naifID, at: inside, ephemeris: Self.eph)
                    #expect((s.heliocentricKm - kernel.positionKm).length < 1e-4, "\(label) at \(t) h")
                    #expect((s.velocityKmS - kernel.velocityKmS).length < 1e-6, "\(label) at \(t) h")
                    #expect(!s.extrapolated, "\(label) at \(t) h")
                }
                let line = try MissionScene(engine: engine).sample(track.vehicle.id, count: 40, frame: .native)
                #expect(line.unit == engine.mission.referenceFrame.unit)
                for p in line.samples.dropFirst().dropLast() {
                    let at = engine.instant(atHours: p.timeHours)
                    let kernel = try Self.kernels.state(track.vehicle.naifID, at: at, ephemeris: Self.eph).positionKm
                    let expected = engine.mission.referenceFrame == .geocentric ? kernel - (try Self.body(.earth, at: at)).positionKm
                        : kernel / Constants.auKm
                    let tolerance = engine.mission.referenceFrame == .geocentric ? 1e-4 : 1e-4 / Constants.auKm
                    #expect((p.position - expected).length < tolerance, "\(label) sample at \(p.timeHours) h")
                }
            }
        }
    }

    @Test("a vehicle exists from its start to its end; before launch and after the end nothing flies")
    func existence() throws {
        let engine = ServedMissions.engine("apollo11")
        func ids(_ t: Double) throws -> [String] { try engine.telemetry(at: t).vehicles.map(\.id) }
        // Eagle undocks at 100:12 GET and docks again at 128:03; splashdown at 195:18:35.
        #expect(try ids(-1).isEmpty)
        #expect(try ids(0) == ["csm_columbia"])
        #expect(try ids(100.15) == ["csm_columbia"])
        #expect(try ids(100.25) == ["csm_columbia", "lm_eagle"])
        #expect(try ids(128.0) == ["csm_columbia", "lm_eagle"])
        #expect(try ids(128.1) == ["csm_columbia"])
        #expect(try ids(195.30) == ["csm_columbia"])
        #expect(try ids(195.32).isEmpty)
        #expect(try engine.telemetry(at: -1).met == "T-00:01:00:00")
        #expect(throws: MissionQueryError.invalidTime(hours: .infinity)) { try engine.telemetry(at: .infinity) }
        #expect(throws: MissionQueryError.self) { try engine.telemetry(at: .nan) }
        let eagle = try engine.track("lm_eagle")
        #expect(eagle.exists(at: 100.25) && !eagle.exists(at: 100.15) && !eagle.exists(at: 128.1))
        #expect(throws: MissionQueryError.unknownVehicle(mission: "apollo11", id: "lm_falcon", valid: ["csm_columbia", "lm_eagle"])) {
            try engine.track("lm_falcon")
        }
        // A mission that flies on: its vehicle exists for ever after launch.
        let voyager = try ServedMissions.engine("voyager1").track("voyager1")
        #expect(voyager.exists(at: 1_000_000) && !voyager.exists(at: -0.01) && voyager.endHours == nil)
    }

    // MARK: - Telemetry

    @Test("geocentric telemetry: km from the Earth's centre, speed against it, nearest body, light time, source, phase")
    func geocentricTelemetry() throws {
        let engine = ServedMissions.engine("apollo11")
        for (t, phase, kind) in [(30.0, "translunar coast", VehiclePhase.Kind.ballistic), (2.8, "trans-lunar injection", .powered),
                                 (90, "lunar orbit after circularization", .ballistic), (195.2, "entry and descent", .powered)] {
            let tm = try engine.telemetry(at: t)
            let c = try #require(tm.vehicles.first { $0.id == "csm_columbia" })
            let at = tm.instant
            let seconds = TestMissions.tdbSeconds(at)
            let kernel = try Self.kernels.state(-1_969_011, at: at, ephemeris: Self.eph)
            let earth = try Self.body(.earth, at: at)
            let r = kernel.positionKm - earth.positionKm
            let v = kernel.velocityKmS - earth.velocityKmS
            #expect(c.frame == .geocentric && c.primary)
            #expect((c.position - r).length < 1e-6 && abs(c.distanceKm - r.length) < 1e-6, "\(t) h")
            #expect(abs(c.distanceAU * 149_597_870.7 - r.length) < 1e-6)
            #expect(abs(c.speedKmS - v.length) < 1e-9 && (c.velocityKmS - v).length < 1e-9, "\(t) h")
            #expect(abs(c.lightTimeToEarthSeconds - r.length / 299_792.458) < 0.001, "\(t) h")
            #expect(c.phase == phase && c.phaseKind == kind, "\(t) h: \(c.phase)")
            let segment = try #require(Self.kernels.segment(of: -1_969_011, at: seconds))
            #expect(c.source.contains(segment.name) && c.source.hasSuffix("(apollo11.bsp)") && !c.extrapolated, "\(c.source)")
            // Nearest: the Earth on the way out, the Moon in lunar orbit (its centre 1,738 + 100…122 km away).
            let moon = try Self.body(.moon, at: at)
            let nearest: BodyID = (kernel.positionKm - moon.positionKm).length < r.length ? .moon : .earth
            #expect(c.nearest.body == nearest, "\(t) h")
            let b = nearest == .moon ? moon : earth
            #expect(abs(c.nearest.distanceKm - (kernel.positionKm - b.positionKm).length) < 1e-6)
            // Above the spheroid: between the heights above the equatorial and the polar radius.
            let shape = try #require(BodyShape.of(nearest))
            #expect(c.nearest.altitudeKm <= c.nearest.distanceKm - shape.polarRadiusKm + 1e-9
                    && c.nearest.altitudeKm >= c.nearest.distanceKm - shape.equatorialRadiusKm - 1e-9, "\(t) h: \(c.nearest)")
            #expect(abs(c.nearest.speedKmS - (kernel.velocityKmS - b.velocityKmS).length) < 1e-9)
            if t == 90 { #expect(c.nearest.body == .moon && c.nearest.altitudeKm > 90 && c.nearest.altitudeKm < 135, "\(c.nearest.altitudeKm) km") }
        }
        let tm = try engine.telemetry(at: 80)
        #expect(tm.met == "T+03:08:00:00" && tm.date.hasPrefix("1969-07-19T21:32:00"))
        #expect(tm.lastEvent?.key == "loi" && tm.nextEvent?.key == "undock")
        #expect(tm.visibleLabels.map(\.key) == ["loi"])
    }

    @Test("a capsule in the ocean after splashdown is landed on the Earth, not coasting", arguments: ["apollo8", "apollo11", "apollo13", "artemis2"])
    func splashdownIsLanded(_ id: String) throws {
        let engine = ServedMissions.engine(id)
        let end = try #require(engine.mission.endHours)
        let tm = try engine.telemetry(at: end)
        let capsule = try #require(tm.vehicles.first { $0.primary })
        #expect(capsule.phase == "landed" && capsule.phaseKind == .landed, "\(id): \(capsule.phase) \(capsule.phaseKind)")
        #expect(capsule.nearest.body == .earth && abs(capsule.nearest.altitudeKm) < 1, "\(id): \(capsule.nearest)")
        // A minute before, under the parachutes, it is still in its entry phase.
        let before = try #require(try engine.telemetry(at: end - 1.0 / 60).vehicles.first { $0.primary })
        #expect(before.phaseKind == .powered, "\(id): \(before.phase)")
    }

    @Test("heliocentric telemetry in AU; beyond an ongoing mission's data the vehicle is carried on by two-body motion")
    func heliocentricTelemetryAndExtrapolation() throws {
        let engine = ServedMissions.engine("voyager1")
        let track = try engine.track("voyager1")
        // At the heliopause (2012-08-25), 121 AU from the Sun: light time some 16.8 hours.
        let t = engine.mission.hours(at: TestMissions.date("2012-08-25T00:00:00Z"))
        let tm = try engine.telemetry(at: t)
        let v = try #require(tm.vehicles.first)
        let kernel = try Self.kernels.state(-31, at: tm.instant, ephemeris: Self.eph)
        let earth = try Self.body(.earth, at: tm.instant)
        #expect(v.frame == .heliocentric && (v.position - kernel.positionKm / 149_597_870.7).length < 1e-12)
        #expect(abs(v.distanceAU - 121) < 1, "\(v.distanceAU) AU")
        #expect(abs(v.speedKmS - kernel.velocityKmS.length) < 1e-9 && abs(v.speedKmS - 17) < 0.3, "\(v.speedKmS) km/s")
        #expect(abs(v.lightTimeToEarthSeconds - (kernel.positionKm - earth.positionKm).length / 299_792.458) < 0.001)
        #expect(abs(v.lightTimeToEarthSeconds / 3600 - 16.8) < 0.3, "\(v.lightTimeToEarthSeconds / 3600) h")
        // Nearest: the Sun 121 AU away, or a planet on Voyager's side of it.
        var nearest = (body: BodyID.sun, distanceKm: kernel.positionKm.length)
        for b in BodyID.heliocentric + [.moon] {
            let d = (kernel.positionKm - (try Self.body(b, at: tm.instant)).positionKm).length
            if d < nearest.distanceKm { nearest = (b, d) }
        }
        #expect(v.nearest.body == nearest.body && abs(v.nearest.distanceKm - nearest.distanceKm) < 1e-3, "\(v.nearest) vs \(nearest)")
        #expect(v.phase == "coast" && v.phaseKind == .ballistic && !v.extrapolated && v.source.hasSuffix("(voyager1.bsp)"))
        #expect(tm.lastEvent?.key == "heliopause")

        // The data end, and a year beyond it.
        let end = track.dataEndHours
        let coverage = try #require(Self.kernels.coverage(of: -31).last)
        #expect(abs(end - engine.mission.hours(at: TimeScale.instant(tdbSecondsPastJ2000: coverage.upperBound))) < 1e-6)
        #expect(try !engine.state(track, atHours: end - 1).extrapolated)
        let atEnd = try Self.kernels.state(-31, at: TimeScale.instant(tdbSecondsPastJ2000: coverage.upperBound), ephemeris: Self.eph)
        let justAfter = try engine.state(track, atHours: end + 1e-6)
        #expect(justAfter.extrapolated && (justAfter.heliocentricKm - atEnd.positionKm).length < 1, "seamless at the data end")
        let year = 365.25 * 86_400
        let later = try engine.telemetry(at: end + year / 3600)
        let x = try #require(later.vehicles.first)
        #expect(x.extrapolated && x.phase == "extrapolated" && x.phaseKind == .ballistic)
        #expect(x.source.contains("two-body extrapolation") && x.source.contains("solar-system barycentre"), "\(x.source)")
        // Two-body motion about the barycentre with the mass of the Sun and the planets,
        // integrated here (RK4, 1,000 steps) from the last state of the data.
        let bary0 = try #require(Self.eph.naifState(0, at: TimeScale.instant(tdbSecondsPastJ2000: coverage.upperBound)))
        let bary1 = try #require(Self.eph.naifState(0, at: later.instant))
        // The Sun's GM and the Sun/planet-system mass ratios (IAU 2009 system of constants).
        let ratios: [Double] = [6_023_600, 408_523.71, 328_900.56, 3_098_708, 1_047.348_6, 3_497.898, 22_902.98, 19_412.26, 136_100_000]
        let mu: Double = 1.327_124_400_18e11 * ratios.reduce(1.0) { $0 + 1 / $1 }
        func accel(_ r: Vector3) -> Vector3 { r * (-mu / (r.lengthSquared * r.length)) }
        var r = atEnd.positionKm - bary0.positionKm, u = atEnd.velocityKmS - bary0.velocityKmS
        let h = (TestMissions.tdbSeconds(later.instant) - coverage.upperBound) / 1_000
        for _ in 0..<1_000 {
            let k1v = accel(r), k1r = u
            let k2v = accel(r + k1r * (h / 2)), k2r = u + k1v * (h / 2)
            let k3v = accel(r + k2r * (h / 2)), k3r = u + k2v * (h / 2)
            let k4v = accel(r + k3r * h), k4r = u + k3v * h
            r = r + (k1r + k2r * 2 + k3r * 2 + k4r) * (h / 6)
            u = u + (k1v + k2v * 2 + k3v * 2 + k4v) * (h / 6)
        }
        let predicted = r
        let r1 = x.position * 149_597_870.7 - bary1.positionKm
        #expect((r1 - predicted).length < 10, "\((r1 - predicted).length) km off a year on")

        // Juno is carried about Jupiter: a year beyond its data it is still in orbit there.
        let juno = ServedMissions.engine("juno")
        let junoTrack = try juno.track("juno")
        for days in [1.0, 100, 365] {
            let s = try juno.state(junoTrack, atHours: junoTrack.dataEndHours + days * 24)
            let jupiter = try Self.body(.jupiter, at: s.instant)
            let d = (s.heliocentricKm - jupiter.positionKm).length
            #expect(s.extrapolated && d > 71_492 && d < 1e7, "Juno \(days) days on: \(d) km from Jupiter")
            #expect(s.source.contains("about Jupiter"), "\(s.source)")
        }
    }

    @Test("date-only events are timed at the vehicle's closest approach to their body on that day")
    func closestApproachEvents() throws {
        var checked: [String] = []
        for (id, engine) in ServedMissions.engines.sorted(by: { $0.key < $1.key }) {
            let raw = try #require(TestMissions.rawMissions().first { $0["id"] as? String == id })
            let rawEvents = try #require(raw["events"] as? [[String: Any]])
            let track = try #require(engine.tracks.first { $0.vehicle.primary })
            for e in engine.mission.events where e.timeFromClosestApproach {
                let written = try #require(rawEvents.first { $0["key"] as? String == e.key }?["date"] as? String)
                let body = try #require(e.fact?.body)
                let day = Self.tdb(written)
                let found = try Self.closestApproach(naifID: track.vehicle.naifID, to: body, from: day, to: day + 86_400, step: 30)
                let resolved = TestMissions.tdbSeconds(e.date)
                #expect(abs(resolved - found.seconds) < 2, "\(id)/\(e.key ?? e.name): \(e.date.iso8601), least distance at \(KernelBodyError.date(found.seconds))")
                #expect(abs(engine.mission.hours(at: e.date) - e.timeHours) * 3600 < 0.01)
                checked.append("\(id)/\(e.key ?? "")")
            }
            #expect(zip(engine.mission.events, engine.mission.events.dropFirst()).allSatisfy { $0.timeHours <= $1.timeHours }, "\(id)")
            #expect(engine.mission.events.map(\.index) == Array(engine.mission.events.indices))
        }
        #expect(checked == ["cassini/jupiter", "cassini/t8", "cassini/t41", "cassini/e4", "cassini/e5", "cassini/e7", "cassini/t70", "cassini/e16", "cassini/e18",
                            "cassini/e19", "cassini/t87", "cassini/t110", "cassini/d5", "juno/pj1", "juno/io1", "juno/io2", "parker/vga1", "parker/vga3", "parker/p10", "parker/vga7"])
        // Juno's Io flybys, 1,500 km above Io (radius 1,821.6 km), measured from Io's own centre.
        let juno = ServedMissions.engine("juno")
        for key in ["io1", "io2"] {
            let e = try #require(juno.mission.events.first { $0.key == key })
            let v = try #require(try juno.telemetry(at: e.timeHours).vehicles.first)
            let io = try Self.body(.io, at: e.date)
            let s = try Self.kernels.state(-61, at: e.date, ephemeris: Self.eph)
            #expect(v.nearest.body == .io && abs(v.nearest.distanceKm - (s.positionKm - io.positionKm).length) < 1e-3, "\(key): \(v.nearest)")
            #expect(abs(v.nearest.altitudeKm - 1_500) < 150, "\(key): \(v.nearest.altitudeKm) km above Io")
        }
    }

    @Test("Artemis II passes 8,282 km from the Moon's centre on 6 April 2026")
    func artemis2LunarFlyby() throws {
        let engine = ServedMissions.engine("artemis2")
        let e = try #require(engine.mission.events.first { $0.key == "lunar-ca" })
        #expect(e.fact?.body == .moon && e.fact?.distanceKm == 8_282)
        let found = try Self.closestApproach(naifID: -1024, to: .moon, from: Self.tdb("2026-04-06T00:00:00Z"), to: Self.tdb("2026-04-07T00:00:00Z"))
        #expect(abs(found.distanceKm - 8_282) < 50, "\(found.distanceKm) km")
        // Horizons gives the time to the minute: 23:01.
        #expect(abs(found.seconds - Self.tdb("2026-04-06T23:01:00Z")) < 120, "\(KernelBodyError.date(found.seconds))")
        let tm = try engine.telemetry(at: e.timeHours)
        let orion = try #require(tm.vehicles.first)
        #expect(orion.nearest.body == .moon && abs(orion.nearest.distanceKm - 8_282) < 60, "\(orion.nearest)")
        #expect(orion.phase == "lunar flyby" && tm.lastEvent?.key == "lunar-ca")
    }

    @Test("BepiColombo past its last flyby follows the published plan: planned, in orbit about Mercury now and carried on about it beyond the data")
    func bepiColomboPlanned() throws {
        let engine = ServedMissions.engine("bepicolombo")
        let track = try engine.track("bepicolombo")
        let from = try #require(track.vehicle.plannedFromHours)
        let flyby6 = try #require(engine.mission.events.first { $0.key == "mercury6" })
        #expect(abs(from - flyby6.timeHours) < 1e-6)
        #expect(try !engine.state(track, atHours: from - 1).planned)
        #expect(try engine.state(track, atHours: from + 1).planned)
        // Other missions plan nothing.
        #expect(ServedMissions.engine("voyager1").tracks.allSatisfy { $0.vehicle.plannedFromHours == nil })
        // 2026-11-30: in the capture orbit, planned, from the kernel.
        let now = try engine.telemetry(at: engine.mission.hours(at: TestMissions.date("2026-11-30T00:00:00Z")))
        let v = try #require(now.vehicles.first)
        #expect(v.state.planned && !v.extrapolated && v.nearest.body == .mercury)
        #expect(v.nearest.altitudeKm > 500 && v.nearest.altitudeKm < 11_800, "\(v.nearest.altitudeKm) km")
        // Beyond the data: the MPO's orbit carried on two-body about Mercury, still planned.
        for days in [1.0, 30, 365] {
            let s = try engine.state(track, atHours: track.dataEndHours + days * 24)
            let d = (s.heliocentricKm - (try Self.body(.mercury, at: s.instant)).positionKm).length - 2_439.4
            #expect(s.extrapolated && s.planned && d > 400 && d < 1_600, "\(days) days on: \(d) km above Mercury")
            #expect(s.source.contains("about Mercury"), "\(s.source)")
        }
    }

    @Test("orbit spans: bound to a planet from its orbit insertion; flybys and geocentric lines have none")
    func orbitSpans() throws {
        for (id, key, body) in [("cassini", "soi", BodyID.saturn), ("juno", "joi", .jupiter), ("mro", "moi", .mars), ("maven", "moi", .mars),
                                ("marsodyssey", "moi", .mars), ("bepicolombo", "moi", .mercury)] {
            let engine = ServedMissions.engine(id)
            let track = try #require(engine.tracks.first)
            let spans = engine.orbitSpans(track)
            let insertion = try #require(engine.mission.events.first { $0.key == key }).timeHours
            #expect(spans.count == 1 && spans.first?.body == body, "\(id): \(spans)")
            // Captured during the insertion burn (up to 90 minutes after it starts; BepiColombo's
            // plan dates the insertion to the day, at the capture orbit's periherm).
            let start = try #require(spans.first).hours.lowerBound
            #expect(start >= insertion - 0.02 && start < insertion + 1.5, "\(id): bound from \(start - insertion) h after the insertion")
            #expect(abs(try #require(spans.first).hours.upperBound - engine.lineSpanHours(track).upperBound) < 1e-9)
            #expect(engine.orbitSpans(track) == spans, "cached")
        }
        for id in ["voyager1", "voyager2", "parker", "newhorizons", "osirisrex", "apollo11", "artemis2"] {
            let engine = ServedMissions.engine(id)
            #expect(engine.tracks.allSatisfy { engine.orbitSpans($0).isEmpty }, "\(id)")
        }
    }

    @Test("a picture's flown revolution: Cassini's orbit about Saturn drawn round once, closed, its periapsis turn in small steps")
    func flownRevolution() throws {
        let scene = ServedMissions.scene("cassini")
        let track = try #require(scene.engine.tracks.first)
        #expect(try scene.flownRevolution(track, atHours: scene.engine.mission.hours(at: TestMissions.date("2000-12-30T00:00:00Z"))) == nil)
        let t = scene.engine.mission.hours(at: TestMissions.date("2010-03-02T00:00:00Z"))
        let points = try #require(try scene.flownRevolution(track, atHours: t))
        #expect(points.count == MissionScene.revolutionPoints)
        let center = Self.scene(at: scene.engine.instant(atHours: t))[BodyID.saturn.index]
        let rel = points.map { $0 - center }
        let normal = rel.indices.dropFirst().reduce(Vector3.zero) { $0 + rel[$1 - 1].cross(rel[$1]) }.normalized
        var turned = 0.0, largest = 0.0
        for (a, b) in zip(rel, rel.dropFirst()) {
            let step = atan2(a.cross(b).dot(normal), a.dot(b)) * 180 / .pi
            turned += step
            largest = max(largest, abs(step))
        }
        #expect(abs(turned - 360) < 10, "\(turned)° round Saturn")
        #expect(largest < 15, "a step of \(largest)°: the periapsis pass drawn by a chord")
        let size = rel.map(\.length).max() ?? 1
        #expect((points[0] - points[points.count - 1]).length < 0.05 * size, "the revolution does not close")
    }

    @Test("Parker's perihelion 22 comes at its published time, 11:53 UTC on 24 December 2024; perihelion 1 is only checked")
    func parkerPerihelia() throws {
        // The last Venus flyby's turn is chosen for perihelion 22's time; its distance is not
        // imposed (6.8 million km from the centre published, rounded from 6.1 from the surface).
        let p22 = try Self.closestApproach(naifID: -96, to: .sun, from: Self.tdb("2024-12-23T12:00:00Z"), to: Self.tdb("2024-12-25T12:00:00Z"), step: 60)
        #expect(abs(p22.seconds - Self.tdb("2024-12-24T11:53:00Z")) < 60, "\(KernelBodyError.date(p22.seconds))")
        #expect(abs(p22.distanceKm - 6_800_000) < 0.015 * 6_800_000, "\(p22.distanceKm) km")
        // Perihelion 1 (03:28 UTC published) follows from the flybys and corrections before it:
        // about an hour early in the model (docs/missions.md), its distance within 0.2 %.
        let engine = ServedMissions.engine("parker")
        let p1 = try #require(engine.mission.events.first { $0.key == "p1" })
        #expect(!p1.timeFromClosestApproach && TestMissions.tdbSeconds(p1.date) == Self.tdb("2018-11-06T03:28:00Z"))
        let found = try Self.closestApproach(naifID: -96, to: .sun, from: Self.tdb("2018-11-05T00:00:00Z"), to: Self.tdb("2018-11-07T00:00:00Z"), step: 60)
        #expect(abs(found.distanceKm - 24_800_000) < 0.002 * 24_800_000, "\(found.distanceKm) km")
        #expect(abs(found.seconds - Self.tdb("2018-11-06T03:28:00Z")) < 75 * 60, "\(KernelBodyError.date(found.seconds))")
    }

    @Test("Voyager 2 passes 29,240 km from Neptune's centre on 25 August 1989 at 03:56 UTC")
    func voyager2AtNeptune() throws {
        let engine = ServedMissions.engine("voyager2")
        let e = try #require(engine.mission.events.first { $0.key == "neptune" })
        let fact = try #require(e.fact)
        #expect(fact.body == .neptune && fact.distanceKm == 29_240)
        let found = try Self.closestApproach(naifID: -32, to: .neptune, from: Self.tdb("1989-08-25T00:00:00Z"), to: Self.tdb("1989-08-25T08:00:00Z"))
        #expect(abs(found.distanceKm - 29_240) < 1_000, "\(found.distanceKm) km")
        #expect(abs(found.seconds - Self.tdb("1989-08-25T03:56:36Z")) < 300, "\(KernelBodyError.date(found.seconds))")
        let v = try #require(try engine.telemetry(at: engine.mission.hours(at: TimeScale.instant(tdbSecondsPastJ2000: found.seconds))).vehicles.first)
        #expect(v.nearest.body == .neptune && abs(v.nearest.distanceKm - found.distanceKm) < 1)
        // 27.3 km/s relative to Neptune at closest approach.
        #expect(abs(v.nearest.speedKmS - (fact.speedKmS ?? 0)) < 0.5, "\(v.nearest.speedKmS) km/s")
        // The marker is drawn just outside the drawn Neptune: 29,240 / 24,764 km → 1.16 drawn radii.
        let scene = Self.scene(at: TimeScale.instant(tdbSecondsPastJ2000: found.seconds))
        let radius = Self.layout.radii[BodyID.neptune.index]
        let d = (MissionScene(engine: engine).scenePosition(v.state) - scene[BodyID.neptune.index]).length
        #expect(d > radius && d < 1.3 * radius, "\(d / radius) drawn radii from the drawn Neptune")
    }

    // MARK: - Apollo 11's Eagle on the Moon

    @Test("Eagle on the Moon: on its surface, and drawn on the drawn Moon by the line and the marker")
    func eagleOnTheMoon() throws {
        let engine = ServedMissions.engine("apollo11")
        let drawn = MissionScene(engine: engine)
        let eagle = try engine.track("lm_eagle")
        let landed = try #require(eagle.vehicle.phases.first { $0.kind == .landed })
        #expect(landed.body == .moon)
        let moonRadiusKm = 1_737.4 // IAU mean radius; Tranquility Base lies ~2 km below it
        let moonScene = Self.layout.radii[BodyID.moon.index]
        for k in 0...20 {
            let t = landed.startHours + (landed.endHours - landed.startHours) * Double(k) / 20 - (k == 20 ? 1e-6 : 0)
            let tm = try engine.telemetry(at: t)
            let e = try #require(tm.vehicles.first { $0.id == "lm_eagle" })
            #expect(e.phaseKind == .landed && e.phase == "on the Moon", "\(t) h")
            let kernel = try Self.kernels.state(-1_969_012, at: tm.instant, ephemeris: Self.eph)
            let moon = try Self.body(.moon, at: tm.instant)
            let r = (kernel.positionKm - moon.positionKm).length
            #expect(abs(r - moonRadiusKm) < 5, "\(t) h: \(r) km from the Moon's centre")
            // At rest on the Moon: it moves with the surface, 4.6 m/s at the equator.
            #expect(e.nearest.body == .moon && abs(e.nearest.distanceKm - r) < 1e-4 && e.nearest.speedKmS < 0.01, "\(e.nearest)")
            // The marker, on the drawn Moon.
            let scene = Self.scene(at: tm.instant)
            let marker = (drawn.scenePosition(e.state, planetsAU: tm.planetsAU) - scene[BodyID.moon.index]).length
            #expect(marker <= moonScene * (1 + 1e-9) && marker > 0.9 * moonScene, "\(t) h: marker \(marker / moonScene) drawn radii from the drawn Moon")
        }
        // The line `/trajectory?frame=scene` draws (Earth-relative), at its own sample times.
        var checked = 0
        for count in [500, 2_000] {
            let line = try drawn.sample("lm_eagle", count: count, frame: .scene)
            #expect(drawn.sceneOrigin == .earth && line.unit == "scene")
            for p in line.samples where landed.contains(p.timeHours) {
                let scene = Self.scene(at: engine.instant(atHours: p.timeHours))
                let moon = scene[BodyID.moon.index] - scene[BodyID.earth.index]
                let d = (p.position - moon).length
                #expect(d <= moonScene * (1 + 1e-9) && d > 0.9 * moonScene, "\(p.timeHours) h: line \(d / moonScene) drawn radii from the drawn Moon")
                checked += 1
            }
        }
        #expect(checked > 100)
    }

    // MARK: - Sampling

    @Test("sampling validates its count and vehicle, covers the span end to end and is deterministic")
    func sampling() throws {
        let engine = ServedMissions.engine("apollo13")
        let drawn = MissionScene(engine: engine)
        #expect(throws: MissionQueryError.sampleCountOutOfRange(count: 1, accepted: 2...20_000)) {
            try engine.sample("odyssey_aquarius", count: 1)
        }
        #expect(throws: MissionQueryError.sampleCountOutOfRange(count: 20_001, accepted: 2...20_000)) {
            try drawn.sample("odyssey_aquarius", count: 20_001, frame: .scene)
        }
        #expect(throws: MissionQueryError.unknownVehicle(mission: "apollo13", id: "lm_eagle", valid: ["odyssey_aquarius"])) {
            try engine.sample("lm_eagle", count: 10)
        }
        let a = try drawn.sample("odyssey_aquarius", count: 5_000, frame: .scene).samples
        let rebuilt = try MissionEngine(mission: TestMissions.mission("apollo13"), ephemeris: TestMissions.de440, kernels: ServedMissions.kernels)
        let b = try MissionScene(engine: rebuilt).sample("odyssey_aquarius", count: 5_000, frame: .scene).samples
        #expect(a == b)
        #expect(a.count == 5_000)
        // Launch 1970-04-11T19:13:00Z to splashdown 18:07:41 six days later: 142:54:41.
        #expect(a.first?.timeHours == 0 && abs((a.last?.timeHours ?? 0) - (142 + 54.0 / 60 + 41.0 / 3600)) < 1e-5)
        #expect(zip(a, a.dropFirst()).allSatisfy { $0.timeHours < $1.timeHours })
        let two = try engine.sample("odyssey_aquarius", count: 2).samples
        #expect(two.map(\.timeHours) == [a[0].timeHours, a[a.count - 1].timeHours])

        // 49 years of Voyager 2 in the default 500 samples: each flyby still gets the samples
        // that draw it. The scene magnifies a planet's neighbourhood, so a line with too few
        // samples there cuts straight through the drawn planet: the drawn line must pass each
        // drawn planet no closer than the drawn closest approach (1.16 to 5.6 drawn radii).
        let voyager = ServedMissions.engine("voyager2")
        let voyagerScene = MissionScene(engine: voyager)
        let line = try voyagerScene.sample("voyager2", count: 500, frame: .scene).samples
        for (key, body) in [("jupiter", BodyID.jupiter), ("saturn", .saturn), ("uranus", .uranus), ("neptune", .neptune)] {
            let ca = try #require(voyager.mission.events.first { $0.key == key }).timeHours
            let near = line.filter { abs($0.timeHours - ca) < 24 }.count
            #expect(near >= 5, "\(key): \(near) samples within a day of closest approach")
            let planet = Self.scene(at: voyager.instant(atHours: ca))[body.index]
            let radius = Self.layout.radii[body.index]
            let drawnCA = (voyagerScene.scenePosition(try voyager.state(try voyager.track("voyager2"), atHours: ca)) - planet).length
            var closest = Double.infinity
            for (a, b) in zip(line, line.dropFirst()) where abs(a.timeHours - ca) < 48 || abs(b.timeHours - ca) < 48 {
                let d = b.position - a.position
                let f = max(0, min(1, (planet - a.position).dot(d) / d.lengthSquared))
                closest = min(closest, (a.position + d * f - planet).length)
            }
            #expect(drawnCA > radius && closest > 0.98 * drawnCA, "\(key): the line passes \(closest / radius) drawn radii from the drawn planet; closest approach is drawn at \(drawnCA / radius)")
        }
        // An ongoing mission's line runs to the end of its data.
        let track = try voyager.track("voyager2")
        #expect(line.last?.timeHours == track.dataEndHours)
    }

    // MARK: - Scene

    @Test("scene samples of geocentric missions are Earth-relative, leave the drawn Earth and circle the drawn Moon")
    func sceneSamples() throws {
        let engine = ServedMissions.engine("apollo11")
        let drawn = MissionScene(engine: engine)
        let line = try drawn.sample("csm_columbia", count: 2_000, frame: .scene)
        #expect(line.unit == "scene" && drawn.sceneOrigin == .earth)
        let earthScene = Self.layout.radii[BodyID.earth.index]
        let moonScene = Self.layout.radii[BodyID.moon.index]
        // On the pad: on the drawn Earth's surface.
        let first = try #require(line.samples.first)
        #expect(abs(first.position.length - earthScene) < 0.02 * earthScene, "\(first.position.length / earthScene) drawn radii")
        // In lunar orbit (100…122 km up): just outside the drawn Moon, never inside it.
        let orbit = try #require(engine.mission.vehicle("csm_columbia")?.phases.first { $0.name == "lunar orbit after circularization" })
        var inOrbit = 0
        for p in line.samples where orbit.contains(p.timeHours) {
            let scene = Self.scene(at: engine.instant(atHours: p.timeHours))
            let d = (p.position - (scene[BodyID.moon.index] - scene[BodyID.earth.index])).length
            #expect(d > moonScene && d < 1.1 * moonScene, "\(p.timeHours) h: \(d / moonScene) drawn Moon radii")
            inOrbit += 1
        }
        #expect(inOrbit > 50)
        // The line reaches the drawn Moon (1.76 scene units from the drawn Earth) and not far beyond.
        let moonDistance = Self.layout.moonDistances[BodyID.moon.index]
        let farthest = line.samples.map(\.position.length).max() ?? 0
        #expect(farthest > moonDistance && farthest < 1.5 * moonDistance, "\(farthest)")
        // The telemetry marker is the line's point carried on the Earth's scene position.
        let tm = try engine.telemetry(at: 90)
        let index = try #require(tm.vehicles.firstIndex { $0.id == "csm_columbia" })
        let marker = drawn.scenePositions(tm)[index]
        let local = drawn.localScenePosition(try engine.state(try engine.track("csm_columbia"), atHours: 90))
        #expect((marker - (Self.scene(at: tm.instant)[BodyID.earth.index] + local)).length < 1e-9)
        // Heliocentric missions are drawn from the Sun.
        #expect(ServedMissions.scene("voyager1").sceneOrigin == .sun)
    }

    @Test("framing follows geocentric missions from the Sun side; heliocentric ones get the overview")
    func framing() throws {
        let engine = ServedMissions.scene("apollo11")
        let f = engine.framing()
        #expect(f.mode == .follow)
        let pose = try #require(f.pose)
        let radius = try #require(f.radius)
        let center = try #require(f.localCenter)
        let earth = Self.scene(at: engine.mission.launch)[BodyID.earth.index]
        #expect(abs(pose.distance - max(radius * 1.4 / tan(Double.pi / 6), 1.5)) < 1e-12)
        #expect(abs(pose.azimuthRad - (atan2(-earth.x, -earth.z) + 0.55)) < 1e-9)
        #expect(pose.elevationRad == 0.3)
        #expect((pose.target - (earth + center)).length < 1e-9)
        // The box reaches from the drawn Earth to the drawn Moon (1.76 scene units): half-size 1…2.5.
        #expect(radius > 0.8 && radius < 2.5, "\(radius)")
        #expect((pose.position - pose.target).dot(-earth) > 0, "the camera sits on the Sun side")
        // Every vehicle's line lies in the box (a finer line may poke out by a hair).
        let lo = try #require(f.localBoundsMin), hi = try #require(f.localBoundsMax)
        for v in ["csm_columbia", "lm_eagle"] {
            for p in try engine.sample(v, count: 300, frame: .scene).samples {
                let q = p.position
                #expect(q.x > lo.x - 0.01 && q.y > lo.y - 0.01 && q.z > lo.z - 0.01 && q.x < hi.x + 0.01 && q.y < hi.y + 0.01 && q.z < hi.z + 0.01, "\(v) at \(p.timeHours) h")
            }
        }
        let later = engine.framing(atHours: 100)
        #expect(later.radius == f.radius && later.pose?.target != pose.target, "the box stays, the Earth moves")
        // Every geocentric mission is followed (its lines sample from launch to splashdown).
        for id in ["apollo8", "apollo13", "artemis2"] {
            let f = ServedMissions.scene(id).framing()
            #expect(f.mode == .follow && (f.radius ?? 0) > 0.8 && (f.radius ?? 0) < 2.5, "\(id): \(f.mode) \(String(describing: f.radius))")
        }
        for id in ["voyager2", "cassini"] {
            let helio = ServedMissions.scene(id).framing()
            #expect(helio.mode == .overview && helio.pose == nil && helio.radius == nil)
        }
    }
}
