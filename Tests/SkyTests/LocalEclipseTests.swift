import Foundation
import Testing
import Ephemeris
@testable import Sky

/// Solar eclipses from a place against published tables (EclipseWise, NASA's 2027 path table)
/// and, where none is published, against an independent computation (Skyfield, below).
@Suite struct LocalEclipseTests {
    static let engine = TestSky.engine

    static func eclipse(near t: Instant, deltaT: Double? = nil) throws -> SolarEclipse {
        let found = engine.solarEclipses(start: t.addingTT(seconds: -86_400), stop: t.addingTT(seconds: 86_400),
                                         conventions: EclipseConventions(deltaTSeconds: deltaT))
        return try #require(found.first)
    }

    static func text(_ name: String) -> String {
        guard let url = Bundle.module.url(forResource: "Fixtures/eclipses/" + name, withExtension: nil),
              let text = try? String(contentsOf: url, encoding: .utf8) else { fatalError("fixture \(name) missing") }
        return text
    }

    /// EclipseWise's rows: every contact within 5 s, the Sun's altitude within 0.5°.
    @Test func eclipseWise() throws {
        var worst = (time: 0.0, altitude: 0.0), count = 0
        for line in Self.text("eclipsewise-local.txt").split(separator: "\n") where !line.hasPrefix("#") {
            let f = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard f.count == 13 else { continue }
            let observer = TestSky.observer(Double(f[0])!, Double(f[1])!, 0)
            let t = try TimeScale.parse(f[3])
            let local = try #require(try Self.eclipse(near: t).seen(from: observer), "\(line)")
            #expect(local.type.rawValue.prefix(1).uppercased() == f[2], "\(line): \(local.type)")
            let contacts: [(EclipseContact?, String, String)] = [(local.partialBegin, f[3], f[4]), (local.centralBegin, f[5], f[6]),
                                                                 (local.maximum, f[7], f[8]), (local.centralEnd, f[9], f[10]), (local.partialEnd, f[11], f[12])]
            for (c, time, altitude) in contacts where time != "-" {
                let contact = try #require(c, "\(line): no contact for \(time)")
                let dt = abs(contact.instant.seconds(since: try TimeScale.parse(time)))
                let dh = abs(contact.altitudeDeg - Double(altitude)!)
                worst = (max(worst.time, dt), max(worst.altitude, dh)); count += 1
                #expect(dt <= 5, "\(line): \(contact.instant.iso8601) for \(time)")
                #expect(dh <= 0.5, "\(line): altitude \(contact.altitudeDeg) for \(altitude)")
            }
        }
        #expect(count == 22)
        print("EclipseWise local circumstances: \(count) contacts, worst \(worst.time) s, Sun altitude \(worst.altitude) deg")
    }

    static func sexagesimal(_ s: String) -> Double {
        let hemisphere = s.last!
        let parts = s.dropLast().split(separator: "°")
        let v = Double(parts[0])! + Double(parts[1].dropLast())! / 60
        return hemisphere == "S" || hemisphere == "W" ? -v : v
    }

    static func duration(_ s: String) -> Double {
        let p = s.dropLast().split(separator: "m")
        return Double(p[0])! * 60 + Double(p[1])!
    }

    /// NASA's 2027 path table, with its ΔT: each central-line point's maximum at the row's
    /// time within 5 s and its central duration within 2 s; the limit points on our limits.
    @Test func nasaPathTable2027() throws {
        let text = Self.text("nasa-path-2027-08-02.tsv")
        let deltaT = Double(text.split(separator: "\n").first { $0.hasPrefix("# deltaT") }!.split(separator: "\t")[1])!
        let rows = TestSky.table("eclipses/nasa-path-2027-08-02.tsv")
        let day = try TimeScale.utc(year: 2027, month: 8, day: 2)
        let e = try Self.eclipse(near: day.addingTT(seconds: 36_000), deltaT: deltaT)
        var worst = (time: 0.0, duration: 0.0, limitKm: 0.0)
        for row in rows {
            let observer = TestSky.observer(Self.sexagesimal(row["latitude"]!), Self.sexagesimal(row["longitude"]!), 0)
            let hms = row["ut"]!.split(separator: ":").map { Double($0)! }
            let ut = day.adding(seconds: hms[0] * 3600 + hms[1] * 60 + (hms.count > 2 ? hms[2] : 0))
            let local = try #require(e.seen(from: observer), "\(row)")
            if row["kind"] == "limit" {
                // On the limit the place grazes the umbra: its least distance from the axis
                // equals the umbra's radius there.
                let shadow = LocalShadow(e.elements, observer: observer)
                let s = shadow.state(SkyEngine.tdbSeconds(local.maximum.instant))
                let km = abs(s.distance - abs(s.l2)) * SkyConstants.wgs84EquatorialRadiusKm
                worst.limitKm = max(worst.limitKm, km)
                #expect(km <= 1, "\(row): \(km) km from the umbra's edge")
                continue
            }
            let dt = abs(local.maximum.instant.seconds(since: ut))
            let duration = try #require(local.centralDurationSeconds, "\(row)")
            let dd = abs(duration - Self.duration(row["duration"]!))
            worst = (max(worst.time, dt), max(worst.duration, dd), worst.limitKm)
            #expect(dt <= 5, "\(row): maximum \(local.maximum.instant.iso8601)")
            #expect(dd <= 2, "\(row): duration \(duration)")
        }
        print("NASA 2027 path table (ΔT \(deltaT) s): \(rows.count) points, worst maximum \(worst.time) s, central duration \(worst.duration) s, limit points \(worst.limitKm) km from the umbra's edge")
    }

    struct SkyfieldFixture: Decodable {
        struct Contact: Decodable { let jdTT: Double; let utc: String; let sunAltitudeDeg: Double }
        struct Place: Decodable {
            let eclipse: String, place: String, latitudeDeg: Double, longitudeDeg: Double, elevationM: Double
            let type: String, deltaTSeconds: Double
            let partialBegin: Contact, centralBegin: Contact?, maximum: Contact, centralEnd: Contact?, partialEnd: Contact
        }
        let places: [Place]
    }

    /// Places no table publishes, against `scripts/make-eclipse-fixtures.py` (Skyfield's
    /// topocentric Sun and Moon, no Besselian elements), at Skyfield's ΔT: within 5 s and 0.5°.
    @Test func independentComputation() throws {
        let fixture = TestSky.fixture("eclipses/local-skyfield.json", as: SkyfieldFixture.self)
        var worst = (time: 0.0, altitude: 0.0), count = 0
        for p in fixture.places {
            let e = try #require(TestSky.engine.solarEclipse(id: p.eclipse, conventions: EclipseConventions(deltaTSeconds: p.deltaTSeconds)))
            let observer = TestSky.observer(p.latitudeDeg, p.longitudeDeg, p.elevationM)
            let local = try #require(e.seen(from: observer), "\(p.place)")
            #expect(local.type.rawValue == p.type, "\(p.place): \(local.type)")
            for (ours, ref) in [(local.partialBegin, p.partialBegin), (local.maximum, p.maximum), (local.partialEnd, p.partialEnd)]
                + [(local.centralBegin, p.centralBegin), (local.centralEnd, p.centralEnd)].compactMap({ a, b in a.flatMap { x in b.map { (x, $0) } } }) {
                let dt = abs(ours.instant.jdTT - ref.jdTT) * 86_400
                let dh = abs(ours.altitudeDeg - ref.sunAltitudeDeg)
                worst = (max(worst.time, dt), max(worst.altitude, dh)); count += 1
                #expect(dt <= 5, "\(p.place) \(p.eclipse): \(ours.instant.iso8601) for \(ref.utc)")
                #expect(dh <= 0.5, "\(p.place) \(p.eclipse): altitude \(ours.altitudeDeg) for \(ref.sunAltitudeDeg)")
            }
            #expect((local.centralBegin == nil) == (p.centralBegin == nil), "\(p.place)")
        }
        print("Skyfield local circumstances: \(fixture.places.count) places, \(count) contacts, worst \(worst.time) s, Sun altitude \(worst.altitude) deg")
    }
}

/// The Moon's occultations against `scripts/make-eclipse-fixtures.py` (Skyfield's topocentric
/// apparent places from the same DE440 file; stars at the catalogue's J2000 place, as the
/// server): every one found, disappearance and reappearance within 2 s.
@Suite struct OccultationTests {
    struct Fixture: Decodable {
        struct Contact: Decodable { let jdTT: Double; let utc: String }
        struct Row: Decodable {
            let target: String, place: String, latitudeDeg: Double, longitudeDeg: Double, elevationM: Double
            let disappearance: Contact, reappearance: Contact
        }
        let occultations: [Row]
    }

    static let stars: [OccultableStar] = {
        do { return OccultableStar.brightest(of: try StarCatalogue(csv: TestSky.repositoryFile("Resources/stars.csv"))) } catch { fatalError("\(error)") }
    }()

    @Test func againstSkyfield() throws {
        let fixture = TestSky.fixture("eclipses/occultations-skyfield.json", as: Fixture.self)
        var worst = 0.0
        for row in fixture.occultations {
            let observer = TestSky.observer(row.latitudeDeg, row.longitudeDeg, row.elevationM)
            let t = try TimeScale.parse(row.disappearance.utc)
            let found = TestSky.engine.occultations(from: observer, start: t.addingTT(seconds: -86_400), stop: t.addingTT(seconds: 86_400), stars: Self.stars)
            let o = try #require(found.first { $0.target == row.target }, "\(row.target) from \(row.place) not found: \(found.map(\.target))")
            for (ours, ref) in [(o.disappearance.instant, row.disappearance), (o.reappearance.instant, row.reappearance)] {
                let dt = abs(ours.jdTT - ref.jdTT) * 86_400
                worst = max(worst, dt)
                #expect(dt <= 2, "\(row.target) from \(row.place): \(ours.iso8601) for \(ref.utc)")
            }
            #expect(["bright", "dark"].contains(o.disappearance.limb))
        }
        print("occultations vs Skyfield: \(fixture.occultations.count) events, worst contact \(worst) s")
    }
}
