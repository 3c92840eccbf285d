import Ephemeris

/// Small pieces of Horizons' text layout.
enum HorizonsText {
    /// The 79-asterisk rule between blocks.
    static let rule = String(repeating: "*", count: 79)

    static func left(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }

    static func right(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }

    /// `2022-Jun-10 08:56:42`: the header's time stamp of the answer, UTC.
    static func stamp(_ unixSeconds: Double) -> String {
        guard unixSeconds.isFinite, let t = try? TimeScale.utc(unixSeconds: unixSeconds) else { return "2000-Jan-01 00:00:00" }
        let c = t.utc
        return "\(pad4(c.year))-\(HorizonsCalendar.monthNames[c.month - 1])-\(pad2(c.day)) \(pad2(c.hour)):\(pad2(c.minute)):\(pad2(c.second))"
    }

    /// `Fri Jun 10 08:57:46 2022`, as the `Ephemeris / API_USER` line writes the time.
    static func ctime(_ unixSeconds: Double) -> String {
        guard unixSeconds.isFinite, let t = try? TimeScale.utc(unixSeconds: unixSeconds) else { return "Sat Jan  1 00:00:00 2000" }
        let c = t.utc
        let weekday = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][Int((c.julianDay + 0.5).rounded(.down)) % 7]
        return "\(weekday) \(HorizonsCalendar.monthNames[c.month - 1]) \(right(String(c.day), 2)) \(pad2(c.hour)):\(pad2(c.minute)):\(pad2(c.second)) \(c.year)"
    }

    static func pad2(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    static func pad4(_ v: Int) -> String { right(String(v), 4).replacingOccurrences(of: " ", with: "0") }

    /// A number in the shortest form that keeps it (trailing zeros and a bare point dropped):
    /// `14400`, `0.5`.
    static func trimmed(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        return "\(v)"
    }

    /// The `fixed` field as a string.
    static func fixed(_ v: Double, _ decimals: Int) -> String {
        var out: [UInt8] = []
        NumberFormat.fixed(v, decimals: decimals, width: 0, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `1.234567890123456E+00` as a string (no sign space).
    static func scientific(_ v: Double) -> String {
        var out: [UInt8] = []
        NumberFormat.scientific(v, width: 0, to: &out)
        return String(decoding: out, as: UTF8.self).trimmingBlanks()
    }

    /// Fortran's list-directed style Horizons uses in object data: `.07687465013145245`,
    /// `2.556401146697176`, `80.3011901917491`: the shortest round-trip digits, no leading zero.
    static func compact(_ v: Double) -> String {
        guard v.isFinite else { return "n.a." }
        var s = "\(v)"
        if s.hasSuffix(".0") { s.removeLast(2) }
        if s.hasPrefix("0.") { s.removeFirst() } else if s.hasPrefix("-0.") { s = "-" + s.dropFirst(2) }
        return s
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = Substring(self)
        while let r = rest.range(of: target) {
            out += rest[..<r.lowerBound]
            out += replacement
            rest = rest[r.upperBound...]
        }
        return out + rest
    }
}

extension Substring {
    func range(of target: String) -> Range<Substring.Index>? {
        guard !target.isEmpty, count >= target.count else { return nil }
        var i = startIndex
        while i < endIndex {
            if self[i...].hasPrefix(target) { return i..<index(i, offsetBy: target.count) }
            i = index(after: i)
        }
        return nil
    }
}
