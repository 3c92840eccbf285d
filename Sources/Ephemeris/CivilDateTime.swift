/// A proleptic Gregorian calendar date and time of day, as ISO 8601 writes it.
///
/// Years run −3000…3000 in the engine (year 0 = 1 BC, as in ISO 8601). Seconds may reach 60.x
/// on a day that ends with a leap second.
public struct CivilDateTime: Sendable, Hashable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    /// Whole seconds 0…60.
    public var second: Int
    /// Nanoseconds within the second, 0…999,999,999.
    public var nanosecond: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, nanosecond: Int = 0) {
        self.year = year; self.month = month; self.day = day
        self.hour = hour; self.minute = minute; self.second = second; self.nanosecond = nanosecond
    }

    /// Julian day number of the date at 00:00 (Fliegel & Van Flandern 1968, proleptic
    /// Gregorian, valid for every year after −4800).
    public static func julianDayNumberAtMidnight(year: Int, month: Int, day: Int) -> Double {
        let a = (14 - month) / 12
        let y = year + 4800 - a
        let m = month + 12 * a - 3
        let jdn = day + (153 * m + 2) / 5 + 365 * y + y / 4 - y / 100 + y / 400 - 32045
        return Double(jdn) - 0.5
    }

    /// Seconds since the start of the day, including the fraction.
    public var secondsOfDay: Double {
        Double(hour * 3600 + minute * 60 + second) + Double(nanosecond) / 1e9
    }

    /// The Julian date of this calendar instant on its own scale (no leap-second smearing:
    /// 23:59:60 maps onto the first second of the next day).
    public var julianDay: Double {
        Self.julianDayNumberAtMidnight(year: year, month: month, day: day) + secondsOfDay / 86_400
    }

    /// The calendar instant of a Julian date, rounded to the nearest millisecond
    /// (Richards 2013, proleptic Gregorian inverse).
    public init(julianDay jd: Double) {
        let shifted = jd + 0.5
        var dayNumber = shifted.rounded(.down)
        var ms = ((shifted - dayNumber) * 86_400_000).rounded()
        if ms >= 86_400_000 { ms -= 86_400_000; dayNumber += 1 }
        let j = Int(dayNumber)
        let f = j + 1401 + (((4 * j + 274_277) / 146_097) * 3) / 4 - 38
        let e = 4 * f + 3
        let g = (e % 1461) / 4
        let h = 5 * g + 2
        let day = (h % 153) / 5 + 1
        let month = ((h / 153 + 2) % 12) + 1
        let year = e / 1461 - 4716 + (12 + 2 - month) / 12
        let msInt = Int(ms)
        self.init(
            year: year, month: month, day: day,
            hour: msInt / 3_600_000, minute: (msInt / 60_000) % 60, second: (msInt / 1000) % 60,
            nanosecond: (msInt % 1000) * 1_000_000
        )
    }

    /// Decimal year for ΔT polynomials (mid-month convention of Espenak & Meeus).
    var decimalYearForDeltaT: Double { Double(year) + (Double(month) - 0.5) / 12 }

    static func isLeapYear(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: return 31
        case 4, 6, 9, 11: return 30
        default: return isLeapYear(year) ? 29 : 28
        }
    }

    /// `2026-11-22T00:00:00Z`, with milliseconds when they are not zero (`…:00.250Z`).
    public var iso8601: String {
        var s = ""
        let y = year
        if y < 0 { s += "-" + pad(-y, 4) } else { s += pad(y, 4) }
        s += "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2)
        let ms = nanosecond / 1_000_000
        let rest = nanosecond % 1_000_000
        if rest != 0 {
            var frac = pad(nanosecond, 9)
            while frac.hasSuffix("0") { frac.removeLast() }
            s += "." + frac
        } else if ms != 0 {
            s += "." + pad(ms, 3)
        }
        return s + "Z"
    }

    private func pad(_ v: Int, _ width: Int) -> String {
        let digits = String(v)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
