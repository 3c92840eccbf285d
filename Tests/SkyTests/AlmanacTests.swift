import Foundation
import Testing
import Ephemeris
@testable import Sky

/// `almanac.json`: Skyfield's Moon phases and seasons; lunar apsides and the Earth's perihelion
/// and aphelion as extrema of DE440 distances found with Skyfield. Compared in TT: before 1972
/// Skyfield reads UTC as TAI − 10 s where the server reads it as UT (13 s apart in 1950).
struct AlmanacFixture: Decodable {
    struct Phase: Decodable { let quarter: Int, utc: String, jdTT: Double }
    struct Season: Decodable { let year: Int, season: Int, utc: String, jdTT: Double }
    struct Apsis: Decodable { let kind: String, utc: String, jdTT: Double, distanceKm: Double }
    struct EarthApsis: Decodable { let year: Int, kind: String, utc: String, jdTT: Double, distanceKm: Double }
    let phases: [Phase]
    let seasons: [Season]
    let apsides: [Apsis]
    let earth: [EarthApsis]
}

@Suite("Moon phases, apsides and seasons against Skyfield and DE440")
struct AlmanacTests {
    static let fixture = TestSky.fixture("almanac.json", as: AlmanacFixture.self)

    @Test("quarter phases within 1 minute")
    func phases() throws {
        var ours: [MoonPhaseEvent] = []
        for (a, b) in [("1990-01-01", "1993-01-01"), ("2025-01-01", "2028-01-01")] {
            ours += TestSky.engine.moonPhases(start: try TimeScale.parse(a), stop: try TimeScale.parse(b))
        }
        #expect(ours.count == Self.fixture.phases.count)
        var worst = 0.0
        for (o, f) in zip(ours, Self.fixture.phases) {
            #expect(o.quarter == f.quarter)
            worst = max(worst, ttSeconds(o.instant, f.jdTT))
        }
        print("Moon phases vs Skyfield: \(Self.fixture.phases.count) quarters, max \(worst) s")
        #expect(Self.fixture.phases.count > 290)
        #expect(worst < 60)
    }

    @Test("equinoxes, solstices within 1 minute; perihelion and aphelion within 5 minutes and 1 km of DE440's extrema")
    func seasons() throws {
        var worst = 0.0, worstApsis = 0.0, worstKm = 0.0, count = 0
        for year in Set(Self.fixture.seasons.map(\.year)).sorted() {
            let ours = try TestSky.engine.seasons(year: year)
            let equinoxes = ours.filter { SeasonEvent.seasonNames.contains($0.kind) }
            let expected = Self.fixture.seasons.filter { $0.year == year }
            #expect(equinoxes.count == expected.count)
            for (o, f) in zip(equinoxes, expected) {
                #expect(o.kind == SeasonEvent.seasonNames[f.season])
                worst = max(worst, ttSeconds(o.instant, f.jdTT))
                count += 1
            }
            let apsides = ours.filter { $0.distanceKm != nil }
            let expectedApsides = Self.fixture.earth.filter { $0.year == year }
            #expect(apsides.count == expectedApsides.count)
            for (o, f) in zip(apsides, expectedApsides) {
                #expect(o.kind == f.kind)
                worstApsis = max(worstApsis, ttSeconds(o.instant, f.jdTT))
                worstKm = max(worstKm, abs((o.distanceKm ?? 0) - f.distanceKm))
                count += 1
            }
        }
        print("seasons vs Skyfield: \(count) events, equinoxes/solstices max \(worst) s, perihelion/aphelion max \(worstApsis) s, \(worstKm) km")
        #expect(count == Self.fixture.seasons.count + Self.fixture.earth.count)
        #expect(count >= 24)
        #expect(worst < 60)
        #expect(worstApsis < 300)
        #expect(worstKm < 1)
    }

    @Test("lunar perigees and apogees within 5 minutes and 20 km of DE440's extrema")
    func apsides() throws {
        var ours: [Apsis] = []
        for (a, b) in [("2025-01-01", "2026-01-01"), ("1955-01-01", "1955-07-01")] {
            ours += TestSky.engine.moonApsides(start: try TimeScale.parse(a), stop: try TimeScale.parse(b))
        }
        #expect(ours.count == Self.fixture.apsides.count)
        var worst = 0.0, worstKm = 0.0
        for (o, f) in zip(ours, Self.fixture.apsides) {
            #expect(o.kind == f.kind)
            worst = max(worst, ttSeconds(o.instant, f.jdTT))
            worstKm = max(worstKm, abs(o.distanceKm - f.distanceKm))
        }
        print("lunar apsides vs DE440 extrema: \(Self.fixture.apsides.count), max \(worst) s, \(worstKm) km")
        #expect(Self.fixture.apsides.count > 30)
        #expect(worst < 300)
        #expect(worstKm < 20)
    }

    @Test("the Moon's state: full near the fixture's full Moon, age counts from the new Moon")
    func moonState() throws {
        let full = try #require(Self.fixture.phases.first { $0.quarter == 2 && $0.utc.hasPrefix("2025") })
        let s = TestSky.engine.moonState(at: try TimeScale.parse(full.utc))
        #expect(s.name == "Full Moon")
        #expect(s.illuminatedFraction > 0.98)
        #expect(abs(s.longitudeFromSunDeg - 180) < 0.01)
        #expect((13...16.5).contains(s.ageDays))
    }
}

/// |TT difference| in seconds between an instant and a TT Julian date.
func ttSeconds(_ t: Instant, _ jdTT: Double) -> Double {
    abs(((t.ttWhole - jdTT) + t.ttFraction) * 86_400)
}
