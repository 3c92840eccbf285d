import Foundation

/// UTC timestamps without `DateFormatter` (no locale, no calendar settings, thread-safe).
enum UTCTimestamp {
    /// `2026-11-22T00:00:00Z`: the `applied_at` / `created_at` column format.
    static func iso8601(_ date: Date) -> String {
        let c = components(date)
        return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))T\(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2))Z"
    }

    /// `20261122T000000Z`: the suffix of a moved-aside corrupt file.
    static func compact(_ date: Date) -> String {
        let c = components(date)
        return "\(pad(c.year, 4))\(pad(c.month, 2))\(pad(c.day, 2))T\(pad(c.hour, 2))\(pad(c.minute, 2))\(pad(c.second, 2))Z"
    }

    /// Civil date from days since 1970-01-01 (H. Hinnant, "chrono-Compatible Low-Level Date
    /// Algorithms", civil_from_days), whole seconds rounded down.
    static func components(_ date: Date) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let t = date.timeIntervalSince1970
        let seconds = t.isFinite ? Int(clamping: Int64(max(min(t.rounded(.down), 1e15), -1e15))) : 0
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day, secondOfDay / 3600, secondOfDay % 3600 / 60, secondOfDay % 60)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
