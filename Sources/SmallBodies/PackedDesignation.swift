/// The Minor Planet Center's packed designations and dates (MPC, "Packed Provisional and
/// Permanent Designations" and "Packed Dates"), read from the bytes of a fixed-column record.
///
/// ```swift
/// PackedDesignation.unpack("00001")     // .number(1)
/// PackedDesignation.unpack("A0001")     // .number(100001)
/// PackedDesignation.unpack("K04M04N")   // .provisional("2004 MN4")
/// PackedDesignation.unpack("J95O010", comet: true)  // .provisional("1995 O1")
/// PackedDesignation.date("K205V")       // (2020, 5, 31)
/// ```
public enum PackedDesignation: Sendable, Hashable {
    case number(Int)
    case provisional(String)

    /// A base-62 digit: 0–9, A–Z (10–35), a–z (36–61).
    @inline(__always) static func digit62(_ b: UInt8) -> Int? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(b - UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return Int(b - UInt8(ascii: "A")) + 10
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return Int(b - UInt8(ascii: "a")) + 36
        default: return nil
        }
    }

    @inline(__always) static func decimal(_ b: UInt8) -> Int? {
        b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") ? Int(b - UInt8(ascii: "0")) : nil
    }

    /// The century letter of packed years and dates: I = 1800s, J = 1900s, K = 2000s.
    @inline(__always) static func century(_ b: UInt8) -> Int? {
        switch b {
        case UInt8(ascii: "I"): return 1800
        case UInt8(ascii: "J"): return 1900
        case UInt8(ascii: "K"): return 2000
        default: return nil
        }
    }

    public static func unpack(_ text: String, comet: Bool = false) -> PackedDesignation? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { unpack($0[...], comet: comet) }
    }

    /// A packed designation (trailing blanks ignored): 5 characters for a number (`00001`,
    /// `A0001`, `~0000` for 620,000 and up), 7 for a provisional one (`K04M04N`) or a survey
    /// designation (`PLS2040` → `2040 P-L`). `comet`: the last character is a fragment letter
    /// (`0` none), not the second half-month letter.
    public static func unpack(_ field: Slice<UnsafeBufferPointer<UInt8>>, comet: Bool = false) -> PackedDesignation? {
        var end = field.endIndex
        while end > field.startIndex, field[end - 1] == UInt8(ascii: " ") { end -= 1 }
        var start = field.startIndex
        while start < end, field[start] == UInt8(ascii: " ") { start += 1 }
        let s = field[start..<end]
        let n = s.count
        if n == 5 {
            let first = s[s.startIndex]
            if first == UInt8(ascii: "~") {
                var value = 0
                for b in s.dropFirst() { guard let d = digit62(b) else { return nil }; value = value * 62 + d }
                return .number(620_000 + value)
            }
            guard let lead = digit62(first) else { return nil }
            var value = 0
            for b in s.dropFirst() { guard let d = decimal(b) else { return nil }; value = value * 10 + d }
            let number = lead * 10_000 + value
            return number > 0 ? .number(number) : nil
        }
        guard n == 7 else { return nil }
        let b = Array(s)
        // Survey designations: PLS2040, T1S3138, T2S…, T3S….
        if b[0] == UInt8(ascii: "P") && b[1] == UInt8(ascii: "L") && b[2] == UInt8(ascii: "S")
            || b[0] == UInt8(ascii: "T") && (UInt8(ascii: "1")...UInt8(ascii: "3")).contains(b[1]) && b[2] == UInt8(ascii: "S") {
            guard b[3...].allSatisfy({ decimal($0) != nil }) else { return nil }
            let number = String(decoding: b[3...], as: UTF8.self)
            let survey = b[0] == UInt8(ascii: "P") ? "P-L" : "T-\(Character(Unicode.Scalar(b[1])))"
            return .provisional("\(Int(number) ?? 0) \(survey)")
        }
        guard let c = century(b[0]), let y1 = decimal(b[1]), let y2 = decimal(b[2]) else { return nil }
        let year = c + y1 * 10 + y2
        let halfMonth = b[3]
        guard halfMonth >= UInt8(ascii: "A"), halfMonth <= UInt8(ascii: "Z"), halfMonth != UInt8(ascii: "I") else { return nil }
        guard let cycleHigh = digit62(b[4]), let cycleLow = decimal(b[5]) else { return nil }
        let cycle = cycleHigh * 10 + cycleLow
        let last = b[6]
        let halfMonthLetter = String(Character(Unicode.Scalar(halfMonth)))
        if comet {
            // Comets: the number within the half-month, then a fragment letter or 0.
            let fragment = last == UInt8(ascii: "0") ? "" : "-" + String(Character(Unicode.Scalar(last))).uppercased()
            guard last == UInt8(ascii: "0") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(last) else { return nil }
            return .provisional("\(year) \(halfMonthLetter)\(cycle)\(fragment)")
        }
        guard last >= UInt8(ascii: "A"), last <= UInt8(ascii: "Z") else { return nil }
        let second = String(Character(Unicode.Scalar(last)))
        return .provisional("\(year) \(halfMonthLetter)\(second)\(cycle == 0 ? "" : String(cycle))")
    }

    /// A packed date `K205V` → 2020-05-31 (century letter, year, month 1–9 A–C, day 1–9 A–V).
    public static func date(_ text: String) -> (year: Int, month: Int, day: Int)? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { date($0[...]) }
    }

    public static func date(_ s: Slice<UnsafeBufferPointer<UInt8>>) -> (year: Int, month: Int, day: Int)? {
        guard s.count == 5 else { return nil }
        let i = s.startIndex
        guard let c = century(s[i]), let y1 = decimal(s[i + 1]), let y2 = decimal(s[i + 2]),
              let month = digit62(s[i + 3]), let day = digit62(s[i + 4]),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        return (c + y1 * 10 + y2, month, day)
    }
}
