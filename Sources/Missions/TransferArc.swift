#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Ephemeris

/// The seeds' Hohmann-style transfer arc between two heliocentric points (Perseverance:
/// Earth at launch → Mars at arrival), expanded into samples the Catmull-Rom resampler smooths.
///
/// For each fraction f ∈ [0, 1]: angle = a0 + sweep·f (sweep made positive: prograde),
/// r = r0 + (r1 − r0)·f + bulge·(r0 + r1)·sin(π·f), bulge = +0.05 outbound, −0.03 inbound,
/// z = lerp(z0, z1, f); time runs linearly from t0 to t1.
public enum TransferArc {
    /// Samples per segment (the seeds' "12 samples × N segments").
    public static let samplesPerSegment = 12
    public static let outboundBulge = 0.05
    public static let inboundBulge = -0.03

    /// The arc point at fraction `f` from `from` to `to` (AU, ecliptic).
    public static func point(from p0: Vector3, to p1: Vector3, fraction f: Double) -> Vector3 {
        if f <= 0 { return p0 }
        if f >= 1 { return p1 }
        let r0 = p0.length, r1 = p1.length
        let a0 = atan2(p0.y, p0.x), a1 = atan2(p1.y, p1.x)
        let sweep = proGradeSweep(from: a0, to: a1)
        let angle = a0 + sweep * f
        let bulge = r1 > r0 ? outboundBulge : inboundBulge
        let r = r0 + (r1 - r0) * f + bulge * (r0 + r1) * sin(Double.pi * f)
        return Vector3(r * cos(angle), r * sin(angle), p0.z + (p1.z - p0.z) * f)
    }

    /// `a1 − a0` brought into (0, 2π]: counter-clockwise seen from the ecliptic north pole.
    public static func proGradeSweep(from a0: Double, to a1: Double) -> Double {
        var s = a1 - a0
        while s <= 0 { s += 2 * Double.pi }
        while s > 2 * Double.pi { s -= 2 * Double.pi }
        return s
    }

    /// Expands every consecutive pair of (time, point) into `samplesPerSegment` samples
    /// (f = k/12, k = 0…11), then appends the last point: 12·(n − 1) + 1 points, times strictly
    /// increasing, every input point kept exactly at its own time.
    public static func expand(times: [Double], points: [Vector3]) -> (times: [Double], points: [Vector3]) {
        precondition(times.count == points.count, "one time per point")
        guard points.count >= 2 else { return (times, points) }
        var outTimes: [Double] = [], outPoints: [Vector3] = []
        outTimes.reserveCapacity(samplesPerSegment * (points.count - 1) + 1)
        outPoints.reserveCapacity(samplesPerSegment * (points.count - 1) + 1)
        for i in 0..<(points.count - 1) {
            for k in 0..<samplesPerSegment {
                let f = Double(k) / Double(samplesPerSegment)
                outTimes.append(times[i] + (times[i + 1] - times[i]) * f)
                outPoints.append(point(from: points[i], to: points[i + 1], fraction: f))
            }
        }
        outTimes.append(times[times.count - 1])
        outPoints.append(points[points.count - 1])
        return (outTimes, outPoints)
    }
}
