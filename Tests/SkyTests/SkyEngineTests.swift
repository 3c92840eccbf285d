import Foundation
import Testing
import Ephemeris
@testable import Sky

/// `sky-positions.json`: Skyfield with the server's DE440 file, at the same TDB and ΔT.
struct SkyPositionsFixture: Decodable {
    struct Case: Decodable {
        let place: String, lat: Double, lon: Double, elevationM: Double, body: String, utc: String
        let tdbSecondsPastJ2000: Double, deltaTSeconds: Double
        let raDeg: Double, decDeg: Double, raJ2000Deg: Double, decJ2000Deg: Double
        let azimuthDeg: Double, altitudeDeg: Double, refractedAltitudeDeg: Double, distanceKm: Double, lightTimeS: Double
        /// Skyfield's Mallama & Hilton magnitude (planets; null where its formulae stop).
        let magnitude: Double?
    }
    struct DeltaT: Decodable { let utc: String; let deltaTSeconds: Double }
    struct StarCase: Decodable {
        let star: String, raHours: Double, decDeg: Double, lat: Double, lon: Double, elevationM: Double
        let tdbSecondsPastJ2000: Double, deltaTSeconds: Double, azimuthDeg: Double, refractedAltitudeDeg: Double
    }
    let cases: [Case]
    let deltaT: [DeltaT]
    let stars: [StarCase]
}

@Suite("Sky engine against Skyfield")
struct SkyEngineTests {
    static let fixture = TestSky.fixture("sky-positions.json", as: SkyPositionsFixture.self)

    struct Errors {
        var apparent = 0.0, astrometric = 0.0, azimuth = 0.0, altitude = 0.0, refracted = 0.0, distanceKm = 0.0, lightTime = 0.0
        var horizontalCases = 0
    }

    static func measure(atmosphere: Atmosphere?) -> (Errors, Int) {
        var e = Errors()
        var count = 0
        for c in fixture.cases {
            let instant = TimeScale.instant(tdbSecondsPastJ2000: c.tdbSecondsPastJ2000)
            let time = SkyTime(instant: instant, deltaTSeconds: c.deltaTSeconds)
            guard let body = BodyID(rawValue: c.body) else { Issue.record("unknown body \(c.body)"); continue }
            let p = TestSky.engine.view([body], from: TestSky.observer(c.lat, c.lon, c.elevationM), at: time, atmosphere: atmosphere)[0]
            e.apparent = max(e.apparent, raDecArcseconds(ra: p.raDeg, dec: p.decDeg, referenceRA: c.raDeg, referenceDec: c.decDeg))
            e.astrometric = max(e.astrometric, raDecArcseconds(ra: p.raJ2000Deg, dec: p.decJ2000Deg, referenceRA: c.raJ2000Deg, referenceDec: c.decJ2000Deg))
            e.distanceKm = max(e.distanceKm, abs(p.distanceKm - c.distanceKm))
            e.lightTime = max(e.lightTime, abs(p.lightTimeS - c.lightTimeS))
            // Azimuth and altitude where the body is above 10° (the issue's bound; near the
            // zenith an azimuth is ill-defined, so it is weighted by cos(altitude)).
            if c.altitudeDeg > 10 {
                e.horizontalCases += 1
                e.azimuth = max(e.azimuth, angleDifferenceDeg(p.azimuthDeg, c.azimuthDeg) * cos(c.altitudeDeg * .pi / 180) * 3600)
                let alt = atmosphere == nil ? c.altitudeDeg : c.refractedAltitudeDeg
                e.altitude = max(e.altitude, abs(p.altitudeDeg - alt) * 3600)
            }
            count += 1
        }
        return (e, count)
    }

    @Test("apparent and astrometric RA/Dec within 1″, altitude and azimuth within 10″ (airless)")
    func airless() {
        let (e, count) = Self.measure(atmosphere: nil)
        #expect(count == 360)
        #expect(e.horizontalCases >= 100)
        print("sky vs Skyfield: \(count) cases, apparent \(e.apparent)″, astrometric \(e.astrometric)″; \(e.horizontalCases) above 10°: azimuth \(e.azimuth)″, altitude \(e.altitude)″; distance \(e.distanceKm) km, light time \(e.lightTime) s")
        #expect(e.apparent < 1)
        #expect(e.astrometric < 1)
        #expect(e.azimuth < 10)
        #expect(e.altitude < 10)
        // Relative: the Sun's 13 m/s about the barycentre over Pluto's 5 h of light time is 250 km.
        #expect(e.distanceKm < 1e-7 * 50 * Constants.auKm)
        #expect(e.lightTime < 0.001)
    }

    /// Skyfield places the Sun at the barycentre for magnitudes (its comment says so): up to 0.01 AU,
    /// a degree of phase angle for Mercury and Venus. The outer planets are held to 0.02.
    @Test("planetary magnitudes within 0.1 of Skyfield's Mallama & Hilton (0.02 beyond Venus)")
    func magnitudes() {
        var worst = 0.0, worstOuter = 0.0, count = 0
        for c in Self.fixture.cases {
            guard let expected = c.magnitude, let body = BodyID(rawValue: c.body) else { continue }
            let time = SkyTime(instant: TimeScale.instant(tdbSecondsPastJ2000: c.tdbSecondsPastJ2000), deltaTSeconds: c.deltaTSeconds)
            let p = TestSky.engine.view([body], from: TestSky.observer(c.lat, c.lon, c.elevationM), at: time, atmosphere: nil)[0]
            guard let m = p.magnitude else { Issue.record("no magnitude for \(c.body)"); continue }
            worst = max(worst, abs(m - expected))
            if body != .mercury, body != .venus { worstOuter = max(worstOuter, abs(m - expected)) }
            count += 1
        }
        print("magnitudes vs Skyfield: \(count) cases, max \(worst), beyond Venus \(worstOuter)")
        #expect(count >= 200)
        #expect(worst < 0.1)
        #expect(worstOuter < 0.02)
    }

    @Test("moons of other planets are placed beside their planet, with no magnitude")
    func moons() throws {
        let time = TestSky.engine.time(try TimeScale.parse("2026-03-01T22:00:00Z"))
        let o = TestSky.observer(48.8566, 2.3522, 35)
        let view = TestSky.engine.view([.jupiter, .io, .callisto, .saturn, .titan, .mars, .phobos], from: o, at: time, atmosphere: nil)
        func separationDeg(_ a: SkyPosition, _ b: SkyPosition) -> Double {
            let d = Angle.radians(a.decDeg), e = Angle.radians(b.decDeg)
            return acos(min(1, sin(d) * sin(e) + cos(d) * cos(e) * cos(Angle.radians(a.raDeg - b.raDeg)))) * 180 / .pi
        }
        #expect(separationDeg(view[0], view[1]) < 0.05)   // Io within 3′ of Jupiter
        #expect(separationDeg(view[0], view[2]) < 0.25)   // Callisto within 15′
        #expect(separationDeg(view[3], view[4]) < 0.1)    // Titan within 6′ of Saturn
        #expect(separationDeg(view[5], view[6]) < 0.01)   // Phobos within 36″ of Mars
        #expect(view[1].magnitude == nil && view[4].magnitude == nil)
        #expect(view.allSatisfy { $0.raDeg.isFinite && $0.altitudeDeg.isFinite && $0.distanceKm > 0 })
    }

    @Test("stars' refracted altitude and azimuth within 10″ of Skyfield above 10°")
    func stars() {
        var worstAz = 0.0, worstAlt = 0.0, count = 0
        for c in Self.fixture.stars where c.refractedAltitudeDeg > 10 {
            let ra = c.raHours * 15 * Double.pi / 180, dec = c.decDeg * Double.pi / 180
            let d = Vector3(cos(dec) * cos(ra), cos(dec) * sin(ra), sin(dec))
            let time = SkyTime(instant: TimeScale.instant(tdbSecondsPastJ2000: c.tdbSecondsPastJ2000), deltaTSeconds: c.deltaTSeconds)
            let h = TestSky.engine.horizontal(stars: [d], from: TestSky.observer(c.lat, c.lon, c.elevationM), at: time, atmosphere: .standard)[0]
            worstAz = max(worstAz, angleDifferenceDeg(h.azimuthDeg, c.azimuthDeg) * cos(c.refractedAltitudeDeg * .pi / 180) * 3600)
            worstAlt = max(worstAlt, abs(h.altitudeDeg - c.refractedAltitudeDeg) * 3600)
            count += 1
        }
        print("stars vs Skyfield: \(count) cases above 10°, azimuth \(worstAz)″, altitude \(worstAlt)″")
        #expect(count >= 50)
        #expect(worstAz < 10 && worstAlt < 10)
    }

    @Test("refracted altitude within 10″ of Skyfield at 10 °C, 1010 hPa")
    func refracted() {
        let (e, count) = Self.measure(atmosphere: Atmosphere(temperatureC: 10, pressureHPa: 1010))
        #expect(count == 360)
        print("refracted altitude vs Skyfield: \(e.horizontalCases) cases above 10°, max \(e.altitude)″")
        #expect(e.horizontalCases >= 100)
        #expect(e.altitude < 10)
    }
}

@Suite("ΔT from the IERS table")
struct DeltaTTableTests {
    @Test("the table's ΔT within 2 ms of Skyfield's daily IERS values, 1973-2025")
    func againstSkyfield() throws {
        let cases = SkyEngineTests.fixture.deltaT
        #expect(cases.count >= 200)
        var worst = 0.0
        for c in cases {
            let t = TestSky.engine.time(try TimeScale.parse(c.utc))
            #expect(t.deltaTSource == "IERS finals2000A (observed)")
            worst = max(worst, abs(t.deltaTSeconds - c.deltaTSeconds))
        }
        print("ΔT vs Skyfield: \(cases.count) dates, max \(worst * 1000) ms")
        #expect(worst < 0.002)
    }

    @Test("outside the table ΔT meets it continuously and pre-1972 dates are read as UT1")
    func edges() throws {
        let table = TestSky.deltaT
        let end = try TimeScale.utc(julianDay: table.lastMJD + DeltaTTable.mjdOffset)
        let after = try TimeScale.utc(julianDay: table.lastMJD + DeltaTTable.mjdOffset + 0.01)
        #expect(abs(table.skyTime(end).deltaTSeconds - table.skyTime(after).deltaTSeconds) < 0.001)
        #expect(table.skyTime(after).deltaTSource.contains("shifted"))
        let old = table.skyTime(try TimeScale.parse("1950-06-01T00:00:00Z"))
        #expect(old.ut1MinusUTCSeconds == 0)
        #expect(abs(old.jdUT1 - (try TimeScale.parse("1950-06-01T00:00:00Z")).jdUTC) < 1e-9)
    }

    @Test("malformed tables are refused with the line")
    func malformed() {
        #expect(throws: DeltaTTableError.self) { try DeltaTTable(csv: Array("mjd,delta_t_s\n1,2\n".utf8)) }
        #expect(throws: DeltaTTableError.malformed(line: 1, detail: "expected the header mjd,delta_t_s[,x_p_arcsec,y_p_arcsec]")) { try DeltaTTable(csv: Array("x\n".utf8)) }
        // The pole's columns, when announced, are required and bounded.
        #expect(throws: DeltaTTableError.self) { try DeltaTTable(csv: Array("mjd,delta_t_s,x_p_arcsec,y_p_arcsec\n1,2\n2,2\n3,2\n4,2\n".utf8)) }
        #expect(throws: DeltaTTableError.self) { try DeltaTTable(csv: Array("mjd,delta_t_s,x_p_arcsec,y_p_arcsec\n1,2,0,9\n2,2,0,0\n3,2,0,0\n4,2,0,0\n".utf8)) }
        #expect(throws: DeltaTTableError.self) { try DeltaTTable(csv: Array("mjd,delta_t_s\n1,2\n2,2\n4,2\n5,2\n".utf8)) }
    }
}
