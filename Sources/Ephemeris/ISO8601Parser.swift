/// A strict reader for the ISO 8601 / RFC 3339 subset the API accepts, working on UTF-8 bytes.
///
/// Accepted: `[±]YYYY-MM-DD`, optionally followed by `T` (or `t`, or a space) and `HH:MM`,
/// `HH:MM:SS` or `HH:MM:SS.fraction` (up to 9 digits), then `Z`, `±HH:MM`, `±HHMM` or nothing
/// (read as UTC). Offsets are applied so the result is UTC. Field ranges are checked later by
/// ``TimeScale``; this only checks the shape.
enum ISO8601Parser {
    static func parse(_ text: String) -> CivilDateTime? {
        let b = Array(text.utf8)
        guard b.count <= 64 else { return nil }
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var v = 0
            for k in 0..<n {
                let c = b[i + k]
                guard c >= 0x30, c <= 0x39 else { return nil }
                v = v * 10 + Int(c - 0x30)
            }
            i += n
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        var sign = 1, signed = false
        if i < b.count, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") {
            sign = b[i] == UInt8(ascii: "-") ? -1 : 1
            signed = true
            i += 1
        }
        // Four-digit years, or more when signed (ISO 8601 expanded representation).
        var yearDigits = 0
        while i + yearDigits < b.count, b[i + yearDigits] >= 0x30, b[i + yearDigits] <= 0x39 { yearDigits += 1 }
        guard yearDigits == 4 || (signed && (5...6).contains(yearDigits)), let yearAbs = digits(yearDigits) else { return nil }
        guard expect(UInt8(ascii: "-")), let month = digits(2), expect(UInt8(ascii: "-")), let day = digits(2) else { return nil }
        var c = CivilDateTime(year: sign * yearAbs, month: month, day: day)
        if i == b.count { return c }
        guard b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") || b[i] == UInt8(ascii: " ") else { return nil }
        i += 1
        guard let hour = digits(2), expect(UInt8(ascii: ":")), let minute = digits(2) else { return nil }
        c.hour = hour
        c.minute = minute
        if expect(UInt8(ascii: ":")) {
            guard let second = digits(2) else { return nil }
            c.second = second
            if i < b.count, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
                i += 1
                var n = 0, scale = 100_000_000, count = 0
                while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                    count += 1
                    guard count <= 9 else { return nil }
                    n += Int(b[i] - 0x30) * scale
                    scale /= 10
                    i += 1
                }
                guard count > 0 else { return nil }
                c.nanosecond = n
            }
        }
        if i == b.count { return c }
        if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
            i += 1
            return i == b.count ? c : nil
        }
        guard b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") else { return nil }
        let offsetSign = b[i] == UInt8(ascii: "-") ? -1 : 1
        i += 1
        guard let oh = digits(2) else { return nil }
        _ = expect(UInt8(ascii: ":"))
        guard let om = digits(2), i == b.count, oh <= 23, om <= 59 else { return nil }
        let offsetMinutes = offsetSign * (oh * 60 + om)
        if offsetMinutes == 0 { return c }
        // Shift to UTC through the Julian day so month and year boundaries come out right.
        guard (1...12).contains(c.month), (1...31).contains(c.day), c.hour <= 23, c.minute <= 59, c.second <= 59 else { return nil }
        var wholeMinute = c
        wholeMinute.second = 0
        wholeMinute.nanosecond = 0
        var out = CivilDateTime(julianDay: wholeMinute.julianDay - Double(offsetMinutes) / 1440)
        out.second = c.second
        out.nanosecond = c.nanosecond
        return out
    }
}
