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

    /// Decimal year ΔT is read at before 1972: the middle of the month (Espenak & Meeus' convention).
    public var decimalYearForDeltaT: Double { Double(year) + (Double(month) - 0.5) / 12 }

    /// Whether `y` is a leap year of the Gregorian calendar.
    public static func isLeapYear(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    /// The days of `month` (1–12) of the Gregorian year `year`.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: return 31
        case 4, 6, 9, 11: return 30
        default: return isLeapYear(year) ? 29 : 28
        }
    }

    /// `2026-11-22T00:00:00Z`, with milliseconds when they are not zero (`…:00.250Z`).
    public var iso8601: String {
        var bytes: [UInt8] = []
        appendISO8601(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `iso8601`'s bytes (no `String` built: a time series writes one per sample).
    public func appendISO8601(to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maxISO8601Bytes) { buffer in
            let n = writeISO8601(to: buffer.baseAddress!)
            out.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress!, count: n))
        }
    }

    /// The most bytes `writeISO8601` writes (a 19-digit year, nanoseconds).
    public static let maxISO8601Bytes = 48

    /// Writes `iso8601`'s bytes at `p` (room for `maxISO8601Bytes`) and returns how many.
    /// Nanoseconds are written when below the millisecond, without their trailing zeros.
    public func writeISO8601(to p: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        func put(_ byte: Unicode.Scalar) { p[n] = UInt8(ascii: byte); n += 1 }
        func digits(_ v: Int, _ width: Int) {
            var count = 1, probe = v
            while probe >= 10 { probe /= 10; count += 1 }
            let w = max(count, width)
            var m = v
            for k in stride(from: n + w - 1, through: n, by: -1) { p[k] = UInt8(ascii: "0") &+ UInt8(m % 10); m /= 10 }
            n += w
        }
        if year < 0 { put("-") }
        digits(Int(clamping: year.magnitude), 4)
        put("-"); digits(month, 2); put("-"); digits(day, 2)
        put("T"); digits(hour, 2); put(":"); digits(minute, 2); put(":"); digits(second, 2)
        if nanosecond % 1_000_000 != 0 {
            var width = 9, fraction = nanosecond
            while fraction % 10 == 0 { fraction /= 10; width -= 1 }
            put("."); digits(fraction, width)
        } else if nanosecond != 0 {
            put("."); digits(nanosecond / 1_000_000, 3)
        }
        put("Z")
        return n
    }
}
