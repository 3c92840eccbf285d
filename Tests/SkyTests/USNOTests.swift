import Foundation
import Testing
import Ephemeris
@testable import Sky

/// `usno-rise-set.json` (scripts/make-usno-fixtures.py): USNO's published rise and set times,
/// rounded to the minute, converted to UT where a table is in a time zone.
struct USNOFixture: Decodable {
    struct Table: Decodable {
        struct Event: Decodable { let kind: String; let utc: String; let table: String? }
        let file: String, body: String, year: Int, lat: Double, lon: Double
        let utcOffsetHours: Double?
        let events: [Event]
        /// The table's days (local where it has a time zone) USNO marks **** and ----.
        let alwaysUp: [String], alwaysDown: [String]
    }
    let tables: [Table]
}

@Suite("Rising and setting against USNO's published tables")
struct USNOTests {
    static let fixture = TestSky.fixture("usno-rise-set.json", as: USNOFixture.self)

    /// Every table and how many risings and settings USNO lists in it, so none is dropped unseen.
    static let expected: [String: Int] = [
        "usno/sun_2019_E000_N60.txt": 730, "usno/sun_2019_E000_N80.html": 208, "usno/sun_2019_W081_N29.html": 730,
        "usno/sun_2019_W150_S60.html": 730, "usno/sun_2019_W150_S80.txt": 210, "usno/sun_2022_E0_N90.html": 2,
        "usno/sun_2022_E30_N89.html": 22, "usno/sun_2022_E45_S88.html": 42, "usno/sun_2023_W112_N36.txt": 730,
        "usno/moon_2019_W081_N29.txt": 705, "usno/moon_2019_E000_N80.html": 208, "usno/moon_2019_W150_S80.html": 204,
        "usno/moon_2022_E140_N85.html": 85, "usno/moon_2023_E000_N70.txt": 362, "usno/moon_2023_E140_N85.html": 80,
        "usno/moon_2023_W112_N36.txt": 706, "usno/moon_2026_E135_N85.html": 91, "usno/moon_2030_E105_N83.html": 145,
        "usno/moon_2034_E130_N80.html": 266,
    ]

    @Test("the fixture holds exactly the tables listed, with USNO's count of events (and of always-up and always-down days)")
    func inventory() {
        #expect(Set(Self.fixture.tables.map(\.file)) == Set(Self.expected.keys))
        for t in Self.fixture.tables { #expect(t.events.count == Self.expected[t.file], "\(t.file)") }
        #expect(Self.expected.values.reduce(0, +) == 6_256)
        #expect(Self.fixture.tables.map { $0.alwaysUp.count + $0.alwaysDown.count }.reduce(0, +) == 3_713)
    }

    /// The table's year in its own time: local midnight of 1 January to the next, in UT.
    static func span(_ t: USNOFixture.Table) throws -> (Instant, Instant) {
        let offset = (t.utcOffsetHours ?? 0) * 3_600
        return (try TimeScale.utc(year: t.year, month: 1, day: 1).adding(seconds: offset),
                try TimeScale.utc(year: t.year + 1, month: 1, day: 1).adding(seconds: offset))
    }

    /// USNO rounds to the minute, so an exact time is up to 30 s from its entry; the issue's bound
    /// is 1 minute. Every USNO event must have one of ours within it, and we may have no other.
    @Test("every USNO rise and set within 1 minute, none missing, none extra", arguments: expected.keys.sorted())
    func table(file: String) throws {
        let t = try #require(Self.fixture.tables.first { $0.file == file })
        let body = try #require(BodyID(rawValue: t.body))
        let (start, stop) = try Self.span(t)
        let ours = TestSky.engine.events([body], kinds: [.rise, .set], from: TestSky.observer(t.lat, t.lon, 0), start: start, stop: stop)
        var offsets: [Double] = []
        var used = Set<Int>()
        for e in t.events {
            let when = try TimeScale.parse(e.utc)
            let kind = try #require(SkyEventKind(rawValue: e.kind))
            guard let k = TestSky.nearest(kind, in: ours, to: when, excluding: used) else { Issue.record("\(file): no \(e.kind) near \(e.utc)"); continue }
            let d = ours[k].instant.seconds(since: when)
            if abs(d) > 60 { Issue.record("\(file): \(e.kind) \(e.utc) (table \(e.table ?? "")) off by \(d) s") }
            offsets.append(d)
            used.insert(k)
        }
        for k in ours.indices where !used.contains(k) { Issue.record("\(file): extra \(ours[k].kind) at \(ours[k].instant.iso8601)") }
        let sorted = offsets.map(abs).sorted()
        let mean = offsets.reduce(0, +) / Double(max(1, offsets.count))
        // Our UTC keeps the leap seconds there are (none after 2017), so beyond the IERS table's
        // predictions UT1 − UTC is ΔT's drift; USNO's "Universal Time" is UT1 (ΔT predicted when it
        // made the table). A clock offset moves every event by the same seconds: the mean shows it.
        let ut1MinusUTC = TestSky.engine.time(start.adding(seconds: stop.seconds(since: start) / 2)).ut1MinusUTCSeconds
        print(String(format: "USNO %@: %d events, %d matched; |ours − USNO| median %.1f s, max %.1f s, %d beyond 30 s; mean signed %+.1f s (UT1 − UTC %+.1f s)",
                     file, t.events.count, used.count, sorted.isEmpty ? 0 : sorted[sorted.count / 2], sorted.last ?? 0,
                     sorted.filter { $0 > 30 }.count, mean, ut1MinusUTC))
        #expect(used.count == t.events.count && ours.count == t.events.count)
        #expect((sorted.last ?? 0) <= seconds(60))
    }

    /// On a day USNO marks above (****) or below (----) the horizon throughout, the server's answer
    /// for that day (its local midnight to the next, less the 30 s USNO's rounding blurs at each end) has no rising or setting and says the same:
    /// always-up or polar-day, always-down or polar-night, dated at the upper transit. A day
    /// without an upper transit (the Moon skips one a month) has nothing to date it at.
    @Test("USNO's always-up and always-down days are reported as such, with no rising or setting", arguments: expected.keys.sorted())
    func quietDays(file: String) throws {
        let t = try #require(Self.fixture.tables.first { $0.file == file })
        let body = try #require(BodyID(rawValue: t.body))
        let observer = TestSky.observer(t.lat, t.lon, 0)
        let offset = (t.utcOffsetHours ?? 0) * 3_600
        var reported = 0, noTransit = 0
        for (days, up) in [(t.alwaysUp, true), (t.alwaysDown, false)] {
            for day in days {
                // USNO's days end at a rounded minute: an event 2 s before midnight is its next day's 00:00.
                let start = try TimeScale.parse(day).adding(seconds: offset + 30)
                let events = TestSky.engine.events([body], kinds: [.rise, .set, .transit, .alwaysUp, .alwaysDown, .polarDay, .polarNight],
                                                   from: observer, start: start, stop: start.adding(seconds: 86_400 - 60))
                let turns = events.filter { [.alwaysUp, .alwaysDown, .polarDay, .polarNight].contains($0.kind) }
                let right: Set<SkyEventKind> = up ? [.alwaysUp, .polarDay] : [.alwaysDown, .polarNight]
                for e in events where e.kind == .rise || e.kind == .set { Issue.record("\(file): \(e.kind) at \(e.instant.iso8601) on \(day), which USNO marks \(up ? "****" : "----")") }
                for e in turns where !right.contains(e.kind) { Issue.record("\(file): \(e.kind) on \(day), which USNO marks \(up ? "****" : "----")") }
                if events.contains(where: { $0.kind == .transit }) {
                    if turns.isEmpty { Issue.record("\(file): nothing reported on \(day), which USNO marks \(up ? "****" : "----")") } else { reported += 1 }
                } else {
                    noTransit += 1
                }
            }
        }
        print("USNO \(file): \(t.alwaysUp.count) always-up, \(t.alwaysDown.count) always-down days; \(reported) reported as such, \(noTransit) without an upper transit")
        #expect(reported + noTransit == t.alwaysUp.count + t.alwaysDown.count)
    }

    /// `usno/api-rstt-oneday-sun-2026-09-27.tsv`: 19 days of USNO's API for the Sun (1900–2100;
    /// the tropics, both sides of the date line, and the grazing latitudes 65.72°, 65.735° and
    /// 65.74° N at the 2026 solstice: by Horizons' elevations, the Sun's centre dips 3–7″ below
    /// USNO's horizon (34′ and its semidiameter, 49.7′) at 65.735° and stays 11–15″ above it at
    /// 65.74°: rise and set on one, midnight Sun on the other).
    static let apiDays = TestSky.table("usno/api-rstt-oneday-sun-2026-09-27.tsv")

    /// USNO's times are UT (UT1, on its own ΔT beyond the IERS predictions), ours UTC: they are
    /// compared in UT1 (ours plus our UT1 − UTC), and in UTC where that is under 20 s (to 2050).
    @Test("USNO's API days: rise, transit and set within 1 minute; no-event days are polar day or night")
    func apiDays() throws {
        var worst = 0.0, worstUTC = 0.0, timed = 0, quiet = 0
        for row in Self.apiDays {
            let id = row["case_id"] ?? "", offset = try #require(Double(row["utc_offset_minutes"] ?? "")) * 60
            let observer = TestSky.observer(try #require(Double(row["latitude_deg"] ?? "")), try #require(Double(row["longitude_deg"] ?? "")), 0)
            let day = try TimeScale.parse(row["local_date"] ?? "").adding(seconds: -offset)
            let events = TestSky.engine.events([.sun], kinds: [.rise, .set, .transit, .polarDay, .polarNight], from: observer,
                                               start: day.adding(seconds: -3 * 3_600), stop: day.adding(seconds: 27 * 3_600))
            let inDay = events.filter { $0.instant.seconds(since: day) >= 0 && $0.instant.seconds(since: day) < 86_400 }
            for (column, kind) in [("rise_utc", SkyEventKind.rise), ("transit_utc", .transit), ("set_utc", .set)] {
                let value = row[column] ?? ""
                if value == "no_event" {
                    quiet += 1
                    #expect(!inDay.contains { $0.kind == kind }, "\(id): \(kind) where USNO has none")
                    #expect(inDay.contains { $0.kind == .polarDay || $0.kind == .polarNight }, "\(id): no polar day or night reported")
                    continue
                }
                guard value != "unreported" else { continue }
                let usno = try TimeScale.parse(value)
                let ours = events[try #require(TestSky.nearest(kind, in: events, to: usno), "\(id): no \(kind)")]
                let utc = ours.instant.seconds(since: usno)
                let ut1 = utc + TestSky.engine.time(ours.instant).ut1MinusUTCSeconds
                #expect(abs(ut1) <= 60, "\(id): \(kind) \(value): ours \(ours.instant.iso8601), \(ut1) s in UT1")
                worst = max(worst, abs(ut1))
                if abs(ut1 - utc) < 20 {
                    #expect(abs(utc) <= 60, "\(id): \(kind) \(value): ours \(ours.instant.iso8601)")
                    worstUTC = max(worstUTC, abs(utc))
                }
                timed += 1
            }
        }
        print(String(format: "USNO API: %d days, %d timed events, worst %.1f s in UT1 (%.1f s in UTC to 2050), %d no-event rise/set", Self.apiDays.count, timed, worst, worstUTC, quiet))
        #expect(Self.apiDays.count == 19 && timed == 50 && quiet == 6)
    }

    /// `usno/api-rstt-oneday-2026-five-places.tsv`: USNO's "Complete Sun and Moon Data for One
    /// Day" in UT for Belgrade, Tromsø, Quito, Sydney and Reykjavik on six days of 2026: the Sun's
    /// and the Moon's rises, sets and upper transits, civil twilight, and USNO's "continuously
    /// above/below" statements, one phenomenon a row.
    static let oneDay = TestSky.table("usno/api-rstt-oneday-2026-five-places.tsv")

    /// USNO lists what happens in the UT day; so must we. Its upper transit is listed only when
    /// the body is above the horizon then: ours is given with its altitude, so a transit below the
    /// horizon is ours alone. Lower transits are not an event of ours and are only counted.
    @Test("USNO's one-day answers: Sun and Moon rise, set, transit and civil twilight within 1 minute; none missing or extra")
    func oneDayAnswers() throws {
        let kinds: [String: SkyEventKind] = ["Rise": .rise, "Set": .set, "Upper Transit": .transit,
                                             "Begin Civil Twilight": .civilDawn, "End Civil Twilight": .civilDusk]
        let days = Dictionary(grouping: Self.oneDay) { [$0["place"] ?? "", $0["date"] ?? "", $0["body"] ?? ""] }
        var offsets: [Double] = [], statements = 0, lowerTransits = 0
        for (key, rows) in days.sorted(by: { $0.key.joined() < $1.key.joined() }) {
            let first = try #require(rows.first)
            let body = try #require(BodyID(rawValue: key[2]))
            let observer = TestSky.observer(try #require(Double(first["latitude_deg"] ?? "")), try #require(Double(first["longitude_deg"] ?? "")), 0)
            let day = try TimeScale.parse(key[1])
            let ours = TestSky.engine.events([body], kinds: Set(kinds.values).union([.polarDay, .polarNight, .alwaysUp, .alwaysDown]),
                                             from: observer, start: day, stop: day.adding(seconds: 86_400 - 0.001))
            var used = Set<Int>()
            for row in rows {
                let phen = row["phen"] ?? "", label = "\(key.joined(separator: " ")) \(phen)"
                if let kind = kinds[phen] {
                    let usno = try TimeScale.parse(key[1] + "T" + (row["time_ut"] ?? "") + ":00Z")
                    let k = try #require(TestSky.nearest(kind, in: ours, to: usno, excluding: used), "\(label): none of ours")
                    let d = ours[k].instant.seconds(since: usno)
                    #expect(abs(d) <= 60, "\(label) \(row["time_ut"] ?? ""): ours \(ours[k].instant.iso8601)")
                    offsets.append(d)
                    used.insert(k)
                } else if phen == "Lower Transit" {
                    lowerTransits += 1
                } else {
                    // "Object continuously above/below the Horizon" or "… the Twilight Limit".
                    statements += 1
                    let crossings: Set<SkyEventKind> = phen.hasSuffix("Horizon") ? [.rise, .set] : [.civilDawn, .civilDusk]
                    #expect(!ours.contains { crossings.contains($0.kind) }, "\(label): ours has a crossing")
                    if phen.hasSuffix("Horizon") {
                        let right: Set<SkyEventKind> = phen.contains("above") ? [.alwaysUp, .polarDay] : [.alwaysDown, .polarNight]
                        for (k, e) in ours.enumerated() where [.alwaysUp, .alwaysDown, .polarDay, .polarNight].contains(e.kind) {
                            #expect(right.contains(e.kind), "\(label): ours says \(e.kind)")
                            used.insert(k)
                        }
                    }
                }
            }
            for (k, e) in ours.enumerated() where !used.contains(k) && !(e.kind == .transit && e.altitudeDeg < 0) {
                Issue.record("\(key.joined(separator: " ")): ours has \(e.kind) at \(e.instant.iso8601), USNO nothing")
            }
        }
        let sorted = offsets.map(abs).sorted()
        print(String(format: "USNO one-day answers: %d days × bodies, %d timed events matched, median %.1f s, worst %.1f s, %d beyond 30 s; %d continuous statements, %d lower transits (not compared)",
                     days.count, sorted.count, sorted.isEmpty ? 0 : sorted[sorted.count / 2], sorted.last ?? 0, sorted.filter { $0 > 30 }.count, statements, lowerTransits))
        #expect(days.count == 60 && sorted.count == 214 && statements == 10 && lowerTransits == 4)
    }
}
