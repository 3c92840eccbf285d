/// Reading fixed-column fields of one line of bytes (1-based, inclusive columns as the MPC's
/// format descriptions number them), without building strings: the MPCORB file has 1.4 million
/// lines.
struct FixedColumns {
    let line: UnsafeBufferPointer<UInt8>

    /// The bytes of columns `first…last` (cut at the line's end).
    @inline(__always) func field(_ first: Int, _ last: Int) -> Slice<UnsafeBufferPointer<UInt8>> {
        let lo = min(first - 1, line.count), hi = min(last, line.count)
        return line[lo..<hi]
    }

    @inline(__always) func isBlank(_ first: Int, _ last: Int) -> Bool {
        field(first, last).allSatisfy { $0 == UInt8(ascii: " ") }
    }

    /// The decimal number in columns `first…last` (blanks around it allowed; nil when blank or
    /// not a number).
    @inline(__always) func double(_ first: Int, _ last: Int) -> Double? {
        FixedColumns.parseDouble(field(first, last))
    }

    func text(_ first: Int, _ last: Int) -> String {
        var s = field(first, last)
        while let l = s.last, l == UInt8(ascii: " ") { s = s.dropLast() }
        while let f = s.first, f == UInt8(ascii: " ") { s = s.dropFirst() }
        return String(decoding: s, as: UTF8.self)
    }

    /// A plain decimal: optional sign, digits with at most one point, an optional exponent
    /// (`E`, `e`, `D`); surrounding blanks. The digits are gathered as an integer and scaled
    /// once by an exact power of ten, so the result is correctly rounded whenever they fit in
    /// 2⁵³ (the MPC's files carry at most 11 significant digits); longer ones go through the
    /// standard library's conversion.
    static func parseDouble(_ s: Slice<UnsafeBufferPointer<UInt8>>) -> Double? {
        var i = s.startIndex, end = s.endIndex
        while i < end, s[i] == UInt8(ascii: " ") { i += 1 }
        while end > i, s[end - 1] == UInt8(ascii: " ") { end -= 1 }
        guard i < end else { return nil }
        var negative = false
        if s[i] == UInt8(ascii: "-") || s[i] == UInt8(ascii: "+") { negative = s[i] == UInt8(ascii: "-"); i += 1 }
        var mantissa: UInt64 = 0, digits = 0, scale = 0, sawDigit = false, sawPoint = false
        while i < end {
            let b = s[i]
            if b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") {
                sawDigit = true
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(b - UInt8(ascii: "0"))
                    if mantissa != 0 { digits += 1 }
                    if sawPoint { scale -= 1 }
                } else if !sawPoint {
                    scale += 1
                }
            } else if b == UInt8(ascii: ".") {
                if sawPoint { return nil }
                sawPoint = true
            } else {
                break
            }
            i += 1
        }
        guard sawDigit else { return nil }
        if i < end {
            let b = s[i]
            guard b == UInt8(ascii: "E") || b == UInt8(ascii: "e") || b == UInt8(ascii: "D") || b == UInt8(ascii: "d") else { return nil }
            i += 1
            var expNegative = false
            if i < end, s[i] == UInt8(ascii: "-") || s[i] == UInt8(ascii: "+") { expNegative = s[i] == UInt8(ascii: "-"); i += 1 }
            var exp = 0, expDigits = 0
            while i < end, s[i] >= UInt8(ascii: "0"), s[i] <= UInt8(ascii: "9") {
                exp = min(exp * 10 + Int(s[i] - UInt8(ascii: "0")), 10_000)
                expDigits += 1
                i += 1
            }
            guard expDigits > 0, i == end else { return nil }
            scale += expNegative ? -exp : exp
        }
        if mantissa > 1 << 53 {
            return Double(String(decoding: s[s.startIndex..<end], as: UTF8.self).trimmingBlanks)
        }
        var value = Double(mantissa)
        if scale != 0 {
            // Powers of ten up to 10²² are exact doubles: one correctly rounded operation.
            if scale < 0, scale >= -22 { value /= powersOfTen[-scale] }
            else if scale > 0, scale <= 22 { value *= powersOfTen[scale] }
            else { value = Double("\(mantissa)e\(scale)") ?? .nan }
        }
        return negative ? -value : value
    }

    static let powersOfTen: [Double] = (0...22).map { k in (0..<k).reduce(1.0) { x, _ in x * 10 } }
}

private extension String {
    var trimmingBlanks: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        return String(s)
    }
}
