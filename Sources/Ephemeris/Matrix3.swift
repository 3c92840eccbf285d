import Glibc

/// A 3×3 rotation (or general) matrix in row-major order: `m * v` rotates column vector `v`.
public struct Matrix3: Hashable, Sendable {
    public var r0: Vector3
    public var r1: Vector3
    public var r2: Vector3

    @inlinable public init(rows r0: Vector3, _ r1: Vector3, _ r2: Vector3) {
        self.r0 = r0; self.r1 = r1; self.r2 = r2
    }

    public static let identity = Matrix3(rows: Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))

    /// Active rotation by `angle` radians about x (right-handed: y toward z).
    @inlinable public static func rotationX(_ angle: Double) -> Matrix3 {
        let c = cos(angle), s = sin(angle)
        return Matrix3(rows: Vector3(1, 0, 0), Vector3(0, c, -s), Vector3(0, s, c))
    }
    /// Active rotation by `angle` radians about y (z toward x).
    @inlinable public static func rotationY(_ angle: Double) -> Matrix3 {
        let c = cos(angle), s = sin(angle)
        return Matrix3(rows: Vector3(c, 0, s), Vector3(0, 1, 0), Vector3(-s, 0, c))
    }
    /// Active rotation by `angle` radians about z (x toward y).
    @inlinable public static func rotationZ(_ angle: Double) -> Matrix3 {
        let c = cos(angle), s = sin(angle)
        return Matrix3(rows: Vector3(c, -s, 0), Vector3(s, c, 0), Vector3(0, 0, 1))
    }

    /// The matrix whose columns are the given vectors.
    @inlinable public init(columns c0: Vector3, _ c1: Vector3, _ c2: Vector3) {
        self.init(rows: Vector3(c0.x, c1.x, c2.x), Vector3(c0.y, c1.y, c2.y), Vector3(c0.z, c1.z, c2.z))
    }

    @inlinable public var transposed: Matrix3 {
        Matrix3(columns: r0, r1, r2)
    }

    @inlinable public static func * (m: Matrix3, v: Vector3) -> Vector3 {
        Vector3(m.r0.dot(v), m.r1.dot(v), m.r2.dot(v))
    }

    @inlinable public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let bt = b.transposed
        return Matrix3(
            rows: Vector3(a.r0.dot(bt.r0), a.r0.dot(bt.r1), a.r0.dot(bt.r2)),
            Vector3(a.r1.dot(bt.r0), a.r1.dot(bt.r1), a.r1.dot(bt.r2)),
            Vector3(a.r2.dot(bt.r0), a.r2.dot(bt.r1), a.r2.dot(bt.r2))
        )
    }
}
