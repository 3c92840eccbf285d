import Foundation
import Testing
@testable import Ephemeris

/// `KernelBodies`: SPICE's precedence, the frames, the chains through centres, and the errors,
/// on small synthetic kernels (type 2 segments with constant or linear positions).
@Suite("Kernel bodies")
struct KernelBodiesTests {
    /// A type 2 segment holding `p` + `rate`·(t − mid) over [start, end] (one record).
    static func segment(_ target: Int, from center: Int, frame: Int = 17, type: Int = 2, _ p: Vector3, rate: Vector3 = .zero,
                        start: Double, end: Double, name: String = "TEST") -> SPKWriter.Segment {
        let radius = (end - start) / 2
        let c = [[p.x, rate.x * radius], [p.y, rate.y * radius], [p.z, rate.z * radius]]
        return SPKWriter.Segment(target: target, center: center, frame: frame, type: type, initial: start, interval: end - start, records: [c], name: name)
    }

    static func kernel(_ segments: [SPKWriter.Segment], file: String) throws -> SPKKernel {
        try SPKKernel(bytes: KernelBuffer(copying: SPKWriter(segments: segments).bytes()), file: file)
    }

    static func instant(_ seconds: Double) -> Instant { TimeScale.instant(tdbSecondsPastJ2000: seconds) }

    let eph = TestEngine.served

    @Test("later kernels outrank earlier ones, later segments outrank earlier ones in a file")
    func precedence() throws {
        let a = try Self.kernel([Self.segment(-5, from: 10, Vector3(1000, 0, 0), start: 0, end: 1e6)], file: "a.bsp")
        let b = try Self.kernel([
            Self.segment(-5, from: 10, Vector3(2000, 0, 0), start: 5e5, end: 2e6),
            Self.segment(-5, from: 10, Vector3(3000, 0, 0), start: 1.5e6, end: 1.8e6),
        ], file: "b.bsp")
        let bodies = try KernelBodies([a, b])
        #expect(bodies.targets == [-5])
        for (seconds, x, file) in [(1e5, 1000.0, "a.bsp"), (6e5, 2000, "b.bsp"), (1.6e6, 3000, "b.bsp"), (1.9e6, 2000, "b.bsp"), (5e5 + 1, 2000, "b.bsp")] {
            let s = try bodies.state(-5, at: Self.instant(seconds), ephemeris: eph)
            #expect(abs(s.positionKm.x - x) < 1e-6, "at \(seconds) s: \(s.positionKm)")
            #expect(s.segment.file == file)
        }
        #expect(bodies.coverage(of: -5) == [0...2e6])
    }

    @Test("J2000 segments are turned into the ecliptic, ECLIPJ2000 ones used as they are")
    func inertialFrames() throws {
        let k = try Self.kernel([
            Self.segment(-1, from: 10, frame: 1, Vector3(0, 1000, 0), start: 0, end: 1e6),
            Self.segment(-2, from: 10, frame: 17, Vector3(0, 1000, 0), start: 0, end: 1e6),
        ], file: "f.bsp")
        let bodies = try KernelBodies([k])
        let t = Self.instant(1e5)
        let eps = Constants.obliquityJ2000Radians
        let j2000 = try bodies.state(-1, at: t, ephemeris: eph).positionKm
        #expect((j2000 - Vector3(0, 1000 * cos(eps), -1000 * sin(eps))).length < 1e-9)
        #expect((try bodies.state(-2, at: t, ephemeris: eph).positionKm - Vector3(0, 1000, 0)).length < 1e-9)
    }

    @Test("an IAU_MARS segment turns with Mars: a point on its equator moves at the rotation speed")
    func bodyFixedFrame() throws {
        let radius = 3_389.5
        let k = try Self.kernel([Self.segment(-168, from: 499, frame: 10014, Vector3(radius, 0, 0), start: 0, end: 1e9)], file: "m.bsp")
        let bodies = try KernelBodies([k])
        let t = try TimeScale.parse("2021-02-18T21:00:00Z")
        let s = try bodies.state(-168, at: t, ephemeris: eph)
        let mars = try #require(eph.naifState(499, at: t))
        let rel = s.positionKm - mars.positionKm
        let expected = eph.orientation(.mars, at: t).bodyToEcliptic * Vector3(radius, 0, 0)
        #expect((rel - expected).length < 1e-6)
        // 2π·R per sidereal day (360°/350.892°·day), perpendicular to the radius.
        let period = 360 / 350.891_982_443_297 * 86_400
        let relV = s.velocityKmS - mars.velocityKmS
        #expect(abs(relV.length - 2 * Double.pi * radius / period) < 1e-6, "\(relV.length) km/s")
        #expect(abs(relV.dot(rel)) < 1e-6)
    }

    @Test("a segment in another frame is refused and listed; an unread SPK type stops the file")
    func refusals() throws {
        let k = try Self.kernel([
            Self.segment(-3, from: 10, frame: 2, Vector3(1, 2, 3), start: 0, end: 1e6),
            Self.segment(-4, from: -3, frame: -121944, Vector3(1, 2, 3), start: 0, end: 1e6),
            Self.segment(-5, from: 10, Vector3(1, 2, 3), start: 0, end: 1e6),
        ], file: "r.bsp")
        let bodies = try KernelBodies([k])
        #expect(bodies.targets == [-5])
        #expect(bodies.refusals.count == 2)
        #expect(bodies.refusals[0].description.contains("r.bsp: segment 1 (-3 from 10)"))
        #expect(bodies.refusals[0].description.contains("B1950"))
        #expect(bodies.refusals[1].description.contains("frame -121944"))
        #expect(throws: KernelBodyError.unknown(id: -3)) { try bodies.state(-3, at: Self.instant(1), ephemeris: eph) }

        let unread = try Self.kernel([Self.segment(-9, from: 10, type: 5, Vector3(1, 2, 3), start: 0, end: 1e6)], file: "t5.bsp")
        do {
            _ = try KernelBodies([unread])
            Issue.record("a type 5 segment was accepted")
        } catch {
            #expect(error.kind == .unsupported)
            #expect(error.description.contains("t5.bsp"))
            #expect(error.description.contains("segment 1 (-9 from 10"))
            #expect(error.description.contains("type 5"))
        }
    }

    @Test("bodies hang from kernel bodies, and the errors name what is missing and what is covered")
    func chains() throws {
        let k = try Self.kernel([
            Self.segment(-5, from: 10, Vector3(1e6, 0, 0), rate: Vector3(0, 10, 0), start: 0, end: 1e6),
            Self.segment(-6, from: -5, Vector3(0, 100, 0), start: 0, end: 2e6),
            Self.segment(-7, from: -999, Vector3(0, 100, 0), start: 0, end: 2e6),
        ], file: "c.bsp")
        let bodies = try KernelBodies([k])
        let s = try bodies.state(-6, at: Self.instant(7.5e5), ephemeris: eph)
        #expect((s.positionKm - Vector3(1e6, 100 + 10 * 2.5e5, 0)).length < 1e-6)
        #expect((s.velocityKmS - Vector3(0, 10, 0)).length < 1e-9)

        do {
            _ = try bodies.state(-5, at: Self.instant(3e6), ephemeris: eph)
            Issue.record("placed -5 outside its segment")
        } catch {
            guard case let .notCovered(id, seconds, spans) = error else { Issue.record("\(error)"); return }
            #expect(id == -5 && abs(seconds - 3e6) < 1e-6 && spans == [0...1e6])
            #expect(error.description.hasPrefix("NAIF -5 is not covered at 2000-02-05T05:18:55"))
            #expect(error.description.hasSuffix("; covered: 2000-01-01T11:58:55.816Z…2000-01-13T01:45:35.816Z"))
        }
        do {
            _ = try bodies.state(-6, at: Self.instant(1.5e6), ephemeris: eph)
            Issue.record("placed -6 without its centre")
        } catch {
            guard case let .centerNotCovered(id, center, _, spans) = error else { Issue.record("\(error)"); return }
            #expect(id == -6 && center == -5 && spans == [0...1e6])
            #expect(error.description.contains("covered: 2000-01-01T11:58:55.816Z…2000-01-13T01:45:35.816Z"), "\(error)")
        }
        do {
            _ = try bodies.state(-7, at: Self.instant(10), ephemeris: eph)
            Issue.record("placed -7 without its centre")
        } catch {
            guard case let .centerNotCovered(id, center, _, spans) = error else { Issue.record("\(error)"); return }
            #expect(id == -7 && center == -999 && spans.isEmpty)
        }
    }

    @Test("a state relative to another body: down the chain of centres when it passes through it, else the difference of heliocentric states; positions only on request")
    func relativeStates() throws {
        let k = try Self.kernel([
            Self.segment(-5, from: 10, Vector3(1e6, 0, 0), rate: Vector3(0, 10, 0), start: 0, end: 1e9),
            Self.segment(-6, from: -5, Vector3(0, 100, 0), rate: Vector3(1, 0, 0), start: 0, end: 1e9),
            Self.segment(-8, from: 301, Vector3(1_800, 0, 0), rate: Vector3(0, 1.6, 0), start: 0, end: 1e9),
            Self.segment(-9, from: 399, frame: 1, Vector3(7_000, 0, 0), rate: Vector3(0, 7.5, 0), start: 0, end: 1e9),
            Self.segment(-168, from: 499, frame: 10014, Vector3(3_389.5, 0, 0), start: 0, end: 1e9),
        ], file: "r.bsp")
        let bodies = try KernelBodies([k])
        var checked = 0
        for seconds in [2.5e5, 3.1e8, 8.07e8] {
            let t = Self.instant(seconds)
            // (body, origin): through the chain (-6 from -5; -8 from the Moon to the Earth; -9 from
            // the Earth itself) and across it (-5 from the Earth; -168 from the Sun and the Earth).
            for (id, origin) in [(-6, -5), (-6, 10), (-8, 399), (-9, 399), (-5, 399), (-168, 10), (-168, 399), (-168, 499)] {
                let s = try bodies.state(id, at: t, ephemeris: eph)
                let o: (positionKm: Vector3, velocityKmS: Vector3)
                if origin == -5 {
                    let c = try bodies.state(-5, at: t, ephemeris: eph)
                    o = (c.positionKm, c.velocityKmS)
                } else {
                    o = try #require(eph.naifState(origin, at: t))
                }
                let r = try bodies.state(id, relativeTo: origin, tdbSecondsPastJ2000: seconds, ephemeris: eph)
                // Against two heliocentric states 1 AU out (and an instant that holds `seconds`
                // to ~0.1 µs): Double rounding, a centimetre at most.
                #expect((r.positionKm - (s.positionKm - o.positionKm)).length < 1e-5, "\(id) from \(origin) at \(seconds) s")
                #expect((r.velocityKmS - (s.velocityKmS - o.velocityKmS)).length < 1e-9, "\(id) from \(origin) at \(seconds) s")
                #expect(r.segment == s.segment)
                let p = try bodies.state(id, relativeTo: origin, tdbSecondsPastJ2000: seconds, ephemeris: eph, velocity: false)
                #expect((p.positionKm - r.positionKm).length < 1e-9 && p.velocityKmS == .zero)
                checked += 1
            }
        }
        #expect(checked == 24)
        #expect(throws: KernelBodyError.self) { try bodies.state(-6, relativeTo: 399, tdbSecondsPastJ2000: 2e9, ephemeris: eph) }
    }

    @Test("centre 0 is the solar-system barycentre: the DE kernel's inside its span, the planets' mass-weighted mean outside")
    func barycenter() throws {
        let k = try Self.kernel([Self.segment(-8, from: 0, Vector3(0, 0, 0), start: 0, end: 3e9)], file: "b.bsp")
        let bodies = try KernelBodies([k])
        let t = try TimeScale.parse("2026-11-26T00:00:00Z")
        let s = try bodies.state(-8, at: t, ephemeris: eph)
        let ssb = eph.solarSystemBarycenter(at: t)
        #expect((s.positionKm - ssb.positionKm).length < 1e-6)
        // The Sun wanders about a solar radius from the barycentre.
        #expect((200_000...2_200_000).contains(ssb.positionKm.length))
        // From the analytical theories alone: the same point to the theories' errors.
        let analytic = TestEngine.ephemeris.solarSystemBarycenter(at: t)
        #expect((analytic.positionKm - ssb.positionKm).length < 2_000, "\((analytic.positionKm - ssb.positionKm).length) km")
        #expect((analytic.velocityKmS - ssb.velocityKmS).length < 1e-4)
    }

    @Test("Jupiter's and Saturn's centres lie a few hundred km from their barycentres; their moons hang from the centres")
    func planetCenters() throws {
        let t = try TimeScale.parse("2016-07-05T03:00:00Z")
        let j = eph.barycenterToCenter(.jupiter, at: t).positionKm.length
        let s = eph.barycenterToCenter(.saturn, at: t).positionKm.length
        #expect((10...250).contains(j), "Jupiter \(j) km")
        #expect((100...350).contains(s), "Saturn \(s) km")
        #expect(eph.barycenterToCenter(.mars, at: t).positionKm == .zero)
        let center = try #require(eph.naifState(599, at: t)), io = try #require(eph.naifState(501, at: t))
        let rel = eph.parentRelativeState(.io, at: t).positionKm
        #expect(((io.positionKm - center.positionKm) - rel).length < 1e-6)
    }

    @Test("the telemetry's shortcuts agree with naifState: a giant planet's centre and moons, and the moon nearest a point", arguments: [BodyID.jupiter, .saturn, .mars])
    func planetCenterShortcuts(_ planet: BodyID) throws {
        var checked = 0, fastChecked = 0
        for date in ["2004-07-01T02:39:00Z", "2016-07-05T03:00:00Z", "2023-12-30T08:36:00Z"] {
            let t = try TimeScale.parse(date)
            let moons = eph.satellitePositionsKm(of: planet, at: t)
            #expect(moons.map(\.body) == eph.catalogue[planet].moons)
            for m in moons { #expect((m.km - eph.parentRelativeState(m.body, at: t).positionKm).length < 1e-9) }
            for member in [planet] + moons.map(\.body) {
                let exact = try #require(eph.naifState(NAIFBody.id(member), at: t))
                if let fast = eph.systemMemberState(member, of: planet, moonsKm: moons, at: t) {
                    #expect((fast.positionKm - exact.positionKm).length < 1e-6)
                    // Against a central difference over ±20 s (what the theories see as the
                    // step): naifState's own rates, over ±h = 1/1000 of the fastest period, are
                    // off by up to (2πh/P)²/6 of the speed (Mimas: 0.1 m/s). 2 cm/s: Mimas's mean
                    // longitude is 2·10⁷° today, so its theory's positions are Doubles good to a
                    // centimetre, about a cm/s over the 4 s step.
                    let before = t.addingTT(seconds: -20), after = t.addingTT(seconds: 20)
                    let ahead = try #require(eph.naifState(NAIFBody.id(member), at: after))
                    let behind = try #require(eph.naifState(NAIFBody.id(member), at: before))
                    let rate = (ahead.positionKm - behind.positionKm) / ((after.jdTDB - before.jdTDB) * Constants.secondsPerDay)
                    #expect((fast.velocityKmS - rate).length < 2e-5, "\(member): \((fast.velocityKmS - rate).length * 1e6) mm/s")
                    fastChecked += 1
                } else {
                    #expect(planet == .mars)
                }
            }
            // From a point beside each moon in turn, that moon is the nearest, at the distance naifState gives.
            let barycenter = eph.state(planet, at: t).positionAU * Constants.auKm
            for m in moons {
                let moon = try #require(eph.naifState(NAIFBody.id(m.body), at: t))
                let point = moon.positionKm + Vector3(0, 0, 10)
                let found = try #require(eph.nearestMoon(of: planet, to: point, planetBarycenterKm: barycenter, moonsKm: moons))
                #expect(found.body == m.body && abs(found.distanceKm - 10) < 1e-6, "\(m.body): \(found)")
                checked += 1
            }
        }
        #expect(checked == 3 * eph.catalogue[planet].moons.count)
        #expect(fastChecked == (planet == .mars ? 0 : 3 * (1 + eph.catalogue[planet].moons.count)))
    }

    @Test("every engine body has a NAIF id the engine places again")
    func naifIDs() throws {
        let t = try TimeScale.parse("2000-01-01T12:00:00Z")
        var checked = 0
        for body in BodyID.allCases {
            let id = NAIFBody.id(body)
            switch NAIFBody.known(id) {
            case .body(let b)?: #expect(b == body)
            case .planetCenter(let b)?: #expect(b == body)
            default: Issue.record("\(body) → \(id) is not known")
            }
            #expect(eph.naifState(id, at: t) != nil)
            checked += 1
        }
        #expect(checked == BodyID.count)
        #expect(NAIFBody.frame(10014) == .bodyFixed(.mars))
        #expect(NAIFBody.frame(10020) == .bodyFixed(.moon))
        #expect(NAIFBody.frame(1) == .icrf)
        #expect(NAIFBody.frame(17) == .eclipticJ2000)
        #expect(NAIFBody.frame(2) == nil)
        #expect(NAIFBody.frameName(10014) == "IAU_MARS")
    }
}
