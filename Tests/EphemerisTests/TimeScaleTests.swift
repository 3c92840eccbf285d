import Testing
@testable import Ephemeris

/// Time tolerances in named units.
func seconds(_ s: Double) -> Double { s / Constants.secondsPerDay }

@Suite("TimeScale")
struct TimeScaleTests {
    @Test("ISO 8601 UTC → TT and TDB match the reference for every case")
    func referenceCases() throws {
        for c in ReferenceFixture.shared.cases {
            let t = try TimeScale.parse(c.utc)
            #expect(abs(t.jdUTC - c.jd_utc) < seconds(0.001), "\(c.utc): jdUTC")
            // From 1972 TT − UTC is exact (leap seconds); before it both sides read the date as
            // UT, ours with ΔT taken at mid-month, from 1962 the IERS's measured ΔT (the fixture
            // has Stephenson, Morrison & Hohenkerk's splines there: the shift is known).
            let bound = c.jd_utc >= TimeScale.jdLeapSecondEra ? seconds(0.001) : seconds(0.06)
            let shift = seconds(ReferenceFixture.measuredMinusSplineDeltaT[c.utc] ?? 0)
            #expect(abs(t.jdTT - c.jd_tt - shift) < bound, "\(c.utc): jdTT off by \((t.jdTT - c.jd_tt - shift) * 86400) s")
            #expect(abs((t.jdTDB - t.jdTT) - (c.jd_tdb - c.jd_tt)) < seconds(0.0001), "\(c.utc): TDB − TT")
        }
    }

    @Test("J2000.0 is 2000-01-01T11:58:55.816Z")
    func j2000() throws {
        let t = try TimeScale.parse("2000-01-01T11:58:55.816Z")
        #expect(abs(t.jdTT - Constants.jdJ2000) < seconds(0.0005))
        #expect(t.ttMinusUTCSeconds == 32 + 32.184)
    }

    static let shapeCases: [(String, Double)] = [
        ("2026-11-22T00:00:00Z", 2_461_366.5),
        ("2026-11-22", 2_461_366.5),
        ("2026-11-22T00:00Z", 2_461_366.5),
        ("2026-11-22T06:00:00.5Z", 2_461_366.75 + 0.5 / 86_400.0),
        ("2026-11-22t06:00:00.5z", 2_461_366.75 + 0.5 / 86_400.0),
        ("2026-11-22T08:00:00+02:00", 2_461_366.75),
        ("2026-11-21T22:30:00-0130", 2_461_366.5),
        ("2026-11-22T00:00:00", 2_461_366.5),
        ("jd:2461366.5", 2_461_366.5),
        ("jd:2461366.75", 2_461_366.75),
    ]

    @Test("the accepted shapes", arguments: shapeCases)
    func shapes(input: String, jdUTC: Double) throws {
        let t = try TimeScale.parse(input)
        #expect(abs(t.jdUTC - jdUTC) < seconds(0.001), "\(input)")
    }

    @Test("the echo keeps fractional seconds and normalises offsets")
    func echo() throws {
        #expect(try TimeScale.parse("2026-11-22").iso8601 == "2026-11-22T00:00:00Z")
        #expect(try TimeScale.parse("2026-11-22T10:11:12.250Z").iso8601 == "2026-11-22T10:11:12.250Z")
        #expect(try TimeScale.parse("2026-11-22T10:11:12.000123Z").iso8601 == "2026-11-22T10:11:12.000123Z")
        #expect(try TimeScale.parse("2026-11-23T01:00:00+02:00").iso8601 == "2026-11-22T23:00:00Z")
        #expect(try TimeScale.parse("jd:2461366.5").iso8601 == "2026-11-22T00:00:00Z")
        #expect(try TimeScale.parse("-0500-03-01").iso8601 == "-0500-03-01T00:00:00Z")
    }

    @Test("now reads the injected clock")
    func now() throws {
        let t = try TimeScale.parse("now", now: { 1_795_305_600 }) // 2026-11-22T00:00:00Z
        #expect(t.iso8601 == "2026-11-22T00:00:00Z")
        #expect(throws: TimeError.self) { try TimeScale.parse("now") }
    }

    @Test("leap seconds: 23:59:60 exists only on a leap-second day, and TT runs on through it")
    func leapSecond() throws {
        let before = try TimeScale.parse("2016-12-31T23:59:59Z")
        let leap = try TimeScale.parse("2016-12-31T23:59:60Z")
        let after = try TimeScale.parse("2017-01-01T00:00:00Z")
        #expect(abs((leap.jdTT - before.jdTT) - seconds(1)) < seconds(0.001))
        #expect(abs((after.jdTT - leap.jdTT) - seconds(1)) < seconds(0.001))
        #expect(after.ttMinusUTCSeconds == 37 + 32.184)
        #expect(before.ttMinusUTCSeconds == 36 + 32.184)
        #expect(throws: TimeError.self) { try TimeScale.parse("2016-12-30T23:59:60Z") }
        #expect(throws: TimeError.self) { try TimeScale.parse("2016-12-31T23:58:60Z") }
    }

    @Test("TAI − UTC: 10 s in 1972, 37 s from 2017 on (none announced since)")
    func leapTable() {
        #expect(TimeScale.taiMinusUTC(jdUTCMidnight: 2_441_317.5) == 10)
        #expect(TimeScale.taiMinusUTC(jdUTCMidnight: 2_441_317.4) == nil)
        #expect(TimeScale.taiMinusUTC(jdUTCMidnight: 2_457_754.5) == 37)
        #expect(TimeScale.taiMinusUTC(jdUTCMidnight: 2_457_753.5) == 36)
        #expect(TimeScale.taiMinusUTC(jdUTCMidnight: 2_500_000.5) == 37)
        // Strictly increasing by one second each step.
        for (a, b) in zip(TimeScale.leapSeconds, TimeScale.leapSeconds.dropFirst()) {
            #expect(b.jdUTC > a.jdUTC)
            #expect(b.taiMinusUTC == a.taiMinusUTC + 1)
        }
    }

    @Test("ΔT follows Stephenson, Morrison & Hohenkerk before 1962, the IERS C04 values to 1973, and is continuous")
    func deltaT() {
        // Skyfield 1.55's ts.delta_t at these Julian years (TT), from the same Table S15.2020.
        for (year, skyfield) in [(1900.0, -1.977), (1930.0, 24.418), (1955.0, 30.409185), (1000.0, 1650.393), (-500.0, 16939.625881)] {
            #expect(abs(TimeScale.deltaT(julianYear: year) - skyfield) < 0.01, "ΔT(\(year)) = \(TimeScale.deltaT(julianYear: year))")
        }
        // 1969.5 (MJD 40404.375): IERS EOP 20 C04 UT1 − UTC +0.00305 s at 1969-07-02 0h with TAI − UTC
        // 7.52575 s (the 1968 offset and its drift): ΔT 39.7067 s then, 39.7089 s a day later.
        #expect(abs(TimeScale.deltaT(julianYear: 1969.5) - 39.7075) < 0.001, "ΔT(1969.5) = \(TimeScale.deltaT(julianYear: 1969.5))")
        #expect(abs(TimeScale.deltaT(julianYear: TimeScale.deltaTSplinesEndYear) - TimeScale.deltaTAtSplinesEnd) < 1e-9)
        // The splines' knots, the bridge and the parabola join continuously (within a few ms).
        for y in TimeScale.deltaTSplines.map(\.from) + [TimeScale.deltaTSplines[0].from] {
            let jump = abs(TimeScale.deltaT(julianYear: y - 1e-9) - TimeScale.deltaT(julianYear: y))
            #expect(jump < 0.01, "ΔT jumps \(jump) s at \(y)")
        }
        // Espenak & Meeus after the join (the future), its pieces within a few seconds.
        #expect(abs(TimeScale.deltaT(julianYear: 2000) - 63.86) < 0.01)
        for y in [1986.0, 2005, 2050, 2150] {
            let jump = abs(TimeScale.deltaT(julianYear: y - 1e-9) - TimeScale.deltaT(julianYear: y))
            #expect(jump < 5, "ΔT jumps \(jump) s at \(y)")
        }
        // Before 1972 TT − UTC is ΔT; the 1972 leap-second start joins it within a second.
        let last = try? TimeScale.parse("1971-12-31T23:59:59Z")
        let first = try? TimeScale.parse("1972-01-01T00:00:00Z")
        if let last, let first {
            #expect(abs((first.jdTT - last.jdTT) - seconds(1)) < seconds(1))
        }
    }

    @Test("the range is years −3000…3000, edges included")
    func range() throws {
        _ = try TimeScale.parse("-3000-01-01")
        _ = try TimeScale.parse("3000-12-31T23:59:59Z")
        #expect(throws: TimeError.self) { try TimeScale.parse("3001-01-01") }
        #expect(throws: TimeError.self) { try TimeScale.parse("-3001-12-31") }
        #expect(throws: TimeError.self) { try TimeScale.parse("jd:1e9") }
        #expect(throws: TimeError.self) { try TimeScale.parse("jd:-1") }
        #expect(throws: TimeError.self) { try TimeScale.utc(julianDay: .infinity) }
        #expect(throws: TimeError.self) { try TimeScale.utc(julianDay: .nan) }
    }

    static let badInputs: [String] = [
        "", "garbage", "2026", "2026-11", "2026-1-22", "26-11-22", "2026-13-01", "2026-02-29",
        "2026-02-30", "2026-11-22T24:00:00Z", "2026-11-22T12:60:00Z", "2026-11-22T12:00:61Z",
        "2026-11-22T12:00:00ZZ", "2026-11-22T12:00:00.Z", "2026-11-22T12:00:00.1234567890Z",
        "2026-11-22T12:00:00+25:00", "jd:", "jd:abc", "jd:1e400", "jd:nan", "jd:inf", "NOW",
        "2026-11-22T12:00:00Z ", " 2026-11-22", "2026-11-22X", "12026-11-22", "2026-11-22\u{0}",
        String(repeating: "9", count: 10_000),
    ]

    @Test("bad input is a typed error naming the value and what is accepted", arguments: badInputs)
    func badInput(input: String) {
        do {
            _ = try TimeScale.parse(input)
            Issue.record("\"\(input)\" was accepted")
        } catch {
            let message = error.description
            #expect(message.contains("accepted"), "\(message)")
        }
    }

    @Test("adding seconds keeps TT continuous across a leap second")
    func adding() throws {
        let t = try TimeScale.parse("2016-12-31T23:59:30Z")
        let later = t.adding(seconds: 60)
        #expect(abs((later.jdTT - t.jdTT) - seconds(60)) < seconds(1.001))
    }

    @Test("calendar ↔ Julian day round trip over the whole range")
    func calendarRoundTrip() {
        var jd = CivilDateTime.julianDayNumberAtMidnight(year: -3000, month: 1, day: 1)
        let end = CivilDateTime.julianDayNumberAtMidnight(year: 3001, month: 1, day: 1)
        while jd < end {
            let c = CivilDateTime(julianDay: jd + 0.25)
            #expect(abs(c.julianDay - (jd + 0.25)) < seconds(0.001))
            jd += 997.3
        }
        #expect(CivilDateTime.julianDayNumberAtMidnight(year: 2000, month: 1, day: 1) == 2_451_544.5)
        #expect(CivilDateTime.julianDayNumberAtMidnight(year: 1582, month: 10, day: 15) == 2_299_160.5)
    }
}

@Suite("Instant arithmetic across a leap second")
struct InstantArithmeticTests {
    @Test("addingTT counts elapsed TT: two days across 2016-12-31's leap second end at 23:59:59 UTC")
    func addingTT() throws {
        let t0 = try TimeScale.parse("2016-12-31T00:00:00Z")
        let t1 = t0.addingTT(seconds: 2 * 86_400)
        #expect(abs(t1.seconds(since: t0) - 2 * 86_400) < 1e-3)
        #expect(t1.iso8601 == "2017-01-01T23:59:59Z")
        let u1 = t0.adding(seconds: 2 * 86_400)
        #expect(u1.iso8601 == "2017-01-02T00:00:00Z")
        #expect(abs(u1.seconds(since: t0) - (2 * 86_400 + 1)) < 1e-3)
        // Round trip: the TT difference of a parsed date gives it back.
        let later = try TimeScale.parse("2017-07-01T00:00:00Z")
        #expect(t0.addingTT(seconds: later.seconds(since: t0)).iso8601 == "2017-07-01T00:00:00Z")
    }
}

@Suite("Instants from TDB seconds")
struct TDBInstantTests {
    @Test("TDB seconds past J2000 round-trip to the microsecond, with the UTC label of the day", arguments: [
        "1969-07-20T20:17:40Z", "1977-09-05T12:56:00Z", "2000-01-01T11:58:55.816Z", "2016-12-31T23:59:59Z",
        "2017-01-01T00:00:00Z", "2026-04-06T23:01:00Z", "2100-01-01T00:00:00Z",
    ])
    func roundTrip(date: String) throws {
        let t = try TimeScale.parse(date)
        let seconds = t.daysSinceJ2000TDB * Constants.secondsPerDay
        let back = TimeScale.instant(tdbSecondsPastJ2000: seconds)
        #expect(abs(back.seconds(since: t)) < 1e-6, "\(date): \(back.seconds(since: t)) s")
        #expect(abs(back.daysSinceJ2000TDB * Constants.secondsPerDay - seconds) < 1e-6)
        #expect(back.iso8601.hasPrefix(String(date.prefix(19))), "\(back.iso8601) for \(date)")
    }

    @Test("TDB 0 is J2000.0: 2000-01-01T11:58:55.816Z UTC")
    func epoch() {
        let t = TimeScale.instant(tdbSecondsPastJ2000: 0)
        #expect(abs(t.jdTDB - Constants.jdJ2000) < 1e-9)
        #expect(t.iso8601.hasPrefix("2000-01-01T11:58:55.81"))
    }
}
