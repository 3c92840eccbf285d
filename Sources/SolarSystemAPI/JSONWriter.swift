import Ephemeris
/// A streaming JSON writer with a fixed key order and round-trip number formatting, writing
/// UTF-8 straight into a byte buffer (no intermediate `String`s or dictionaries on hot paths).
///
/// ```swift
/// var w = JSONWriter()
/// w.object { w in w.key("id"); w.string("earth"); w.key("position"); w.numbers([1, 2, 3]) }
/// w.bytes // {"id":"earth","position":[1,2,3]}
/// ```
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    /// Whether the open object or array (bit `depth`; bit 0 the top level) already holds a
    /// value, as a stack of bits: no array to check and mutate per value.
    private var needsComma: UInt64 = 0
    private var depth = 0

    public init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    private mutating func separate() {
        let bit: UInt64 = 1 << UInt64(depth)
        if needsComma & bit != 0 { bytes.append(UInt8(ascii: ",")) }
        needsComma |= bit
    }

    fileprivate mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        depth += 1
        precondition(depth < 64, "JSON nested deeper than 63 levels")
        needsComma &= ~(1 << UInt64(depth))
    }

    fileprivate mutating func close(_ bracket: UInt8) {
        depth -= 1
        bytes.append(bracket)
    }

    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "{"))
        body(&self)
        close(UInt8(ascii: "}"))
    }

    public mutating func array(_ body: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "["))
        body(&self)
        close(UInt8(ascii: "]"))
    }

    /// Writes `"name":` — the next value belongs to it.
    public mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma &= ~(1 << UInt64(depth))
    }

    public mutating func string(_ s: String) {
        separate()
        appendQuoted(s)
    }

    /// A string whose ASCII bytes (nothing to escape) `write` appends, with no `String` built.
    public mutating func string(writingASCII write: (inout [UInt8]) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        write(&bytes)
        bytes.append(UInt8(ascii: "\""))
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

    /// A finite number in its shortest round-trip form (integers below 10¹⁵ without `.0`, the
    /// rest as `description` spells them, written by `ShortestDouble`); non-finite values are
    /// written as null (JSON has no NaN) — callers validate so that this never happens in practice.
    public mutating func number(_ v: Double) {
        separate()
        Self.appendNumber(v, to: &bytes)
    }

    /// `number`'s text appended to `bytes`.
    static func appendNumber(_ v: Double, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ShortestDouble.maxBytes) { buffer in
            let n = writeNumber(v, to: buffer.baseAddress!)
            bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress!, count: n))
        }
    }

    /// Writes `number`'s text at `p` (room for `ShortestDouble.maxBytes`) and returns its length,
    /// for writers of fixed layouts (series rows) that write straight into their buffer.
    static func writeNumber(_ v: Double, to p: UnsafeMutablePointer<UInt8>) -> Int {
        guard v.isFinite else {
            p[0] = 0x6E; p[1] = 0x75; p[2] = 0x6C; p[3] = 0x6C
            return 4
        }
        // Integral below 10¹⁵ (the truncating conversion, not libm's round): no ".0".
        if abs(v) < 1e15, Double(Int64(v)) == v {
            let i = Int64(v)
            var n = 0
            if i < 0 { p[0] = UInt8(ascii: "-"); n = 1 }
            let count = ShortestDouble.digitCount(i.magnitude)
            _ = ShortestDouble.writeDigits(i.magnitude, endingAt: p + n + count)
            return n + count
        }
        return ShortestDouble.format(v, into: p)
    }

    /// `[x, y, z]` with `number` formatting.
    public mutating func numbers(_ v: Vector3) {
        array { w in
            w.number(v.x)
            w.number(v.y)
            w.number(v.z)
        }
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
    /// (Formed right to left in a stack buffer and appended once: a trajectory body writes
    /// 30,000 of these, and growing the array digit by digit was a quarter of its encoding.)
    private mutating func appendDigits(_ n: UInt64, minimumWidth: Int) {
        let capacity = 24   // UInt64 has at most 20 digits; `fixed` pads to at most 18
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var i = capacity, m = n
            repeat {
                i -= 1
                buffer[i] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: m % 10)
                m /= 10
            } while m > 0
            while capacity - i < min(minimumWidth, capacity) {
                i -= 1
                buffer[i] = UInt8(ascii: "0")
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[i...]))
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

    /// The bytes written so far, handed over and cleared: the writer keeps its place (what is
    /// open, what already holds a value), so writing goes on where it stopped.
    fileprivate mutating func takeBytes() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &bytes)
        return taken
    }

    fileprivate mutating func reserve(_ count: Int) {
        bytes.reserveCapacity(bytes.count + count)
    }

    private mutating func appendQuoted(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        // Keys and ids have nothing to escape: copy them whole.
        let plain = s.utf8.withContiguousStorageIfAvailable { u -> Bool in
            guard u.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C && $0 != 0x7F }) else { return false }
            bytes.append(contentsOf: u)
            return true
        }
        if plain == true {
            bytes.append(UInt8(ascii: "\""))
            return
        }
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

extension JSONWriter {
    /// One JSON document written and sent in pieces, for answers too long to hold whole (series,
    /// observer tables, orbits): objects and arrays are opened and stay open from piece to piece,
    /// values go into the innermost one through a `JSONWriter` — which places every comma,
    /// knowing what each open container already holds, across pieces — and `chunk()` hands over
    /// what was written since the last piece. No bytes are patched: the head is not a closed
    /// object reopened, rows do not place their own commas.
    ///
    /// ```swift
    /// var doc = JSONWriter.Stream()
    /// doc.openObject { w in w.key("count"); w.int(3) }
    /// doc.openArray("samples")
    /// doc.chunk()                                   // {"count":3,"samples":[
    /// doc.write { w in w.int(1); w.int(2) }
    /// doc.chunk()                                   // 1,2
    /// doc.write { w in w.int(3) }
    /// doc.close()
    /// doc.close()
    /// doc.chunk()                                   // ,3]}
    /// ```
    public struct Stream: Sendable {
        private var writer: JSONWriter
        /// The closing bracket of each open container, the innermost last.
        private var open: [UInt8] = []
        private var opened = false

        /// `capacity`: the bytes reserved for the first piece (`reserveCapacity` for later ones).
        public init(capacity: Int = 1024) {
            writer = JSONWriter(capacity: capacity)
        }

        /// Opens an object (a value of the open array, or the document) and writes `members`
        /// into it; it stays open for more.
        public mutating func openObject(_ members: (inout JSONWriter) throws -> Void) rethrows {
            writer.open(UInt8(ascii: "{"))
            open.append(UInt8(ascii: "}"))
            opened = true
            try members(&writer)
        }

        /// Opens the array member `key` of the open object (`"key":[`), or, without a key, an
        /// array that is a value of the open array (or the document).
        public mutating func openArray(_ key: String? = nil) {
            if let key { writer.key(key) }
            writer.open(UInt8(ascii: "["))
            open.append(UInt8(ascii: "]"))
            opened = true
        }

        /// Writes values (members of the open object, elements of the open array) through the
        /// writer: a comma before each unless it is the container's first, whichever piece held
        /// the ones before.
        public mutating func write(_ body: (inout JSONWriter) throws -> Void) rethrows {
            try body(&writer)
        }

        /// Elements of the open array already encoded and separated by commas (none before the
        /// first, none after the last: fixed layouts written straight into a buffer, such as
        /// series rows), with a comma before them unless the array is still empty.
        public mutating func write(elements json: [UInt8]) {
            guard !json.isEmpty else { return }
            writer.reserve(json.count + 1)
            writer.raw(json)
        }

        /// Room for `count` more bytes in the piece being written.
        public mutating func reserveCapacity(_ count: Int) {
            writer.reserve(count)
        }

        /// Closes the innermost open container.
        public mutating func close() {
            guard let bracket = open.popLast() else { preconditionFailure("JSONWriter.Stream: nothing open to close") }
            writer.close(bracket)
        }

        /// Whether the document has been opened and everything in it closed again.
        public var isComplete: Bool { opened && open.isEmpty }

        /// What was written since the last piece: the next piece to send.
        public mutating func chunk() -> [UInt8] {
            writer.takeBytes()
        }
    }
}
