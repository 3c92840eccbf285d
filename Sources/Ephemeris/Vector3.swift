import Glibc

/// A 3-vector of doubles. Frame and unit live in the name of whatever holds it
/// (`positionAU`, `velocityKmPerSecond`), never in the type, so the maths stays one type.
public struct Vector3: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var z: Double

    @inlinable public init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x; self.y = y; self.z = z
    }

    public static let zero = Vector3(0, 0, 0)

    @inlinable public var array: [Double] { [x, y, z] }
    @inlinable public var length: Double { (x * x + y * y + z * z).squareRoot() }
    @inlinable public var lengthSquared: Double { x * x + y * y + z * z }
    @inlinable public var normalized: Vector3 {
        let l = length
        return l > 0 ? self / l : self
    }
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

    @inlinable public func dot(_ o: Vector3) -> Double { x * o.x + y * o.y + z * o.z }
    @inlinable public func cross(_ o: Vector3) -> Vector3 {
        Vector3(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x)
    }
    /// Angle between two directions in radians, stable for tiny angles (atan2 of |a×b| and a·b).
    @inlinable public func angle(to o: Vector3) -> Double {
        let c = cross(o).length
        return atan2(c, dot(o))
    }

    @inlinable public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    @inlinable public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    @inlinable public static prefix func - (a: Vector3) -> Vector3 { Vector3(-a.x, -a.y, -a.z) }
    @inlinable public static func * (a: Vector3, s: Double) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }
    @inlinable public static func * (s: Double, a: Vector3) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }
    @inlinable public static func / (a: Vector3, s: Double) -> Vector3 { Vector3(a.x / s, a.y / s, a.z / s) }
    @inlinable public static func += (a: inout Vector3, b: Vector3) { a = a + b }
    @inlinable public static func -= (a: inout Vector3, b: Vector3) { a = a - b }

    public var description: String { "(\(x), \(y), \(z))" }
}
