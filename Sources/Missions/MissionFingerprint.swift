extension MissionEngine {
    /// Bumped whenever a change here alters sampled or telemetry output, so cached trajectory
    /// samples keyed on it (with ``Mission/dataHash``) never go stale.
    public static let engineVersion = "missions-2"
}

extension Mission {
    /// A stable 64-bit FNV-1a hash (16 hex digits) of every field of the mission, numbers by their
    /// IEEE bit patterns: the same data gives the same hash on every run and machine, and any
    /// edit of the mission's data changes it. Cache key: engineVersion + dataHash + query.
    public var dataHash: String {
        var h = FNV1a()
        h.add(id); h.add(name); h.add(subtitle); h.add(launchDate); h.add(durationHours)
        h.add(flybyTimeHours); h.add(referenceFrame.rawValue); h.add(autoTrajectory?.rawValue)
        h.add(events.count)
        for e in events {
            h.add(e.timeHours); h.add(e.name); h.add(e.detail); h.add(e.showLabel)
        }
        h.add(vehicles.count)
        for v in vehicles {
            h.add(v.id); h.add(v.name); h.add(v.color.r); h.add(v.color.g); h.add(v.color.b); h.add(v.primary)
            h.add(v.autoTrajectory?.rawValue)
            for o in [v.moonOrbit, v.moonOrbitReturn] {
                h.add(o?.startHours); h.add(o?.endHours); h.add(o?.periodHours); h.add(o?.radiusKm)
            }
            h.add(v.moonLanding?.startHours); h.add(v.moonLanding?.endHours)
            h.add(v.waypoints.count)
            for w in v.waypoints {
                h.add(w.timeHours); h.add(w.position.x); h.add(w.position.y); h.add(w.position.z)
                h.add(w.anchorMoon); h.add(w.anchorBody?.rawValue)
            }
        }
        h.add(physics?.source)
        h.add(physics?.orbit?.startHours); h.add(physics?.orbit?.endHours); h.add(physics?.orbit?.altitudeKm)
        h.add(physics?.flyby?.timeHours); h.add(physics?.flyby?.altitudeKm)
        if let l = physics?.landing {
            h.add(l.vehicleID); h.add(l.startHours); h.add(l.endHours); h.add(l.latitudeDeg); h.add(l.longitudeDeg)
            h.add(l.descentHours); h.add(l.ascentHours)
        } else {
            h.add(nil as String?)
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
