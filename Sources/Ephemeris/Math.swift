#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@inlinable public func sinDeg(_ d: Double) -> Double { sin(d * Angle.radiansPerDegree) }
@inlinable public func cosDeg(_ d: Double) -> Double { cos(d * Angle.radiansPerDegree) }

public enum Angle {
    public static let radiansPerDegree = Double.pi / 180
    public static let degreesPerRadian = 180 / Double.pi
    public static let radiansPerArcsecond = Double.pi / (180 * 3600)

    /// Reduces degrees to [0, 360).
    @inlinable public static func normalizedDegrees(_ d: Double) -> Double {
        let r = d.truncatingRemainder(dividingBy: 360)
        return r < 0 ? r + 360 : r
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
