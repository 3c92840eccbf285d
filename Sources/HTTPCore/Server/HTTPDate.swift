import Glibc
import Synchronization

/// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) for the `Date` header, formatted once per second.
package enum HTTPDate {
    private static let cache = Mutex<(second: Int, bytes: [UInt8])>((-1, []))
    private static let days: [String] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months: [String] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The current date as header-value bytes.
    static func now() -> [UInt8] {
        let t = time(nil)
        return cache.withLock { c in
            if c.second != t {
                c = (t, format(t))
            }
            return c.bytes
        }
    }

    static func format(_ t: Int) -> [UInt8] {
        var tt = time_t(t)
        var tmv = tm()
        gmtime_r(&tt, &tmv)
        var s = days[Int(tmv.tm_wday)] + ", " + pad2(Int(tmv.tm_mday)) + " " + months[Int(tmv.tm_mon)] + " "
        s += String(Int(tmv.tm_year) + 1900) + " " + pad2(Int(tmv.tm_hour)) + ":" + pad2(Int(tmv.tm_min)) + ":" + pad2(Int(tmv.tm_sec)) + " GMT"
        return Array(s.utf8)
    }

    /// `2026-11-22T10:11:12.345Z` appended as bytes (log lines: no intermediate strings).
    package static func appendISO8601Now(to out: inout [UInt8]) {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        var tt = ts.tv_sec
        var tmv = tm()
        gmtime_r(&tt, &tmv)
        func digits(_ v: Int, _ n: Int) {
            var d = 1
            for _ in 1..<n { d *= 10 }
            var v = v
            while d > 0 {
                out.append(UInt8(ascii: "0") + UInt8(v / d % 10))
                v %= d
                d /= 10
            }
        }
        digits(Int(tmv.tm_year) + 1900, 4)
        out.append(UInt8(ascii: "-")); digits(Int(tmv.tm_mon) + 1, 2)
        out.append(UInt8(ascii: "-")); digits(Int(tmv.tm_mday), 2)
        out.append(UInt8(ascii: "T")); digits(Int(tmv.tm_hour), 2)
        out.append(UInt8(ascii: ":")); digits(Int(tmv.tm_min), 2)
        out.append(UInt8(ascii: ":")); digits(Int(tmv.tm_sec), 2)
        out.append(UInt8(ascii: ".")); digits(Int(ts.tv_nsec) / 1_000_000, 3)
        out.append(UInt8(ascii: "Z"))
    }

    /// `2026-11-22T10:11:12.345Z` for log lines.
    package static func iso8601Now() -> String {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        var tt = ts.tv_sec
        var tmv = tm()
        gmtime_r(&tt, &tmv)
        let ms = Int(ts.tv_nsec) / 1_000_000
        let msText = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
        return "\(Int(tmv.tm_year) + 1900)-\(pad2(Int(tmv.tm_mon) + 1))-\(pad2(Int(tmv.tm_mday)))T\(pad2(Int(tmv.tm_hour))):\(pad2(Int(tmv.tm_min))):\(pad2(Int(tmv.tm_sec))).\(msText)Z"
    }

    private static func pad2(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
}
