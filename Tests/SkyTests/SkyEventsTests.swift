import Foundation
import Testing
import Ephemeris
@testable import Sky

/// `sky-events.json`: Astronomy Engine's rise, set, transit and twilight times. At Quito
/// (2,850 m) its rising and setting are 36 s from ours: Astronomy Engine scales the horizon's 34′
/// of refraction by the air's density at the observer's height, USNO (and this server) does not.
struct SkyEventsFixture: Decodable {
    struct Event: Decodable { let body: String, kind: String, utc: String }
    struct Place: Decodable {
        let place: String, lat: Double, lon: Double, elevationM: Double, start: String, days: Double
        let events: [Event]
    }
    let places: [Place]
}

@Suite("Rising, setting, transit and twilight against Astronomy Engine")
struct SkyEventsTests {
    static let fixture = TestSky.fixture("sky-events.json", as: SkyEventsFixture.self)
    static let kinds = Set(SkyEventKind.allCases)

    static func run(_ p: SkyEventsFixture.Place) throws -> [SkyEvent] {
        let start = try TimeScale.parse(p.start)
        let stop = start.adding(seconds: p.days * 86_400)
        return TestSky.engine.events([.sun, .moon], kinds: kinds, from: TestSky.observer(p.lat, p.lon, p.elevationM), start: start, stop: stop)
    }

    @Test("every event within 1 minute, none missing, none extra", arguments: ["london", "sydney", "tromso", "quito"])
    func matches(place: String) throws {
        let p = try #require(Self.fixture.places.first { $0.place == place })
        let ours = try Self.run(p)
        let start = try TimeScale.parse(p.start)
        var worst = 0.0, matched = 0
        var used = Set<Int>()
        for e in p.events {
            let t = try TimeScale.parse(e.utc)
            let candidates = ours.indices.filter { ours[$0].id == e.body && ours[$0].kind.rawValue == e.kind }
            guard let k = candidates.min(by: { abs(ours[$0].instant.seconds(since: t)) < abs(ours[$1].instant.seconds(since: t)) }) else {
                Issue.record("\(place): no \(e.body) \(e.kind) near \(e.utc)"); continue
            }
            let d = abs(ours[k].instant.seconds(since: t))
            if d > 60 { Issue.record("\(place): \(e.body) \(e.kind) \(e.utc) off by \(d) s") }
            worst = max(worst, d)
            used.insert(k)
            matched += 1
        }
        let extras = ours.indices.filter { k in
            let kind = ours[k].kind
            // The fixture lists these kinds; events within a minute of the span's ends may fall on either side.
            guard kind != .polarDay, kind != .polarNight, kind != .alwaysUp, kind != .alwaysDown else { return false }
            let x = ours[k].instant.seconds(since: start)
            return !used.contains(k) && x > 60 && x < p.days * 86_400 - 60
        }
        for k in extras { Issue.record("\(place): extra \(ours[k].body) \(ours[k].kind) at \(ours[k].instant.iso8601)") }
        print("events vs Astronomy Engine at \(place): \(matched) of \(p.events.count) matched, max \(worst) s")
        #expect(matched == p.events.count)
        #expect(p.events.count > 100)
        #expect(worst <= 60)
    }

    @Test("Tromsø: polar night in December and midnight Sun in June, without sunrises then")
    func polar() throws {
        let p = try #require(Self.fixture.places.first { $0.place == "tromso" })
        let ours = try Self.run(p)
        let nights = ours.filter { $0.kind == .polarNight }
        let days = ours.filter { $0.kind == .polarDay }
        print("Tromsø 2025: \(nights.count) polar-night and \(days.count) polar-day turns")
        // Tromsø: polar night about 27 Nov - 15 Jan, midnight Sun about 20 May - 22 July.
        #expect((40...60).contains(nights.count))
        #expect((55...70).contains(days.count))
        #expect(nights.allSatisfy { [11, 12, 1].contains($0.instant.utc.month) })
        #expect(days.allSatisfy { [5, 6, 7].contains($0.instant.utc.month) })
        let december = ours.filter { $0.body == .sun && $0.kind == .rise && $0.instant.utc.month == 12 }
        #expect(december.isEmpty)
        #expect(nights.allSatisfy { $0.altitudeDeg < 0 } && days.allSatisfy { $0.altitudeDeg > 0 })
    }

    @Test("an empty or reversed span gives no events")
    func empty() throws {
        let t = try TimeScale.parse("2025-01-01")
        #expect(TestSky.engine.events([.sun], kinds: Self.kinds, from: TestSky.observer(0, 0, 0), start: t, stop: t).isEmpty)
    }
}

@Suite("The Moon's brief risings and settings near the poles")
struct BriefMoonEventsTests {
    /// Astronomy Engine 2.1.19's `SearchRiseSet` (Moon, sea level): near a pole the Moon's
    /// declination can carry it across the horizon and back between two culminations. At 85° N on
    /// 2026-04-28 it is up for 47 minutes, at 88° N on 2026-11-04 down for 4 h 22 min; an hourly
    /// scan of the altitude's turns finds both, the culminations alone did not.
    @Test("a brief rising and setting at 85° N and 88° N is found, within 1 minute of Astronomy Engine",
          arguments: [(85.0, "rise", "2026-04-28T20:43:47Z", "set", "2026-04-28T21:31:07Z"),
                      (88.0, "set", "2026-11-04T20:25:12Z", "rise", "2026-11-05T00:47:07Z")])
    func excursion(latitude: Double, firstKind: String, first: String, secondKind: String, second: String) throws {
        let start = try TimeScale.parse("2026-01-01"), stop = try TimeScale.parse("2027-01-01")
        let ours = TestSky.engine.events([.moon], kinds: [.rise, .set], from: TestSky.observer(latitude, 0, 0), start: start, stop: stop)
        for (kind, utc) in [(firstKind, first), (secondKind, second)] {
            let t = try TimeScale.parse(utc)
            let near = ours.filter { $0.kind.rawValue == kind }.map { abs($0.instant.seconds(since: t)) }.min() ?? .infinity
            #expect(near <= seconds(60), "\(latitude)°: \(kind) at \(utc): nearest of ours \(near) s away")
        }
    }

    /// Astronomy Engine's count over 2025–2027 at 85° N, 0°: 260 risings and settings (every one
    /// of ours within 13.1 s of its).
    @Test("as many Moon risings and settings over three years at 85° N as Astronomy Engine")
    func count() throws {
        let start = try TimeScale.parse("2025-01-01"), stop = start.adding(seconds: 1_095 * 86_400)
        let ours = TestSky.engine.events([.moon], kinds: [.rise, .set], from: TestSky.observer(85, 0, 0), start: start, stop: stop)
        #expect(ours.count == 260)
    }
}

@Suite("Rising and setting at the poles")
struct PolarEventsTests {
    @Test("the Sun rises once and sets once a year at each pole; every other turn is polar day or night", arguments: [90.0, -90.0])
    func pole(latitude: Double) throws {
        let start = try TimeScale.parse("2025-01-01"), stop = try TimeScale.parse("2026-01-01")
        let events = TestSky.engine.events([.sun], kinds: [.rise, .set, .polarDay, .polarNight], from: TestSky.observer(latitude, 0, 0), start: start, stop: stop)
        let rises = events.filter { $0.kind == .rise }, sets = events.filter { $0.kind == .set }
        #expect(rises.count == 1 && sets.count == 1)
        // North: sunrise about 18 March, sunset about 25 September (upper limb, 34′); south: the reverse.
        let riseMonth = rises.first?.instant.utc.month, setMonth = sets.first?.instant.utc.month
        #expect(latitude > 0 ? (riseMonth == 3 && setMonth == 9) : (riseMonth == 9 && setMonth == 3))
        let turns = events.filter { $0.kind == .polarDay || $0.kind == .polarNight }.count
        #expect((360...366).contains(turns))
    }
}
