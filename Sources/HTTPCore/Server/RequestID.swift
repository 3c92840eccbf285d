import Synchronization

/// Request ids: a client's `X-Request-Id` when it is sane (1–128 characters of
/// `A-Z a-z 0-9 - _ . : / + = @`), otherwise a fresh one (random per-process prefix + counter).
public enum RequestID {
    private static let prefix: String = {
        let r = UInt32.random(in: 0...UInt32.max)
        let hex = String(r, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }()
    private static let counter = Atomic<UInt64>(0)

    /// A new id, unique within this process (`1f3a9c0e-000000000042`).
    public static func generate() -> String {
        let n = counter.wrappingAdd(1, ordering: .relaxed).newValue
        // Written into one buffer (prefix, "-", at least 12 hex digits): this runs for every request.
        var digits = 12, rest = UInt64(truncatingIfNeeded: n) >> 48
        while rest != 0 { digits += 1; rest >>= 4 }
        let head = prefix.utf8
        return String(unsafeUninitializedCapacity: head.count + 1 + digits) { buffer in
            var i = 0
            for b in head { buffer[i] = b; i += 1 }
            buffer[i] = UInt8(ascii: "-")
            var v = UInt64(truncatingIfNeeded: n)
            for k in stride(from: i + digits, to: i, by: -1) {
                let d = UInt8(v & 0xF)
                buffer[k] = d < 10 ? UInt8(ascii: "0") + d : UInt8(ascii: "a") + d - 10
                v >>= 4
            }
            return i + 1 + digits
        }
    }

    /// Whether a client-supplied id may be echoed back and logged.
    public static func isSane(_ id: String) -> Bool {
        let u = id.utf8
        guard !u.isEmpty, u.count <= 128 else { return false }
        for b in u {
            switch b {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: continue
            case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "/"),
                 UInt8(ascii: "+"), UInt8(ascii: "="), UInt8(ascii: "@"): continue
            default: return false
            }
        }
        return true
    }

    /// The client's id if sane, else a new one.
    public static func resolve(_ headers: HTTPHeaders) -> String {
        if let given = headers["x-request-id"], isSane(given) { return given }
        return generate()
    }
}
