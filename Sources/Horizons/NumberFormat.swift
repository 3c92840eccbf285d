/// Horizons' Fortran-style number fields, written straight into a byte buffer: fixed decimals
/// (`F`), scientific with a 16-digit mantissa (`1PE22.15`), right-aligned in a field width.
///
/// Rounding is exact (to nearest, ties to even, as C's printf rounds the binary value): the
/// double's integer significand is scaled by a power of ten in 128-bit arithmetic and shifted,
/// so a 1,000-row vector table formats its 9,000 numbers in a fraction of a millisecond,
/// where `String(format:)` would take several. Values beyond the exact range fall back to the
/// C library's formatting.
enum NumberFormat {
    static let powersOfTen: [UInt128] = {
        var p: [UInt128] = [1]
        for _ in 1...38 { p.append(p[p.count - 1] * 10) }
        return p
    }()

    /// `round(|x| · 10^k)` exactly, or nil when it does not fit the exact path (|x| · 10^k ≥ 2^110
    /// or the scaling would overflow).
    @inline(__always) static func scaledMagnitude(_ x: Double, decimalShift k: Int) -> UInt128? {
        let a = abs(x)
        if a == 0 { return 0 }
        // Subnormals, infinities and shifts whose product could pass 128 bits (10^22 < 2^75,
        // the significand < 2^53) take the C library's path.
        guard a.isNormal, k >= 0, k <= 22 else { return nil }
        let significand = UInt128(a.significandBitPattern | (1 << 52))
        let exponent = Int(a.exponent) - 52
        let product = significand * powersOfTen[k]
        if exponent >= 0 {
            guard product.leadingZeroBitCount > exponent else { return nil }
            return product << UInt128(exponent)
        }
        let shift = -exponent
        if shift >= 127 { return 0 }
        let quotient = product >> UInt128(shift)
        let remainder = product & ((UInt128(1) << UInt128(shift)) - 1)
        let half = UInt128(1) << UInt128(shift - 1)
        if remainder > half || (remainder == half && quotient & 1 == 1) { return quotient + 1 }
        return quotient
    }

    /// Appends the decimal digits of `v` (at least `minDigits`, zero-padded).
    @inline(__always) static func appendDigits(_ v: UInt128, minDigits: Int = 1, to out: inout [UInt8]) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &digits) { buf in
            var x = v
            repeat {
                // Two 64-bit halves keep the division cheap for the common small values.
                if x <= UInt128(UInt64.max) {
                    var y = UInt64(x)
                    repeat {
                        buf[n] = UInt8(y % 10) + 0x30
                        y /= 10
                        n += 1
                    } while y > 0
                    x = 0
                } else {
                    buf[n] = UInt8(x % 10) + 0x30
                    x /= 10
                    n += 1
                }
            } while x > 0
            while n < minDigits { buf[n] = 0x30; n += 1 }
            for i in stride(from: n - 1, through: 0, by: -1) { out.append(buf[i]) }
        }
    }

    /// `x` with `decimals` digits after the point (`F`), right-aligned in `width` (no padding
    /// when it does not fit: Horizons' fields grow then).
    static func fixed(_ x: Double, decimals: Int, width: Int, to out: inout [UInt8]) {
        guard x.isFinite else { return pad("n.a.", width: width, to: &out) }
        var body: [UInt8] = []
        body.reserveCapacity(32)
        if let m = scaledMagnitude(x, decimalShift: decimals) {
            if x < 0 { body.append(0x2D) }
            let p = powersOfTen[decimals]
            appendDigits(m / p, to: &body)
            if decimals > 0 {
                body.append(0x2E)
                appendDigits(m % p, minDigits: decimals, to: &body)
            }
        } else {
            body = Array(cFormat(x, "%.\(decimals)f").utf8)
        }
        // A negative zero after rounding is written without its sign, as Fortran does.
        if body.first == 0x2D, body.dropFirst().allSatisfy({ $0 == 0x30 || $0 == 0x2E }) { body.removeFirst() }
        for _ in 0..<max(0, width - body.count) { out.append(0x20) }
        out += body
    }

    /// `x` with `significant` significant digits in a fixed-point field (as Horizons' rate
    /// columns: `-1.85528`, `-27.3221`), at most `maxDecimals` decimals.
    static func significant(_ x: Double, digits: Int, maxDecimals: Int, width: Int, to out: inout [UInt8]) {
        guard x.isFinite else { return pad("n.a.", width: width, to: &out) }
        let a = abs(x)
        var integerDigits = a < 1 ? 1 : Int(log10(a).rounded(.down)) + 1
        if a >= 1, let m = scaledMagnitude(x, decimalShift: 0), m >= powersOfTen[min(38, integerDigits)] { integerDigits += 1 }
        let decimals = max(0, min(maxDecimals, digits - integerDigits))
        fixed(x, decimals: decimals, width: width, to: &out)
    }

    /// `x` as Fortran's `1PE(width).(digits)`: one digit, the point, `digits` decimals, `E`, the
    /// signed exponent of at least two digits; a space for the sign of a positive number.
    static func scientific(_ x: Double, digits: Int = 15, width: Int, to out: inout [UInt8]) {
        guard x.isFinite else { return pad("n.a.", width: width, to: &out) }
        var body: [UInt8] = []
        body.reserveCapacity(32)
        body.append(x < 0 || (x == 0 && x.sign == .minus) ? 0x2D : 0x20)
        var mantissa: UInt128 = 0
        var e = 0
        if x != 0 {
            e = Int(log10(abs(x)).rounded(.down))
            var done = false
            for _ in 0..<3 {
                let k = digits - e
                guard k >= 0, let m = scaledMagnitude(x, decimalShift: k) else { break }
                if m >= powersOfTen[digits + 1] { e += 1; continue }
                if m < powersOfTen[digits] { e -= 1; continue }
                mantissa = m
                done = true
                break
            }
            if !done {
                let s = cFormat(x, "%.\(digits)E")
                // %E writes the sign only when negative: the space for a positive sign is ours.
                body = Array((x < 0 ? "" : " ").utf8) + Array(s.utf8)
                for _ in 0..<max(0, width - body.count) { out.append(0x20) }
                out += body
                return
            }
        }
        let p = powersOfTen[digits]
        appendDigits(mantissa / p, to: &body)
        body.append(0x2E)
        appendDigits(mantissa % p, minDigits: digits, to: &body)
        body.append(0x45)
        body.append(e < 0 ? 0x2D : 0x2B)
        appendDigits(UInt128(abs(e)), minDigits: 2, to: &body)
        for _ in 0..<max(0, width - body.count) { out.append(0x20) }
        out += body
    }

    /// `text` right-aligned in `width`.
    static func pad(_ text: String, width: Int, to out: inout [UInt8]) {
        let n = text.utf8.count
        for _ in 0..<max(0, width - n) { out.append(0x20) }
        out += text.utf8
    }

    /// `text` left-aligned in `width`.
    static func padRight(_ text: String, width: Int, to out: inout [UInt8]) {
        out += text.utf8
        for _ in 0..<max(0, width - text.utf8.count) { out.append(0x20) }
    }

    /// The C library's formatting of one double (the rare values the exact path does not take).
    static func cFormat(_ x: Double, _ format: String) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let n = withVaList([x]) { vsnprintf(&buffer, 64, format, $0) }
        return String(decoding: buffer.prefix(Int(max(0, min(n, 63)))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

import Glibc
