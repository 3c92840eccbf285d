import Ephemeris
/// A streaming JSON writer with a fixed key order and round-trip number formatting, writing
/// UTF-8 straight into a byte buffer (no intermediate `String`s or dictionaries on hot paths).
///
/// ```swift
/// var w = JSONWriter()
/// w.object { w.key("id"); w.string("earth"); w.key("position"); w.numbers([1, 2, 3]) }
/// w.bytes // {"id":"earth","position":[1,2,3]}
/// ```
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = [false]

    public init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
        body(&self)
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    public mutating func array(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma.append(false)
        body(&self)
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes `"name":` — the next value belongs to it.
    public mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma[needsComma.count - 1] = false
    }

    public mutating func string(_ s: String) {
        separate()
        appendQuoted(s)
    }

    public mutating func optionalString(_ s: String?) {
        if let s { string(s) } else { null() }
    }

    public mutating func bool(_ b: Bool) {
        separate()
        bytes.append(contentsOf: b ? Array("true".utf8) : Array("false".utf8))
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
    }

    public mutating func int(_ v: Int) {
        separate()
        bytes.append(contentsOf: String(v).utf8)
    }

    /// A finite number in its shortest round-trip form; non-finite values are written as null
    /// (JSON has no NaN) — callers validate so that this never happens in practice.
    public mutating func number(_ v: Double) {
        separate()
        guard v.isFinite else {
            bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
            return
        }
        if v == v.rounded(), abs(v) < 1e15 {
            bytes.append(contentsOf: String(Int64(v)).utf8)
            return
        }
        bytes.append(contentsOf: v.description.utf8)
    }

    /// A number rounded to `digits` decimal places (for values whose precision is known).
    public mutating func number(_ v: Double, decimals digits: Int) {
        guard v.isFinite else { number(v); return }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        number((v * scale).rounded() / scale)
    }

    /// A number with at most `digits` (0…9) decimals, written straight from an integer: no
    /// `Double.description` and no allocation, for bulk output (trajectories). Trailing zeros
    /// are dropped.
    public mutating func fixed(_ v: Double, decimals digits: Int) {
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = (v * Double(scale)).rounded()
        guard v.isFinite, abs(scaled) < 9e17 else { number(v); return }
        separate()
        var n = Int64(scaled)
        if n < 0 { bytes.append(UInt8(ascii: "-")); n = -n }
        appendDigits(UInt64(n / scale), minimumWidth: 1)
        var frac = n % scale
        guard frac != 0 else { return }
        var width = digits
        while frac % 10 == 0 { frac /= 10; width -= 1 }
        bytes.append(UInt8(ascii: "."))
        appendDigits(UInt64(frac), minimumWidth: width)
    }

    /// Decimal digits of `n`, left-padded with zeros to `minimumWidth`, written in place.
    private mutating func appendDigits(_ n: UInt64, minimumWidth: Int) {
        var count = 1, probe = n
        while probe >= 10 { probe /= 10; count += 1 }
        let width = max(count, minimumWidth)
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width))
        var i = start + width - 1, m = n
        while m > 0 {
            bytes[i] = UInt8(ascii: "0") + UInt8(m % 10)
            m /= 10
            i -= 1
        }
    }

    /// `[x, y, z]` with `fixed` formatting.
    public mutating func fixed(_ v: Vector3, decimals digits: Int) {
        array { w in
            w.fixed(v.x, decimals: digits)
            w.fixed(v.y, decimals: digits)
            w.fixed(v.z, decimals: digits)
        }
    }

    public mutating func numbers(_ values: [Double]) {
        array { w in for v in values { w.number(v) } }
    }

    /// Appends already-encoded JSON (one complete value).
    public mutating func raw(_ json: [UInt8]) {
        separate()
        bytes.append(contentsOf: json)
    }

    private mutating func appendQuoted(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x00..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0xF)]])
            default: bytes.append(b)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
