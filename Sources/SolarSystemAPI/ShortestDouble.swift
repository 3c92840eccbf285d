/// The text of a `Double` as Swift's `description` writes it — the shortest decimal that reads
/// back to the same double (the closest such when several are as short), in plain notation
/// from 10⁻⁴ up to 2⁵³ and `1.5e-05` / `9.1e+15` notation outside — appended as bytes with no
/// `String` in between.
///
/// The digits come from Ulf Adams's Ryū algorithm (PLDI 2018, "Ryū: fast float-to-string
/// conversion"), written here from the paper's description and its reference implementation's
/// structure; its 128-bit tables of powers of five are computed at first use from exact integer
/// arithmetic instead of being pasted in. Tests compare it with `description` for millions of
/// doubles and the edge cases (subnormals, powers of ten and two, integers, signed zeros).
///
/// ```swift
/// var out: [UInt8] = []
/// ShortestDouble.append(0.1 + 0.2, to: &out)   // "0.30000000000000004"
/// ```
enum ShortestDouble {
    /// The longest text: `-2.2250738585072014e-308`. The writers need no room beyond it.
    static let maxBytes = 24

    /// Appends `v` as `v.description` spells it.
    static func append(_ v: Double, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxBytes) { buffer in
            let n = write(v, to: buffer.baseAddress!)
            out.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress!, count: n))
        }
    }

    /// Writes `v` as `v.description` spells it at `p` (room for `maxBytes`) and returns the length.
    static func write(_ v: Double, to p: UnsafeMutablePointer<UInt8>) -> Int {
        guard v.isFinite else {
            var n = 0
            for b in v.description.utf8 { p[n] = b; n += 1 }  // nan, -nan, inf, -inf
            return n
        }
        return format(v, into: p)
    }

    /// Writes the text of a finite `v` at `p` (room for `maxBytes`: the digits are staged inside
    /// the text's own span) and returns its length.
    static func format(_ v: Double, into p: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        if v.sign == .minus { p[0] = UInt8(ascii: "-"); n = 1 }
        if v == 0 {
            p[n] = UInt8(ascii: "0"); p[n + 1] = UInt8(ascii: "."); p[n + 2] = UInt8(ascii: "0")
            return n + 3
        }
        let (digits, exponent) = shortest(v.bitPattern)
        let count = digitCount(digits)
        // Scientific exponent: v = d.ddd × 10^e. The digits are written straight to their place.
        let e = exponent + count - 1
        if e < -4 || abs(v) > 0x1p53 {
            // d.ddde±XX: the digits one place right, then the first moved before the point.
            _ = writeDigits(digits, endingAt: p + n + 1 + count)
            p[n] = p[n + 1]
            if count > 1 { p[n + 1] = UInt8(ascii: "."); n += count + 1 } else { n += 1 }
            p[n] = UInt8(ascii: "e"); p[n + 1] = e < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"); n += 2
            let a = abs(e)
            if a >= 100 { p[n] = UInt8(ascii: "0") &+ UInt8(a / 100); n += 1 }
            p[n] = UInt8(ascii: "0") &+ UInt8(a / 10 % 10); p[n + 1] = UInt8(ascii: "0") &+ UInt8(a % 10)
            return n + 2
        }
        if e < 0 {
            // 0.000ddd
            p[n] = UInt8(ascii: "0"); p[n + 1] = UInt8(ascii: "."); n += 2
            for _ in 0..<(-e - 1) { p[n] = UInt8(ascii: "0"); n += 1 }
            _ = writeDigits(digits, endingAt: p + n + count)
            return n + count
        }
        if count > e + 1 {
            // ddd.ddd: the digits one place right, then the integer part moved back over the gap.
            _ = writeDigits(digits, endingAt: p + n + 1 + count)
            for k in 0...e { p[n + k] = p[n + k + 1] }
            p[n + e + 1] = UInt8(ascii: ".")
            return n + count + 1
        }
        // ddd000.0
        _ = writeDigits(digits, endingAt: p + n + count)
        n += count
        for _ in count..<(e + 1) { p[n] = UInt8(ascii: "0"); n += 1 }
        p[n] = UInt8(ascii: "."); p[n + 1] = UInt8(ascii: "0")
        return n + 2
    }

    /// The number of decimal digits of `d` (1…17 here), longest first: most doubles written
    /// have 15 to 17.
    @inline(__always) static func digitCount(_ d: UInt64) -> Int {
        if d >= 10_000_000_000_000_000 { return 17 }
        if d >= 1_000_000_000_000_000 { return 16 }
        if d >= 100_000_000_000_000 { return 15 }
        var count = 1, threshold: UInt64 = 10
        while d >= threshold { count += 1; threshold &*= 10 }
        return count
    }

    /// "00" … "99", for two digits per division.
    static let pairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// Writes the decimal digits of `d` (at most 17) right-aligned before `end`; returns how many.
    /// Two independent chains (the low eight digits in 32-bit arithmetic, and the rest), two
    /// digits per step: dividing by ten seventeen times in a row was the formatter's main cost.
    @inline(__always) static func writeDigits(_ d: UInt64, endingAt end: UnsafeMutablePointer<UInt8>) -> Int {
        let table = pairs.utf8Start
        var high = d / 100_000_000
        var low = UInt32(truncatingIfNeeded: d - high * 100_000_000)
        var count = 0
        if high != 0 {
            for _ in 0..<4 {   // all eight low digits, zeros included
                let r = Int(low % 100); low /= 100
                count += 2
                end[-count] = table[2 * r]; end[-count + 1] = table[2 * r + 1]
            }
        } else {
            high = UInt64(low)
        }
        while high >= 100 {
            let r = Int(high % 100); high /= 100
            count += 2
            end[-count] = table[2 * r]; end[-count + 1] = table[2 * r + 1]
        }
        if high >= 10 {
            count += 2
            end[-count] = table[2 * Int(high)]; end[-count + 1] = table[2 * Int(high) + 1]
        } else {
            count += 1
            end[-count] = UInt8(ascii: "0") &+ UInt8(high)
        }
        return count
    }

    // MARK: - Ryū

    static let pow5InverseBitCount = 125
    static let pow5BitCount = 125

    /// A 128-bit table entry.
    struct U128: Sendable { var low: UInt64; var high: UInt64 }

    /// ⌊5^i / 2^(bits(5^i) − 125)⌋ (5^i as a 125-bit number), i = 0 ..< 326.
    static let pow5Split: [U128] = {
        var p = BigUInt(limbs: [1]), table: [U128] = []
        for i in 0..<326 {
            if i > 0 { p.multiply(by: 5) }
            table.append(p.shifted(by: pow5BitCount - p.bitWidth).low128)
        }
        return table
    }()

    /// ⌊2^(bits(5^i) − 1 + 125) / 5^i⌋ + 1, i = 0 ..< 342: nested floor divisions of one large
    /// power of two by five (⌊⌊a/b⌋/c⌋ = ⌊a/(bc)⌋), then a shift.
    static let pow5InverseSplit: [U128] = {
        let top = 1024
        var x = BigUInt.powerOfTwo(top)
        var table: [U128] = []
        for i in 0..<342 {
            if i > 0 { x.divide(by: 5) }
            let j = pow5Bits(i) - 1 + pow5InverseBitCount
            var q = x.shifted(by: j - top).low128
            q.low &+= 1
            if q.low == 0 { q.high &+= 1 }
            table.append(q)
        }
        return table
    }()

    /// The number of bits of 5^e (0 ≤ e ≤ 3528).
    @inline(__always) static func pow5Bits(_ e: Int) -> Int { ((e &* 1_217_359) >> 19) &+ 1 }
    /// ⌊log10(2^e)⌋ and ⌊log10(5^e)⌋ (0 ≤ e ≤ 1650 and 2620).
    @inline(__always) static func log10Pow2(_ e: Int) -> Int { (e &* 78_913) >> 18 }
    @inline(__always) static func log10Pow5(_ e: Int) -> Int { (e &* 732_923) >> 20 }

    @inline(__always) static func pow5Factor(_ value: UInt64) -> Int {
        var v = value, count = 0
        while v % 5 == 0 { v /= 5; count += 1 }
        return count
    }

    @inline(__always) static func multipleOfPowerOf5(_ value: UInt64, _ p: Int) -> Bool { pow5Factor(value) >= p }
    @inline(__always) static func multipleOfPowerOf2(_ value: UInt64, _ p: Int) -> Bool { value & ((1 << UInt64(p)) &- 1) == 0 }

    /// ((m × mul) >> j), the 192-bit product cut to 64 bits (64 ≤ j < 128).
    @inline(__always) static func mulShift(_ m: UInt64, _ mul: U128, _ j: Int) -> UInt64 {
        let b0 = m.multipliedFullWidth(by: mul.low)
        let b2 = m.multipliedFullWidth(by: mul.high)
        let (low, carry) = b2.low.addingReportingOverflow(b0.high)
        let high = b2.high &+ (carry ? 1 : 0)
        let shift = UInt64(j - 64)
        return shift == 0 ? low : (high << (64 - shift)) | (low >> shift)
    }

    /// The shortest decimal digits and exponent (v = digits × 10^exponent) of a positive
    /// finite double's bit pattern.
    static func shortest(_ bits: UInt64) -> (digits: UInt64, exponent: Int) {
        let ieeeMantissa = bits & ((1 << 52) - 1)
        let ieeeExponent = Int((bits >> 52) & 0x7FF)
        let e2: Int, m2: UInt64
        if ieeeExponent == 0 {
            e2 = 1 - 1023 - 52 - 2
            m2 = ieeeMantissa
        } else {
            e2 = ieeeExponent - 1023 - 52 - 2
            m2 = (1 << 52) | ieeeMantissa
        }
        let acceptBounds = m2 & 1 == 0
        // The interval of decimals that read back as this double: (4·m2 − 1 − mmShift, 4·m2 + 2) × 2^e2.
        let mv = 4 * m2
        let mmShift: UInt64 = (ieeeMantissa != 0 || ieeeExponent <= 1) ? 1 : 0

        var vr: UInt64, vp: UInt64, vm: UInt64
        let e10: Int
        var vmIsTrailingZeros = false, vrIsTrailingZeros = false
        if e2 >= 0 {
            let q = log10Pow2(e2) - (e2 > 3 ? 1 : 0)
            e10 = q
            let k = pow5InverseBitCount + pow5Bits(q) - 1
            let i = -e2 + q + k
            let mul = pow5InverseSplit[q]
            vr = mulShift(mv, mul, i)
            vp = mulShift(mv + 2, mul, i)
            vm = mulShift(mv - 1 - mmShift, mul, i)
            if q <= 21 {
                // Only one of mp, mv and mm can be a multiple of 5, if any.
                if mv % 5 == 0 {
                    vrIsTrailingZeros = multipleOfPowerOf5(mv, q)
                } else if acceptBounds {
                    vmIsTrailingZeros = multipleOfPowerOf5(mv - 1 - mmShift, q)
                } else if multipleOfPowerOf5(mv + 2, q) {
                    vp -= 1
                }
            }
        } else {
            let q = log10Pow5(-e2) - (-e2 > 1 ? 1 : 0)
            e10 = q + e2
            let i = -e2 - q
            let k = pow5Bits(i) - pow5BitCount
            let j = q - k
            let mul = pow5Split[i]
            vr = mulShift(mv, mul, j)
            vp = mulShift(mv + 2, mul, j)
            vm = mulShift(mv - 1 - mmShift, mul, j)
            if q <= 1 {
                // mv has at least q trailing zero bits; mp and mm as well, or mm has one less.
                vrIsTrailingZeros = true
                if acceptBounds {
                    vmIsTrailingZeros = mmShift == 1
                } else {
                    vp -= 1
                }
            } else if q < 63 {
                vrIsTrailingZeros = multipleOfPowerOf2(mv, q)
            }
        }

        // Drop digits while the interval still holds a shorter decimal.
        var removed = 0
        let output: UInt64
        if vmIsTrailingZeros || vrIsTrailingZeros {
            var lastRemovedDigit: UInt64 = 0
            while vp / 10 > vm / 10 {
                vmIsTrailingZeros = vmIsTrailingZeros && vm % 10 == 0
                vrIsTrailingZeros = vrIsTrailingZeros && lastRemovedDigit == 0
                lastRemovedDigit = vr % 10
                vr /= 10; vp /= 10; vm /= 10
                removed += 1
            }
            if vmIsTrailingZeros {
                while vm % 10 == 0 {
                    vrIsTrailingZeros = vrIsTrailingZeros && lastRemovedDigit == 0
                    lastRemovedDigit = vr % 10
                    vr /= 10; vp /= 10; vm /= 10
                    removed += 1
                }
            }
            if vrIsTrailingZeros, lastRemovedDigit == 5, vr % 2 == 0 {
                lastRemovedDigit = 4 // exactly halfway: round to even
            }
            let outside = vr == vm && (!acceptBounds || !vmIsTrailingZeros)
            output = vr + (outside || lastRemovedDigit >= 5 ? 1 : 0)
        } else {
            var roundUp = false
            if vp / 100 > vm / 100 {
                roundUp = vr % 100 >= 50
                vr /= 100; vp /= 100; vm /= 100
                removed += 2
            }
            while vp / 10 > vm / 10 {
                roundUp = vr % 10 >= 5
                vr /= 10; vp /= 10; vm /= 10
                removed += 1
            }
            output = vr + (vr == vm || roundUp ? 1 : 0)
        }
        return (output, e10 + removed)
    }
}

/// Just enough of an unsigned big integer (32-bit limbs, least significant first) to compute
/// Ryū's tables exactly.
struct BigUInt {
    var limbs: [UInt32]

    static func powerOfTwo(_ e: Int) -> BigUInt {
        var limbs = [UInt32](repeating: 0, count: e / 32 + 1)
        limbs[e / 32] = 1 << UInt32(e % 32)
        return BigUInt(limbs: limbs)
    }

    var bitWidth: Int {
        guard let top = limbs.lastIndex(where: { $0 != 0 }) else { return 0 }
        return top * 32 + (32 - limbs[top].leadingZeroBitCount)
    }

    mutating func multiply(by m: UInt32) {
        var carry: UInt64 = 0
        for k in limbs.indices {
            let p = UInt64(limbs[k]) * UInt64(m) + carry
            limbs[k] = UInt32(truncatingIfNeeded: p)
            carry = p >> 32
        }
        if carry != 0 { limbs.append(UInt32(carry)) }
    }

    mutating func divide(by d: UInt32) {
        var remainder: UInt64 = 0
        for k in limbs.indices.reversed() {
            let cur = remainder << 32 | UInt64(limbs[k])
            limbs[k] = UInt32(cur / UInt64(d))
            remainder = cur % UInt64(d)
        }
    }

    /// × 2^s (s > 0) or ⌊÷ 2^−s⌋ (s < 0), a limb at a time.
    func shifted(by s: Int) -> BigUInt {
        let bits = UInt32(abs(s) % 32), whole = abs(s) / 32
        if s >= 0 {
            var out = [UInt32](repeating: 0, count: limbs.count + whole + 1)
            for (k, limb) in limbs.enumerated() {
                out[k + whole] |= limb << bits
                if bits > 0 { out[k + whole + 1] |= limb >> (32 - bits) }
            }
            return BigUInt(limbs: out)
        }
        guard whole < limbs.count else { return BigUInt(limbs: [0]) }
        var out = [UInt32](repeating: 0, count: limbs.count - whole)
        for k in out.indices {
            out[k] = limbs[k + whole] >> bits
            if bits > 0, k + whole + 1 < limbs.count { out[k] |= limbs[k + whole + 1] << (32 - bits) }
        }
        return BigUInt(limbs: out)
    }

    /// The low 128 bits.
    var low128: ShortestDouble.U128 {
        func limb(_ k: Int) -> UInt64 { k < limbs.count ? UInt64(limbs[k]) : 0 }
        return ShortestDouble.U128(low: limb(0) | limb(1) << 32, high: limb(2) | limb(3) << 32)
    }
}
