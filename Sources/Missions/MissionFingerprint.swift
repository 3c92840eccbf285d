extension MissionEngine {
    /// Bumped whenever a change here alters sampled or telemetry output, so cached trajectory
    /// samples keyed on it (with ``Mission/dataHash``) never go stale.
    public static let engineVersion = "missions-8"
}

extension Mission {
    /// A stable 64-bit FNV-1a hash (16 hex digits) of every field of the mission, numbers by their
    /// IEEE bit patterns: the same data gives the same hash on every run and machine, and any
    /// edit of the mission's data changes it. The kernels' contents are not in it: the caller
    /// adds their identity (``dataHash(kernels:)``).
    public var dataHash: String { dataHash(kernels: []) }

    /// The hash with the identities (e.g. CRC-32s) of the kernels the trajectories come from,
    /// so a changed or added kernel invalidates cached samples.
    public func dataHash(kernels identities: [String]) -> String {
        var h = FNV1a()
        h.add(id); h.add(name); h.add(subtitle); h.add(launchDate); h.add(end.map(\.jdTT))
        h.add(referenceFrame.rawValue); h.add(trajectorySummary)
        h.add(kernels.count)
        for k in kernels { h.add(k) }
        h.add(identities.count)
        for k in identities { h.add(k) }
        h.add(events.count)
        for e in events {
            h.add(e.key); h.add(e.timeHours); h.add(e.name); h.add(e.detail); h.add(e.showLabel)
            h.add(e.fact?.body?.rawValue); h.add(e.fact?.distanceKm); h.add(e.fact?.altitudeKm); h.add(e.fact?.speedKmS); h.add(e.fact?.source)
        }
        h.add(vehicles.count)
        for v in vehicles {
            h.add(v.id); h.add(v.name); h.add(v.naifID); h.add(v.color.r); h.add(v.color.g); h.add(v.color.b); h.add(v.primary)
            h.add(v.startHours); h.add(v.endHours)
            h.add(v.phases.count)
            for p in v.phases { h.add(p.name); h.add(p.kind.rawValue); h.add(p.startHours); h.add(p.endHours); h.add(p.body?.rawValue) }
            switch v.extrapolation {
            case nil: h.add(nil as String?)
            case .solarSystemBarycenter?: h.add("ssb")
            case let .body(b)?: h.add(b.rawValue)
            }
        }
        return h.hex
    }
}

/// 64-bit FNV-1a with a length/tag prefix per field so adjacent fields cannot run together.
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func byte(_ b: UInt8) {
        value ^= UInt64(b)
        value &*= 0x0000_0100_0000_01b3
    }

    mutating func add(_ x: UInt64) { for i in 0..<8 { byte(UInt8(truncatingIfNeeded: x >> (8 * UInt64(i)))) } }
    mutating func add(_ x: Int) { byte(1); add(UInt64(bitPattern: Int64(x))) }
    mutating func add(_ x: Double) { byte(2); add(x.bitPattern) }
    mutating func add(_ x: Bool) { byte(3); byte(x ? 1 : 0) }
    mutating func add(_ s: String) {
        byte(4)
        let bytes = Array(s.utf8)
        add(UInt64(bytes.count))
        for b in bytes { byte(b) }
    }
    mutating func add(_ x: Double?) { if let x { add(x) } else { byte(0) } }
    mutating func add(_ s: String?) { if let s { add(s) } else { byte(0) } }

    var hex: String {
        let s = String(value, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
