#if canImport(Glibc)
import Glibc
#endif
import Testing
import Ephemeris
@testable import Missions

/// Telemetry near the Moon against the missions' real orbits, landing and flybys.
@Suite("Lunar physics behind telemetry")
struct LunarPhysicsTests {
    static let moonRadiusKm = 1_737.4
    static let mu = Constants.moonGMKm3PerS2

    func moon(_ e: MissionEngine, _ t: Double) -> Vector3 { e.moonGeocentricKm(atHours: t) }

    func vehicle(_ tm: MissionTelemetry, _ id: String) throws -> VehicleTelemetry {
        try #require(tm.vehicles.first { $0.id == id }, "\(id) at \(tm.timeHours) h")
    }

    @Test("Apollo 11 at T+80 h: Columbia 110 km above the Moon at 1.63 km/s, within the Moon's distance ± 2,000 km of the Earth")
    func columbiaInLunarOrbit() throws {
        let e = TestMissions.engine("apollo11")
        let c = try vehicle(try e.telemetry(at: 80), "csm_columbia")
        let m = try #require(c.moon)
        #expect(abs(m.distanceKm - (Self.moonRadiusKm + 110)) < km(0.01))
        #expect(abs(m.altitudeKm - 110) < km(0.01))
        #expect(abs(m.speedKmS - 1.63) < 0.05, "\(m.speedKmS)")
        // Circular speed; the central difference over ±1 min takes the chord, 0.05 % short of the arc.
        #expect(abs(m.speedKmS - (Self.mu / (Self.moonRadiusKm + 110)).squareRoot()) < 1e-3)
        let moonKm = moon(e, 80).length
        #expect(abs(c.distanceKm - moonKm) < km(2_000), "\(c.distanceKm) vs the Moon at \(moonKm)")
        #expect(abs((c.position - moon(e, 80)).length - m.distanceKm) < 1e-6)
        // Geocentric speed: the Moon's ~1 km/s and the orbit's 1.63 km/s combined.
        #expect(c.speedKmS > 1.63 - 1.1 && c.speedKmS < 1.63 + 1.1, "\(c.speedKmS)")
        // Period from Kepler's third law: about 2 h (the mission report's figure).
        let track = try #require(e.lunarTracks[1])
        guard case .orbit(let o) = track.segment(atHours: 80).piece else { Issue.record("not in orbit at 80 h"); return }
        #expect(abs(o.periodHours - 1.98) < 0.01, "\(o.periodHours) h")
        // Retrograde in the Moon's equator: angular momentum against the Moon's pole (which nods
        // by a few thousandths of a degree with the E3/E4 terms between 80 h and the landing).
        let pole = TestMissions.ephemeris.orientation(.moon, at: e.mission.instant(atHours: 80)).poleEcliptic
        #expect(Angle.degrees(o.normal.angle(to: -pole)) < 0.05)
    }

    @Test("Eagle at T+110 h: on the surface at Tranquility Base, moving only with the Moon's rotation (4.6 m/s)")
    func eagleOnTheSurface() throws {
        let e = TestMissions.engine("apollo11")
        for t in [102.8, 110.0, 124.25] { // three minutes clear of touchdown and lift-off (±1 min differences)
            let eagle = try vehicle(try e.telemetry(at: t), "lm_eagle")
            let m = try #require(eagle.moon)
            #expect(m.altitudeKm < km(1e-6), "\(m.altitudeKm) at \(t)")
            #expect(abs(m.distanceKm - Self.moonRadiusKm) < km(1e-6))
            // 2π·1737.4 km·cos(0.674°) per sidereal month (27.3217 d).
            #expect(abs(m.speedKmS - 0.004_62) < 0.000_05, "\(m.speedKmS) km/s at \(t)")
            // Selenographic coordinates of the position, through the Moon's IAU orientation.
            let o = TestMissions.ephemeris.orientation(.moon, at: e.mission.instant(atHours: t))
            let body = o.bodyToEcliptic.transposed * (eagle.position - moon(e, t)).normalized
            #expect(abs(Angle.degrees(asin(body.z)) - 0.674) < 1e-6)
            #expect(abs(Angle.degrees(atan2(body.y, body.x)) - 23.473) < 1e-6)
        }
    }

    @Test("Eagle undocks from Columbia, descends from the orbit Columbia flies over the site, and climbs back to orbit")
    func eagleLifecycle() throws {
        let e = TestMissions.engine("apollo11")
        let undock = try e.telemetry(at: 100.2)
        #expect((try vehicle(undock, "lm_eagle").position - vehicle(undock, "csm_columbia").position).length < km(1e-6))
        // Columbia passes over the landing site halfway through the 12.6 min powered descent (the
        // equatorial orbit 0.674° south of it); Eagle, slowing, lands 6.3 min later.
        let overhead = 102.75 - 12.6 / 120
        let site = try vehicle(try e.telemetry(at: 110), "lm_eagle").position - moon(e, 110)
        let o = TestMissions.ephemeris.orientation(.moon, at: e.mission.instant(atHours: 110))
        let siteThen = TestMissions.ephemeris.orientation(.moon, at: e.mission.instant(atHours: overhead)).bodyToEcliptic * (o.bodyToEcliptic.transposed * site)
        let columbiaDir = (try vehicle(try e.telemetry(at: overhead), "csm_columbia").position - moon(e, overhead)).normalized
        #expect(Angle.degrees(columbiaDir.angle(to: siteThen.normalized)) < 0.7)
        // Powered descent: altitude and speed fall to zero over 12.6 min, never below the surface.
        var previous = (altitude: Double.infinity, speed: Double.infinity)
        for k in 0...76 {
            let t = 102.75 - 12.6 / 60 + Double(k) / 360
            let m = try #require(try vehicle(try e.telemetry(at: t), "lm_eagle").moon)
            #expect(m.altitudeKm <= previous.altitude + 1e-9 && m.altitudeKm >= 0, "\(m.altitudeKm) km at \(t) h")
            #expect(m.speedKmS <= previous.speed + 0.02, "\(m.speedKmS) km/s at \(t) h")
            previous = (m.altitudeKm, m.speedKmS)
        }
        // After the 7.25 min ascent Eagle is in a 110 km orbit again.
        let m = try #require(try vehicle(try e.telemetry(at: 124.3 + 7.25 / 60 + 0.05), "lm_eagle").moon)
        #expect(abs(m.altitudeKm - 110) < km(0.01) && abs(m.speedKmS - 1.6283) < 0.001)
    }

    @Test("Apollo 8 orbits 111.5 km up from LOI to TEI, period about 2 h")
    func apollo8() throws {
        let e = TestMissions.engine("apollo8")
        for t in [69.5, 75.0, 88.9] {
            let m = try #require(try vehicle(try e.telemetry(at: t), "apollo8_csm").moon)
            #expect(abs(m.altitudeKm - 111.5) < km(0.01))
            #expect(abs(m.speedKmS - 1.6277) < 0.001)
        }
        let track = try #require(e.lunarTracks[0])
        guard case .orbit(let o) = track.segment(atHours: 80).piece else { Issue.record("not in orbit"); return }
        #expect(abs(o.periodHours - 1.98) < 0.01)
        #expect(try e.telemetry(at: 60).vehicles[0].moon == nil) // beyond the sphere of influence
    }

    @Test("Apollo 13 flies by without orbiting: closest approach 254 km at T+77 h, on one conic")
    func apollo13() throws {
        let e = TestMissions.engine("apollo13")
        #expect(e.mission.physics?.orbit == nil && e.mission.physics?.flyby?.altitudeKm == 254)
        let (t, altitude) = try closestApproach(e, vehicle: "odyssey_aquarius", around: 77)
        #expect(abs(altitude - 254) < km(1), "\(altitude) km")
        #expect(abs(t - 77) < 0.01, "\(t) h")
        // No burn at the periapsis: the speed is continuous through it and obeys vis-viva with
        // the energy of the inbound conic.
        let before = try #require(try vehicle(try e.telemetry(at: 77 - 1.0 / 120), "odyssey_aquarius").moon)
        let after = try #require(try vehicle(try e.telemetry(at: 77 + 1.0 / 120), "odyssey_aquarius").moon)
        #expect(abs(before.speedKmS - after.speedKmS) < 0.01)
        let inbound = try #require(try vehicle(try e.telemetry(at: 72), "odyssey_aquarius").moon)
        let energy = inbound.speedKmS * inbound.speedKmS / 2 - Self.mu / inbound.distanceKm
        let vp = (2 * (energy + Self.mu / (Self.moonRadiusKm + 254))).squareRoot()
        let at = try #require(try vehicle(try e.telemetry(at: 77), "odyssey_aquarius").moon)
        #expect(abs(at.speedKmS - vp) < 0.005, "\(at.speedKmS) vs vis-viva \(vp)")
        // The Moon was about 404,420 km away (JPL Horizons, 1970-04-15 00:21 UTC).
        #expect(abs(moon(e, 77.1).length - 404_420) < km(100))
    }

    @Test("Artemis II flies by 7,600 km above the far side at T+112 h")
    func artemis2() throws {
        let e = TestMissions.engine("artemis2")
        let (t, altitude) = try closestApproach(e, vehicle: "orion", around: 112)
        #expect(abs(altitude - 7_600) < km(1) && abs(t - 112) < 0.01, "\(altitude) km at \(t) h")
        // Far side: the Moon lies between Orion and the Earth at closest approach.
        let tm = try e.telemetry(at: 112)
        #expect(try vehicle(tm, "orion").distanceKm > moon(e, 112).length)
    }

    @Test("no jumps: position continuous minute by minute; speed too (under 0.5 km/s a minute, powered descent and ascent included), except at the LOI and TEI burns", arguments: ["apollo8", "apollo11", "apollo13", "artemis2"])
    func continuity(mission id: String) throws {
        let e = TestMissions.engine(id)
        let physics = try #require(e.mission.physics)
        let burns = [physics.orbit?.startHours, physics.orbit?.endHours].compactMap { $0 }
        let centre = physics.orbit.map { ($0.startHours + $0.endHours) / 2 } ?? physics.flyby?.timeHours ?? 0
        let half = physics.orbit.map { ($0.endHours - $0.startHours) / 2 + 30 } ?? 30
        // The authored curve's own speed changes at its waypoints (time maps to the spline
        // parameter piecewise-linearly, as in the seeds): not this model's to smooth.
        let waypoints = Set(e.vehicles.flatMap(\.times))
        var previous: [String: VehicleTelemetry] = [:]
        var checked = 0
        var t = centre - half
        while t <= centre + half {
            let tm = try e.telemetry(at: t)
            for v in tm.vehicles {
                if let m = v.moon { #expect(m.altitudeKm >= 0, "\(id)/\(v.id) below the surface at \(t) h") }
                defer { previous[v.id] = v }
                guard let p = previous[v.id] else { continue }
                let step = (v.position - p.position).length
                #expect(step < 60 * max(v.speedKmS, p.speedKmS) * 1.05 + km(1), "\(id)/\(v.id) jumps \(step) km at \(t) h")
                let nearWaypoint = waypoints.contains { abs($0 - t) < 1.5 / 60 }
                if !nearWaypoint, !burns.contains(where: { abs($0 - t) < 1.5 / 60 }) {
                    #expect(abs(v.speedKmS - p.speedKmS) < 0.5, "\(id)/\(v.id) speed \(p.speedKmS) → \(v.speedKmS) at \(t) h")
                }
                checked += 1
            }
            t += 1.0 / 60
        }
        #expect(checked > 3_000)
    }

    @Test("at lunar orbit insertion the geocentric distance does not jump")
    func insertionIsContinuous() throws {
        let e = TestMissions.engine("apollo11")
        let before = try vehicle(try e.telemetry(at: 75.8 - 1e-6), "csm_columbia")
        let after = try vehicle(try e.telemetry(at: 75.8), "csm_columbia")
        #expect((before.position - after.position).length < km(0.01))
        // The burn: faster before, 1.63 km/s after.
        let (arriving, orbiting) = (try #require(before.moon), try #require(after.moon))
        #expect(arriving.speedKmS > orbiting.speedKmS + 0.2, "\(arriving.speedKmS) → \(orbiting.speedKmS)")
    }

    @Test("Moon-relative figures only inside the sphere of influence, and never for heliocentric missions")
    func nearTheMoonOnly() throws {
        let e = TestMissions.engine("apollo11")
        #expect(abs(e.moonSphereOfInfluenceKm - 66_183) < 1) // 384,400 km × (1/81.30057)^(2/5)
        #expect(try vehicle(try e.telemetry(at: 10), "csm_columbia").moon == nil)
        #expect(try vehicle(try e.telemetry(at: 0.02), "saturn_v").moon == nil)
        #expect(try TestMissions.engine("cassini").telemetry(at: 25_560).vehicles.allSatisfy { $0.moon == nil })
        // Far from the Moon the physical path is the authored curve.
        let v = try e.vehicle("csm_columbia")
        #expect((try vehicle(try e.telemetry(at: 30), "csm_columbia").position - e.curvePosition(v, atHours: 30)).length < 1e-9)
    }

    /// The lowest altitude within ±1 h of `t`, sampled every 3 s.
    func closestApproach(_ e: MissionEngine, vehicle id: String, around t0: Double) throws -> (hours: Double, altitudeKm: Double) {
        var best = (hours: t0, altitudeKm: Double.infinity)
        var t = t0 - 1
        while t <= t0 + 1 {
            if let m = try vehicle(try e.telemetry(at: t), id).moon, m.altitudeKm < best.altitudeKm { best = (t, m.altitudeKm) }
            t += 3.0 / 3600
        }
        return best
    }
}
