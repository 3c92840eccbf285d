import Glibc

/// One moment, held as a TT Julian date split into whole days and a fraction (so sub-millisecond
/// precision survives), with the UTC it was built from kept for the echo in responses.
///
/// Build instants through ``TimeScale``; every other scale is derived here.
public struct Instant: Sendable, Hashable, Comparable {
    /// Whole part of the TT Julian date (a half-integer is fine: only the sum matters).
    public let ttWhole: Double
    /// Fractional part of the TT Julian date, |fraction| < 1.
    public let ttFraction: Double
    /// The UTC (or, before 1972, UT) calendar instant this was built from.
    public let utc: CivilDateTime
    /// TT − UTC in seconds: leap seconds + 32.184 s from 1972, ΔT before.
    public let ttMinusUTCSeconds: Double
    /// TDB − TT in seconds (Fairhead & Bretagnon 1990, two leading terms as in the
    /// Explanatory Supplement; within 30 µs of the full series). Computed once here: every
    /// engine call asks for TDB, a series sample three times.
    public let tdbMinusTTSeconds: Double

    init(ttWhole: Double, ttFraction: Double, utc: CivilDateTime, ttMinusUTCSeconds: Double) {
        // Keep the fraction small so adding seconds later does not lose precision.
        let carry = ttFraction.rounded(.down)
        self.ttWhole = ttWhole + carry
        self.ttFraction = ttFraction - carry
        self.utc = utc
        self.ttMinusUTCSeconds = ttMinusUTCSeconds
        tdbMinusTTSeconds = TimeScale.tdbMinusTTSeconds(daysSinceJ2000: (self.ttWhole - Constants.jdJ2000) + self.ttFraction)
    }

    /// Terrestrial Time as a Julian date.
    @inlinable public var jdTT: Double { ttWhole + ttFraction }

    /// Barycentric Dynamical Time as a Julian date.
    public var jdTDB: Double { ttWhole + (ttFraction + tdbMinusTTSeconds / Constants.secondsPerDay) }

    /// Julian centuries of TDB since J2000.0, the argument of every theory in the engine.
    public var julianCenturiesTDB: Double {
        ((ttWhole - Constants.jdJ2000) + ttFraction + tdbMinusTTSeconds / Constants.secondsPerDay)
            / Constants.daysPerJulianCentury
    }

    /// Days of TDB since J2000.0.
    public var daysSinceJ2000TDB: Double {
        (ttWhole - Constants.jdJ2000) + ttFraction + tdbMinusTTSeconds / Constants.secondsPerDay
    }

    /// The UTC Julian date (UT before 1972).
    public var jdUTC: Double { ttWhole + (ttFraction - ttMinusUTCSeconds / Constants.secondsPerDay) }

    /// ISO 8601 echo of the UTC instant, e.g. `2026-11-22T00:00:00Z`.
    public var iso8601: String { utc.iso8601 }

    /// The instant `seconds` of TT later: elapsed physical time (a mission's clock). Across a
    /// leap second the UTC label moves one second less than `seconds`.
    public func addingTT(seconds: Double) -> Instant {
        var label = CivilDateTime(julianDay: utc.julianDay + seconds / Constants.secondsPerDay)
        var trial = TimeScale.instant(utc: label)
        for _ in 0..<3 {
            // The label moved by `seconds` of UTC; take off the leap seconds it crossed.
            let error = trial.seconds(since: self) - seconds
            if abs(error) < 1e-4 { break }
            label = CivilDateTime(julianDay: label.julianDay - error / Constants.secondsPerDay)
            trial = TimeScale.instant(utc: label)
        }
        return trial
    }

    /// The instant `seconds` of UTC later: the UTC label advances by exactly `seconds` (so daily
    /// steps stay at the same clock time across a leap second); TT follows from the label.
    public func adding(seconds: Double) -> Instant {
        let days = seconds / Constants.secondsPerDay
        let utcJD = utc.julianDay + days
        let utcLabel = CivilDateTime(julianDay: utcJD)
        // Re-derive the UTC offset for the new moment (a leap second may lie between).
        return TimeScale.instant(utc: utcLabel)
    }

    /// TT seconds from `other` to this instant, from the split parts (exact to microseconds
    /// across the whole range, where a single Julian-date Double keeps only ~40 µs).
    public func seconds(since other: Instant) -> Double {
        ((ttWhole - other.ttWhole) + (ttFraction - other.ttFraction)) * Constants.secondsPerDay
    }

    public static func < (a: Instant, b: Instant) -> Bool {
        (a.ttWhole - b.ttWhole) + (a.ttFraction - b.ttFraction) < 0
    }

    public static func == (a: Instant, b: Instant) -> Bool {
        a.ttWhole + a.ttFraction == b.ttWhole + b.ttFraction
    }

    public func hash(into h: inout Hasher) {
        h.combine(ttWhole + ttFraction)
    }
}
