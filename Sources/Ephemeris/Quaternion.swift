import Glibc

/// A unit quaternion `[x, y, z, w]` (scalar last, as in the HTTP contract) representing a
/// proper rotation. `q.rotate(v)` equals `q.matrix * v`.
public struct Quaternion: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var z: Double
    public var w: Double

    @inlinable public init(x: Double, y: Double, z: Double, w: Double) {
        self.x = x; self.y = y; self.z = z; self.w = w
    }

    public static let identity = Quaternion(x: 0, y: 0, z: 0, w: 1)

    /// Rotation by `angle` radians about the unit `axis` (right-hand rule).
    @inlinable public init(angle: Double, axis: Vector3) {
        let h = angle / 2, s = sin(h)
        let a = axis.normalized
        self.init(x: a.x * s, y: a.y * s, z: a.z * s, w: cos(h))
    }

    /// The quaternion of a rotation matrix (Shepperd's method: picks the largest pivot, so it
    /// stays accurate near 180° turns). The result has w ≥ 0.
    public init(_ m: Matrix3) {
        let m00 = m.r0.x, m11 = m.r1.y, m22 = m.r2.z
        let trace = m00 + m11 + m22
        var q: Quaternion
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            q = Quaternion(x: (m.r2.y - m.r1.z) / s, y: (m.r0.z - m.r2.x) / s, z: (m.r1.x - m.r0.y) / s, w: s / 4)
        } else if m00 > m11 && m00 > m22 {
            let s = (1 + m00 - m11 - m22).squareRoot() * 2
            q = Quaternion(x: s / 4, y: (m.r0.y + m.r1.x) / s, z: (m.r0.z + m.r2.x) / s, w: (m.r2.y - m.r1.z) / s)
        } else if m11 > m22 {
            let s = (1 + m11 - m00 - m22).squareRoot() * 2
            q = Quaternion(x: (m.r0.y + m.r1.x) / s, y: s / 4, z: (m.r1.z + m.r2.y) / s, w: (m.r0.z - m.r2.x) / s)
        } else {
            let s = (1 + m22 - m00 - m11).squareRoot() * 2
            q = Quaternion(x: (m.r0.z + m.r2.x) / s, y: (m.r1.z + m.r2.y) / s, z: s / 4, w: (m.r1.x - m.r0.y) / s)
        }
        if q.w < 0 { q = Quaternion(x: -q.x, y: -q.y, z: -q.z, w: -q.w) }
        self = q.normalized
    }

    @inlinable public var array: [Double] { [x, y, z, w] }
    @inlinable public var norm: Double { (x * x + y * y + z * z + w * w).squareRoot() }
    @inlinable public var normalized: Quaternion {
        let n = norm
        return Quaternion(x: x / n, y: y / n, z: z / n, w: w / n)
    }
    @inlinable public var conjugate: Quaternion { Quaternion(x: -x, y: -y, z: -z, w: w) }

    /// Hamilton product: `(a * b).rotate(v) == a.rotate(b.rotate(v))`.
    @inlinable public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z
        )
    }

    @inlinable public func rotate(_ v: Vector3) -> Vector3 {
        // v' = v + 2w(u×v) + 2u×(u×v), u the vector part.
        let u = Vector3(x, y, z)
        let t = 2 * u.cross(v)
        return v + w * t + u.cross(t)
    }

    public var matrix: Matrix3 {
        let xx = x * x, yy = y * y, zz = z * z
        let xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z
        return Matrix3(
            rows: Vector3(1 - 2 * (yy + zz), 2 * (xy - wz), 2 * (xz + wy)),
            Vector3(2 * (xy + wz), 1 - 2 * (xx + zz), 2 * (yz - wx)),
            Vector3(2 * (xz - wy), 2 * (yz + wx), 1 - 2 * (xx + yy))
        )
    }

    /// Rotation angle between two orientations in radians (0…π), sign-agnostic.
    @inlinable public func angle(to o: Quaternion) -> Double {
        let d = min(1, abs(x * o.x + y * o.y + z * o.z + w * o.w))
        return 2 * acos(d)
    }
}
