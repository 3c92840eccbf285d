import Glibc

@inlinable public func sinDeg(_ d: Double) -> Double { sin(d * Angle.radiansPerDegree) }
@inlinable public func cosDeg(_ d: Double) -> Double { cos(d * Angle.radiansPerDegree) }

public enum Angle {
    public static let radiansPerDegree = Double.pi / 180
    public static let degreesPerRadian = 180 / Double.pi
    public static let radiansPerArcsecond = Double.pi / (180 * 3600)

    /// Reduces degrees to [0, 360).
    @inlinable public static func normalizedDegrees(_ d: Double) -> Double {
        let r = remainder360(d)
        return r < 0 ? r + 360 : r
    }

    /// `d.truncatingRemainder(dividingBy: 360)` (C's fmod), bit for bit, without fmod's
    /// bit-by-bit loop: d − 360·q is exact for |d| < 2⁵⁰ (q an integer, the two terms within a
    /// factor of two of each other), and a quotient that rounding put one off is corrected.
    @inlinable public static func remainder360(_ d: Double) -> Double {
        guard abs(d) < 0x1p50 else { return d.truncatingRemainder(dividingBy: 360) } // also NaN, ±∞
        var r = d - Double(Int64(d / 360)) * 360
        if r != 0, (r < 0) != (d < 0) {
            r += d < 0 ? -360 : 360     // the quotient was one too large
        } else if abs(r) >= 360 {
            r -= d < 0 ? -360 : 360     // one too small
        }
        return r == 0 ? Double(signOf: d, magnitudeOf: 0) : r
    }

    /// Reduces radians to (−π, π].
    @inlinable public static func normalizedSignedRadians(_ a: Double) -> Double {
        var r = a.truncatingRemainder(dividingBy: 2 * Double.pi)
        if r > Double.pi { r -= 2 * Double.pi } else if r <= -Double.pi { r += 2 * Double.pi }
        return r
    }

    @inlinable public static func radians(_ degrees: Double) -> Double { degrees * radiansPerDegree }
    @inlinable public static func degrees(_ radians: Double) -> Double { radians * degreesPerRadian }
    @inlinable public static func arcseconds(_ radians: Double) -> Double { radians / radiansPerArcsecond }
}
