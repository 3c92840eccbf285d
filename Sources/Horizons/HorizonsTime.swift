import Ephemeris

/// The time scale a table's times are read and printed in (`TIME_TYPE`).
public enum HorizonsTimeScale: String, Sendable, Hashable {
    case ut = "UT", tt = "TT", tdb = "TDB"
}

/// `TIME_ZONE`: the offset of local civil time from UT (`'-07:00'`, `'+05:30'`). An observer
/// table in UT reads its calendar dates in it and prints its calendar dates in it; Julian dates
/// stay UT.
public struct HorizonsTimeZone: Sendable, Hashable {
    /// Minutes east of Greenwich (−420 for `-07:00`).
    public let minutes: Int

    public static let ut = HorizonsTimeZone(minutes: 0)
    /// Civil time zones run from UT−12 to UT+14.
    static let range = -12 * 60...14 * 60

    init(minutes: Int) { self.minutes = minutes }

    /// `+HH:MM`, `-HH:MM`, `HH:MM` (east), or whole hours (`-7`, `+0`); nil for anything else or
    /// outside −12:00…+14:00.
    public init?(_ text: String) {
        var t = Substring(text.trimmingBlanks())
        var sign = 1
        if let first = t.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            t = t.dropFirst()
        }
        let parts = t.split(separator: ":", omittingEmptySubsequences: false)
        // Hours in one or two digits, minutes in two.
        guard (1...2).contains(parts.count), (1...2).contains(parts[0].count), parts.count == 1 || parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let h = Int(parts[0]), let m = parts.count == 2 ? Int(parts[1]) : 0, m < 60 else { return nil }
        let total = sign * (h * 60 + m)
        guard Self.range.contains(total) else { return nil }
        minutes = total
    }

    /// The offset in days.
    var days: Double { Double(minutes) / 1_440 }

    /// How dates in this zone are labelled: the scale's own name (`UT`) at +00:00, else
    /// `UT-07:00`, as Horizons prints it after the header's start and stop times.
    func label(_ scale: HorizonsTimeScale) -> String {
        guard minutes != 0 else { return scale.rawValue }
        let a = abs(minutes)
        return "UT" + (minutes < 0 ? "-" : "+") + HorizonsText.pad2(a / 60) + ":" + HorizonsText.pad2(a % 60)
    }
}

/// A Julian date split into a whole and a fraction in one time scale (so the nine decimals of
/// Horizons' JD columns are exact), with the instant it is.
struct HorizonsEpoch: Sendable {
    let instant: Instant
    let whole: Double
    let fraction: Double

    var jd: Double { whole + fraction }

    /// The epoch of an instant in `scale`.
    init(_ t: Instant, scale: HorizonsTimeScale) {
        instant = t
        let f: Double
        switch scale {
        case .ut: f = t.ttFraction - t.ttMinusUTCSeconds / Constants.secondsPerDay
        case .tt: f = t.ttFraction
        case .tdb: f = t.ttFraction + t.tdbMinusTTSeconds / Constants.secondsPerDay
        }
        // Whole days on the half day (Julian days begin at noon), the fraction in [0, 1).
        var w = (t.ttWhole - 0.5).rounded(.down) + 0.5
        var r = (t.ttWhole - w) + f
        let carry = r.rounded(.down)
        w += carry
        r -= carry
        whole = w
        fraction = r
    }

    /// The same instant with its calendar moved by `days` (a time zone's offset), for printing.
    func shifted(days: Double) -> HorizonsEpoch {
        guard days != 0 else { return self }
        var r = fraction + days
        let carry = r.rounded(.down)
        r -= carry
        return HorizonsEpoch(instant: instant, whole: whole + carry, fraction: r)
    }

    private init(instant: Instant, whole: Double, fraction: Double) {
        self.instant = instant
        self.whole = whole
        self.fraction = fraction
    }
}

/// Calendar dates as Horizons reads and prints them: the Julian calendar before 1582-Oct-15 and
/// the Gregorian after (`CAL_TYPE=M`, the default), or the Gregorian throughout (`CAL_TYPE=G`);
/// years before 1 printed `B.C.` (`b` in observer tables).
enum HorizonsCalendar {
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    /// JD of 1582-Oct-15 00:00, the first Gregorian day.
    static let gregorianStartJD = 2_299_160.5

    /// Calendar date (year, month, day) of the civil day that starts at `midnightJD` (x.5).
    static func date(midnightJD: Double, gregorianOnly: Bool) -> (year: Int, month: Int, day: Int) {
        let z = Int((midnightJD + 0.5).rounded(.down))
        var a = z
        if gregorianOnly || midnightJD >= gregorianStartJD {
            let alpha = Int(((Double(z) - 1_867_216.25) / 36_524.25).rounded(.down))
            a = z + 1 + alpha - Int((Double(alpha) / 4).rounded(.down))
        }
        let b = a + 1524
        let c = Int(((Double(b) - 122.1) / 365.25).rounded(.down))
        let d = Int((365.25 * Double(c)).rounded(.down))
        let e = Int((Double(b - d) / 30.6001).rounded(.down))
        let day = b - d - Int((30.6001 * Double(e)).rounded(.down))
        let month = e < 14 ? e - 1 : e - 13
        let year = month > 2 ? c - 4716 : c - 4715
        return (year, month, day)
    }

    /// JD of 00:00 on a calendar date.
    static func midnightJD(year: Int, month: Int, day: Int, gregorianOnly: Bool) -> Double {
        var y = year, m = month
        if m <= 2 { y -= 1; m += 12 }
        var b = 0
        let gregorian = gregorianOnly || (year, month, day) >= (1582, 10, 15)
        if gregorian {
            let a = Int((Double(y) / 100).rounded(.down))
            b = 2 - a + Int((Double(a) / 4).rounded(.down))
        }
        return (365.25 * Double(y + 4716)).rounded(.down) + (30.6001 * Double(m + 1)).rounded(.down) + Double(day + b) - 1524.5
    }

    static func daysInMonth(year: Int, month: Int, gregorianOnly: Bool) -> Int {
        let next = month == 12 ? midnightJD(year: year + 1, month: 1, day: 1, gregorianOnly: gregorianOnly)
            : midnightJD(year: year, month: month + 1, day: 1, gregorianOnly: gregorianOnly)
        return Int(next - midnightJD(year: year, month: month, day: 1, gregorianOnly: gregorianOnly))
    }

    /// `2022-Jun-10 00:00:00.0000` (`secondDecimals` ≥ 0), `2022-Jun-10 00:00:00` (0),
    /// `2022-Jun-10 00:00` (nil: minutes), with the era: `A.D. `/`B.C. ` (`era: .words`), a
    /// blank or `b` (`.letter`), nothing (`.none`).
    enum Era { case words, letter, none }

    static func format(_ e: HorizonsEpoch, secondDecimals: Int?, era: Era, gregorianOnly: Bool) -> String {
        var out: [UInt8] = []
        append(e, secondDecimals: secondDecimals, era: era, gregorianOnly: gregorianOnly, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func append(_ e: HorizonsEpoch, secondDecimals: Int?, era: Era, gregorianOnly: Bool, to out: inout [UInt8]) {
        // The time of day in units of the last printed digit, rounded, carried into the day.
        let decimals = secondDecimals.map { max(0, min($0, 4)) }
        let unitsPerDay: Double = decimals.map { 86_400 * pow10($0) } ?? 1_440
        var midnight = e.whole
        var units = (e.fraction * unitsPerDay).rounded()
        if units >= unitsPerDay { units -= unitsPerDay; midnight += 1 }
        let (year, month, day) = date(midnightJD: midnight, gregorianOnly: gregorianOnly)
        let bc = year <= 0
        switch era {
        case .words: out += (bc ? "B.C. " : "A.D. ").utf8
        case .letter: out.append(bc ? UInt8(ascii: "b") : 0x20)
        case .none: break
        }
        let shownYear = bc ? 1 - year : year
        digits(shownYear, 4, &out)
        out.append(0x2D)
        out += monthNames[month - 1].utf8
        out.append(0x2D)
        digits(day, 2, &out)
        out.append(0x20)
        let u = Int(units)
        if let d = decimals {
            let scale = Int(pow10(d))
            let seconds = u / scale
            digits(seconds / 3600, 2, &out); out.append(0x3A)
            digits((seconds / 60) % 60, 2, &out); out.append(0x3A)
            digits(seconds % 60, 2, &out)
            if d > 0 { out.append(0x2E); digits(u % scale, d, &out) }
        } else {
            digits(u / 60, 2, &out); out.append(0x3A)
            digits(u % 60, 2, &out)
        }
    }

    static func pow10(_ n: Int) -> Double {
        var p = 1.0
        for _ in 0..<n { p *= 10 }
        return p
    }

    @inline(__always) static func digits(_ v: Int, _ width: Int, _ out: inout [UInt8]) {
        var buf: [UInt8] = []
        var x = abs(v)
        repeat { buf.append(UInt8(x % 10) + 0x30); x /= 10 } while x > 0
        while buf.count < width { buf.append(0x30) }
        out += buf.reversed()
    }

    /// A Julian date as Horizons' `JDTDB`/`JDUT` columns print it: `2459740.500000000`.
    static func appendJD(_ e: HorizonsEpoch, decimals: Int = 9, to out: inout [UInt8]) {
        var whole = e.whole.rounded(.down)
        var f = (e.whole - whole) + e.fraction
        if f >= 1 { f -= 1; whole += 1 }
        let scale = pow10(decimals)
        var units = (f * scale).rounded()
        if units >= scale { units -= scale; whole += 1 }
        if whole < 0 { out.append(0x2D) }
        digits(Int(abs(whole)), 1, &out)
        out.append(0x2E)
        digits(Int(units), decimals, &out)
    }
}

/// Reading Horizons' date and step parameters.
enum HorizonsTimeParser {
    /// A date as `START_TIME`, `STOP_TIME` and a calendar TLIST take it: `2022-06-10`,
    /// `2022-Jun-10 12:00`, `2022-06-10T12:00:00.5`, `A.D. 2022-Jun-10`, `B.C. 100-Jan-01`,
    /// `JD 2459740.5`, `JD2459740.5`, `MJD 59740`; a trailing `UT`, `UTC`, `TT` or `TDB` (or `Z`)
    /// overrides the table's scale. `calendar` says the date was a calendar date (what a
    /// `TIME_ZONE` applies to), not a Julian date. Nil when it cannot be read.
    static func parse(_ raw: String, gregorianOnly: Bool) -> (jd: Double, scale: HorizonsTimeScale?, calendar: Bool)? {
        var text = raw.trimmingBlanks().uppercased()
        var scale: HorizonsTimeScale?
        for (suffix, s) in [(" TDB", HorizonsTimeScale.tdb), (" TT", .tt), (" UTC", .ut), (" UT", .ut)] where text.hasSuffix(suffix) {
            scale = s
            text = String(text.dropLast(suffix.count)).trimmingBlanks()
            break
        }
        if text.hasSuffix("Z") { text.removeLast(); scale = scale ?? .ut }
        if text.hasPrefix("MJD") {
            guard let v = number(text.dropFirst(3)) else { return nil }
            return (v + 2_400_000.5, scale, false)
        }
        if text.hasPrefix("JD") {
            guard let v = number(text.dropFirst(2)) else { return nil }
            return (v, scale, false)
        }
        var bc = false
        for prefix in ["A.D.", "AD"] where text.hasPrefix(prefix) { text = String(text.dropFirst(prefix.count)).trimmingBlanks(); break }
        for prefix in ["B.C.", "BC"] where text.hasPrefix(prefix) { text = String(text.dropFirst(prefix.count)).trimmingBlanks(); bc = true; break }
        // Date and time: `YYYY-MM-DD`, then a blank or `T`, then `HH:MM[:SS[.f]]`.
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "T" }).map(String.init)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let dateFields = parts[0].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard dateFields.count == 3, let y = Int(dateFields[0]), dateFields[0].count <= 5, let d = Int(dateFields[2]) else { return nil }
        let month: Int
        if let m = Int(dateFields[1]) { month = m } else if let i = HorizonsCalendar.monthNames.firstIndex(where: { $0.uppercased() == dateFields[1] }) { month = i + 1 } else { return nil }
        let year = bc ? 1 - y : y
        guard (1...12).contains(month), d >= 1, d <= HorizonsCalendar.daysInMonth(year: year, month: month, gregorianOnly: gregorianOnly) else { return nil }
        // The days the Gregorian reform left out do not exist in the mixed calendar.
        if !gregorianOnly, year == 1582, month == 10, (5...14).contains(d) { return nil }
        var dayFraction = 0.0
        if parts.count == 2 {
            let t = parts[1].split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard (2...3).contains(t.count), let h = Int(t[0]), let m = Int(t[1]), (0...23).contains(h), (0...59).contains(m) else { return nil }
            var s = 0.0
            if t.count == 3 {
                guard let v = number(Substring(t[2])), v >= 0, v < 61 else { return nil }
                s = v
            }
            dayFraction = (Double(h) * 3600 + Double(m) * 60 + s) / Constants.secondsPerDay
        }
        return (HorizonsCalendar.midnightJD(year: year, month: month, day: d, gregorianOnly: gregorianOnly) + dayFraction, scale, true)
    }

    static func number(_ s: Substring) -> Double? {
        let t = s.trimmingBlanks()
        guard !t.isEmpty, t.count <= 32, t.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+") }), let v = Double(t), v.isFinite else { return nil }
        return v
    }

    /// The instant of a Julian date in `scale`, or nil outside the engine's years.
    static func instant(jd: Double, scale: HorizonsTimeScale) -> Instant? {
        let minJD = CivilDateTime.julianDayNumberAtMidnight(year: TimeScale.yearRange.lowerBound, month: 1, day: 1)
        let maxJD = CivilDateTime.julianDayNumberAtMidnight(year: TimeScale.yearRange.upperBound + 1, month: 1, day: 1)
        guard jd.isFinite, jd >= minJD, jd < maxJD else { return nil }
        switch scale {
        case .ut:
            return try? TimeScale.utc(julianDay: jd)
        case .tdb:
            return TimeScale.instant(tdbSecondsPastJ2000: (jd - Constants.jdJ2000) * Constants.secondsPerDay)
        case .tt:
            let days = jd - Constants.jdJ2000
            return TimeScale.instant(tdbSecondsPastJ2000: days * Constants.secondsPerDay + TimeScale.tdbMinusTTSeconds(daysSinceJ2000: days))
        }
    }
}

/// `STEP_SIZE`: a fixed step, calendar months or years, or a number of equal intervals.
enum HorizonsStep: Sendable, Equatable {
    case seconds(Double)
    case months(Int)
    case years(Int)
    case intervals(Int)

    /// `10d`, `10 d`, `1 h`, `30 m`, `30 min`, `10 s`, `1 y`, `2 mo`, `100` (equal intervals);
    /// the unit words spelled out too. Nil when it cannot be read.
    static func parse(_ raw: String) -> HorizonsStep? {
        let text = raw.trimmingBlanks().lowercased()
        var i = text.startIndex
        while i < text.endIndex, text[i].isNumber || text[i] == "." { i = text.index(after: i) }
        guard i > text.startIndex, let n = Double(text[text.startIndex..<i]), n > 0, n.isFinite else { return nil }
        let unit = text[i...].trimmingBlanks()
        switch unit {
        case "": return n == n.rounded() && n <= 1e9 ? .intervals(Int(n)) : nil
        case "d", "day", "days": return .seconds(n * 86_400)
        case "h", "hr", "hour", "hours": return .seconds(n * 3_600)
        case "m", "min", "minute", "minutes": return .seconds(n * 60)
        case "s", "sec", "second", "seconds": return .seconds(n)
        case "y", "yr", "year", "years", "cy": return n == n.rounded() ? .years(Int(n)) : nil
        case "mo", "mon", "month", "months": return n == n.rounded() ? .months(Int(n)) : nil
        case "u", "unitless": return n == n.rounded() ? .intervals(Int(n)) : nil
        default: return nil
        }
    }

    /// The header's `Step-size` line.
    func description(span: Double) -> String {
        switch self {
        case let .seconds(s):
            if s >= 60, (s / 60).rounded() == s / 60 { return "\(Int(s / 60)) minutes" }
            return "\(HorizonsText.trimmed(s)) seconds"
        case let .months(n): return "\(n) calendar months"
        case let .years(n): return "\(n) calendar years"
        case let .intervals(n):
            let minutes = span / Double(max(n, 1)) / 60
            return "\(HorizonsText.trimmed(minutes)) minutes"
        }
    }
}
