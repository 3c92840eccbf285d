#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds ``Instant`` values from UTC: owns the leap-second table and the ΔT model.
///
/// ```swift
/// let t = try TimeScale.parse("2026-11-22T00:00:00Z")
/// t.jdTT   // 2461366.5008007...
/// ```
public enum TimeScale {
    /// Earliest and latest accepted calendar years (the range of the Standish table 2 elements).
    public static let yearRange = -3000...3000

    /// What ``parse(_:now:)`` accepts, for error messages.
    public static let acceptedFormats =
        "ISO 8601 UTC (2026-11-22T00:00:00Z, 2026-11-22T00:00:00.5Z, 2026-11-22), jd:<UTC Julian date> (jd:2461001.5), or now; years -3000..3000"

    /// TAI − UTC from 1972 on: (Julian date of the UTC midnight it takes effect, seconds).
    /// IERS Bulletin C; no leap second has been announced after 2017-01-01.
    static let leapSeconds: [(jdUTC: Double, taiMinusUTC: Double)] = [
        (2_441_317.5, 10), // 1972-01-01
        (2_441_499.5, 11), // 1972-07-01
        (2_441_683.5, 12), // 1973-01-01
        (2_442_048.5, 13), // 1974-01-01
        (2_442_413.5, 14), // 1975-01-01
        (2_442_778.5, 15), // 1976-01-01
        (2_443_144.5, 16), // 1977-01-01
        (2_443_509.5, 17), // 1978-01-01
        (2_443_874.5, 18), // 1979-01-01
        (2_444_239.5, 19), // 1980-01-01
        (2_444_786.5, 20), // 1981-07-01
        (2_445_151.5, 21), // 1982-07-01
        (2_445_516.5, 22), // 1983-07-01
        (2_446_247.5, 23), // 1985-07-01
        (2_447_161.5, 24), // 1988-01-01
        (2_447_892.5, 25), // 1990-01-01
        (2_448_257.5, 26), // 1991-01-01
        (2_448_804.5, 27), // 1992-07-01
        (2_449_169.5, 28), // 1993-07-01
        (2_449_534.5, 29), // 1994-07-01
        (2_450_083.5, 30), // 1996-01-01
        (2_450_630.5, 31), // 1997-07-01
        (2_451_179.5, 32), // 1999-01-01
        (2_453_736.5, 33), // 2006-01-01
        (2_454_832.5, 34), // 2009-01-01
        (2_456_109.5, 35), // 2012-07-01
        (2_457_204.5, 36), // 2015-07-01
        (2_457_754.5, 37), // 2017-01-01
    ]

    /// Start of the leap-second era: before it "UTC" is read as UT and TT = UT + ΔT.
    static let jdLeapSecondEra = 2_441_317.5

    /// TAI − UTC in force during the UTC day starting at `jdMidnight`, or nil before 1972.
    static func taiMinusUTC(jdUTCMidnight jd: Double) -> Double? {
        guard jd >= jdLeapSecondEra else { return nil }
        var lo = 0, hi = leapSeconds.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if leapSeconds[mid].jdUTC <= jd { lo = mid } else { hi = mid - 1 }
        }
        return leapSeconds[lo].taiMinusUTC
    }

    /// Whether the UTC day starting at `jdMidnight` ends with a positive leap second.
    static func dayEndsWithLeapSecond(jdUTCMidnight jd: Double) -> Bool {
        guard let today = taiMinusUTC(jdUTCMidnight: jd), let tomorrow = taiMinusUTC(jdUTCMidnight: jd + 1) else { return false }
        return tomorrow > today
    }

    /// ΔT = TT − UT in seconds (Espenak & Meeus 2006, NASA "Five Millennium Canon of Solar
    /// Eclipses", polynomial expressions valid −1999…+3000 with the long-term parabola outside).
    public static func deltaT(decimalYear y: Double) -> Double {
        func longTerm(_ y: Double) -> Double {
            let u = (y - 1820) / 100
            return -20 + 32 * u * u
        }
        switch y {
        case ..<(-500):
            return longTerm(y)
        case ..<500:
            let u = y / 100
            return horner(u, [10583.6, -1014.41, 33.78311, -5.952053, -0.1798452, 0.022174192, 0.0090316521])
        case ..<1600:
            let u = (y - 1000) / 100
            return horner(u, [1574.2, -556.01, 71.23472, 0.319781, -0.8503463, -0.005050998, 0.0083572073])
        case ..<1700:
            let t = y - 1600
            return horner(t, [120, -0.9808, -0.01532, 1.0 / 7129])
        case ..<1800:
            let t = y - 1700
            return horner(t, [8.83, 0.1603, -0.0059285, 0.00013336, -1.0 / 1_174_000])
        case ..<1860:
            let t = y - 1800
            return horner(t, [13.72, -0.332447, 0.0068612, 0.0041116, -0.00037436, 0.0000121272, -0.0000001699, 0.000000000875])
        case ..<1900:
            let t = y - 1860
            return horner(t, [7.62, 0.5737, -0.251754, 0.01680668, -0.0004473624, 1.0 / 233_174])
        case ..<1920:
            let t = y - 1900
            return horner(t, [-2.79, 1.494119, -0.0598939, 0.0061966, -0.000197])
        case ..<1941:
            let t = y - 1920
            return horner(t, [21.20, 0.84493, -0.076100, 0.0020936])
        case ..<1961:
            let t = y - 1950
            return horner(t, [29.07, 0.407, -1.0 / 233, 1.0 / 2547])
        case ..<1986:
            let t = y - 1975
            return horner(t, [45.45, 1.067, -1.0 / 260, -1.0 / 718])
        case ..<2005:
            let t = y - 2000
            return horner(t, [63.86, 0.3345, -0.060374, 0.0017275, 0.000651814, 0.00002373599])
        case ..<2050:
            let t = y - 2000
            return horner(t, [62.92, 0.32217, 0.005589])
        case ..<2150:
            return longTerm(y) - 0.5628 * (2150 - y)
        default:
            return longTerm(y)
        }
    }

    private static func horner(_ x: Double, _ c: [Double]) -> Double {
        var r = 0.0
        for v in c.reversed() { r = r * x + v }
        return r
    }

    /// The instant of a UTC calendar date-time (UT before 1972). The caller has validated
    /// the fields; see ``utc(year:month:day:hour:minute:second:)`` for the checked entry.
    static func instant(utc c: CivilDateTime) -> Instant {
        let midnight = CivilDateTime.julianDayNumberAtMidnight(year: c.year, month: c.month, day: c.day)
        let offset: Double
        if let tai = taiMinusUTC(jdUTCMidnight: midnight) {
            offset = tai + Constants.ttMinusTAISeconds
        } else {
            offset = deltaT(decimalYear: c.decimalYearForDeltaT)
        }
        let fraction = (c.secondsOfDay + offset) / Constants.secondsPerDay
        return Instant(ttWhole: midnight, ttFraction: fraction, utc: c, ttMinusUTCSeconds: offset)
    }

    /// The instant of a UTC calendar date-time, validated.
    public static func utc(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Double = 0) throws(TimeError) -> Instant {
        guard second.isFinite, second >= 0, second < 61 else {
            throw .invalidField(field: "second", value: "\(second)", accepted: "0 ≤ second < 60 (60.x only on a leap-second day)")
        }
        let whole = Int(second.rounded(.down))
        let nanos = Int(((second - Double(whole)) * 1e9).rounded())
        return try utc(CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: whole, nanosecond: min(nanos, 999_999_999)), input: nil)
    }

    static func utc(_ c: CivilDateTime, input: String?) throws(TimeError) -> Instant {
        let shown = input ?? c.iso8601
        guard yearRange.contains(c.year) else { throw .outOfRange(input: shown, accepted: "years \(yearRange.lowerBound)..\(yearRange.upperBound)") }
        guard (1...12).contains(c.month) else { throw .invalidField(field: "month", value: "\(c.month)", accepted: "01..12") }
        let dim = CivilDateTime.daysInMonth(year: c.year, month: c.month)
        guard (1...dim).contains(c.day) else { throw .invalidField(field: "day", value: "\(c.day)", accepted: "01..\(dim) for that month") }
        guard (0...23).contains(c.hour) else { throw .invalidField(field: "hour", value: "\(c.hour)", accepted: "00..23") }
        guard (0...59).contains(c.minute) else { throw .invalidField(field: "minute", value: "\(c.minute)", accepted: "00..59") }
        if c.second == 60 {
            let midnight = CivilDateTime.julianDayNumberAtMidnight(year: c.year, month: c.month, day: c.day)
            guard c.hour == 23, c.minute == 59, dayEndsWithLeapSecond(jdUTCMidnight: midnight) else {
                throw .invalidField(field: "second", value: "60", accepted: "00..59 (60 only at 23:59:60 on a leap-second day)")
            }
        } else if !(0...59).contains(c.second) {
            throw .invalidField(field: "second", value: "\(c.second)", accepted: "00..59")
        }
        return instant(utc: c)
    }

    /// The instant of a UTC Julian date (`jd:2461001.5`).
    public static func utc(julianDay jd: Double) throws(TimeError) -> Instant {
        let minJD = CivilDateTime.julianDayNumberAtMidnight(year: yearRange.lowerBound, month: 1, day: 1)
        let maxJD = CivilDateTime.julianDayNumberAtMidnight(year: yearRange.upperBound + 1, month: 1, day: 1)
        guard jd.isFinite, jd >= minJD, jd < maxJD else {
            throw .outOfRange(input: "jd:\(jd)", accepted: "Julian dates \(minJD)..<\(maxJD) (years \(yearRange.lowerBound)..\(yearRange.upperBound))")
        }
        return instant(utc: CivilDateTime(julianDay: jd))
    }

    /// TDB − TT in seconds at `days` since J2000 (TT or TDB: the two terms change by 2e-10 s
    /// over the 1.7 ms between the scales). Fairhead & Bretagnon 1990, the two leading terms as in
    /// the Explanatory Supplement; within 30 µs of the full series.
    @inlinable public static func tdbMinusTTSeconds(daysSinceJ2000 days: Double) -> Double {
        let g = (357.53 + 0.985_600_28 * days) * Angle.radiansPerDegree
        return 0.001_657 * sin(g) + 0.000_014 * sin(2 * g)
    }

    /// The instant `seconds` of TDB past J2000 (the time argument of SPK kernels and of the
    /// missions' propagators). TT is exact to the microsecond (TDB − TT evaluated at TDB: the
    /// two terms change by 2e-10 s over the 1.7 ms between the scales); the UTC label follows
    /// from TT through the leap seconds (ΔT before 1972). No range check: the caller's seconds
    /// come from a kernel or from another instant.
    ///
    /// ```swift
    /// TimeScale.instant(tdbSecondsPastJ2000: 0).iso8601   // 2000-01-01T11:58:55.816Z
    /// ```
    public static func instant(tdbSecondsPastJ2000 seconds: Double) -> Instant {
        let ttSeconds = seconds - tdbMinusTTSeconds(daysSinceJ2000: seconds / Constants.secondsPerDay)
        let days = ttSeconds / Constants.secondsPerDay
        let whole = days.rounded(.down)
        let jdTT = Constants.jdJ2000 + days
        // TT − UTC at the label: from the table once the label's day is known (two passes
        // settle it except inside a leap second, where the label may be a second off).
        var offset = Constants.ttMinusTAISeconds + 37
        var label = CivilDateTime(julianDay: jdTT - offset / Constants.secondsPerDay)
        for _ in 0..<2 {
            let midnight = CivilDateTime.julianDayNumberAtMidnight(year: label.year, month: label.month, day: label.day)
            let next: Double
            if let tai = taiMinusUTC(jdUTCMidnight: midnight) {
                next = tai + Constants.ttMinusTAISeconds
            } else {
                next = deltaT(decimalYear: label.decimalYearForDeltaT)
            }
            // Settled: the label would come out the same (most instants since 2017 stop here).
            if next == offset { break }
            offset = next
            label = CivilDateTime(julianDay: jdTT - offset / Constants.secondsPerDay)
        }
        return Instant(ttWhole: Constants.jdJ2000 + whole, ttFraction: days - whole, utc: label, ttMinusUTCSeconds: offset)
    }

    /// The instant of a Unix time in seconds (how `now` arrives from the clock).
    public static func utc(unixSeconds: Double) throws(TimeError) -> Instant {
        try utc(julianDay: Constants.jdUnixEpoch + unixSeconds / Constants.secondsPerDay)
    }

    /// Parses `2026-11-22T00:00:00Z`, `2026-11-22T00:00:00.125Z`, `2026-11-22`, `jd:2461001.5` or `now`.
    ///
    /// `now` reads `now()` (Unix seconds); the engine itself never reads a clock.
    public static func parse(_ text: String, now: () -> Double) throws(TimeError) -> Instant {
        let trimmed = text
        if trimmed == "now" { return try utc(unixSeconds: now()) }
        if trimmed.hasPrefix("jd:") {
            let number = trimmed.dropFirst(3)
            guard !number.isEmpty, number.count <= 32, let jd = Double(number), jd.isFinite,
                  number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+" || $0 == "e" || $0 == "E") })
            else { throw .unparseable(input: text, accepted: acceptedFormats) }
            return try utc(julianDay: jd)
        }
        guard let civil = ISO8601Parser.parse(trimmed) else { throw .unparseable(input: text, accepted: acceptedFormats) }
        return try utc(civil, input: text)
    }

    /// Parses a date that may not be `now` (the engine has no clock of its own).
    public static func parse(_ text: String) throws(TimeError) -> Instant {
        try parse(text, now: { .nan })
    }
}

/// Why a time could not be built. Each case names the value and what is accepted.
public enum TimeError: Error, Sendable, Equatable, CustomStringConvertible {
    case unparseable(input: String, accepted: String)
    case outOfRange(input: String, accepted: String)
    case invalidField(field: String, value: String, accepted: String)

    public var description: String {
        switch self {
        case let .unparseable(input, accepted): return "cannot read \"\(input)\" as a time; accepted: \(accepted)"
        case let .outOfRange(input, accepted): return "\"\(input)\" is outside the supported range; accepted: \(accepted)"
        case let .invalidField(field, value, accepted): return "\(field) \(value) is not valid; accepted: \(accepted)"
        }
    }
}
