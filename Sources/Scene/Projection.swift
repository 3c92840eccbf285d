import Glibc
import Ephemeris

/// A 4×4 matrix acting on column vectors (`m * (x, y, z, 1)`), stored by rows.
public struct Matrix4: Sendable, Hashable {
    public var r0: SIMD4<Double>
    public var r1: SIMD4<Double>
    public var r2: SIMD4<Double>
    public var r3: SIMD4<Double>

    @inlinable public init(rows r0: SIMD4<Double>, _ r1: SIMD4<Double>, _ r2: SIMD4<Double>, _ r3: SIMD4<Double>) {
        self.r0 = r0; self.r1 = r1; self.r2 = r2; self.r3 = r3
    }

    public static let identity = Matrix4(rows: [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1])

    @inlinable public static func * (m: Matrix4, v: SIMD4<Double>) -> SIMD4<Double> {
        SIMD4((m.r0 * v).sum(), (m.r1 * v).sum(), (m.r2 * v).sum(), (m.r3 * v).sum())
    }

    @inlinable public static func * (a: Matrix4, b: Matrix4) -> Matrix4 {
        let c0 = SIMD4(b.r0.x, b.r1.x, b.r2.x, b.r3.x)
        let c1 = SIMD4(b.r0.y, b.r1.y, b.r2.y, b.r3.y)
        let c2 = SIMD4(b.r0.z, b.r1.z, b.r2.z, b.r3.z)
        let c3 = SIMD4(b.r0.w, b.r1.w, b.r2.w, b.r3.w)
        func row(_ r: SIMD4<Double>) -> SIMD4<Double> { SIMD4((r * c0).sum(), (r * c1).sum(), (r * c2).sum(), (r * c3).sum()) }
        return Matrix4(rows: row(a.r0), row(a.r1), row(a.r2), row(a.r3))
    }

    /// The right-handed look-at view matrix (camera looks down its −Z, +Y up, +X right), as
    /// `simd_inverse(cameraNode.simdWorldTransform)` gives it for a SceneKit camera.
    public static func lookAt(eye: Vector3, right: Vector3, up: Vector3, back: Vector3) -> Matrix4 {
        Matrix4(
            rows: [right.x, right.y, right.z, -right.dot(eye)],
            [up.x, up.y, up.z, -up.dot(eye)],
            [back.x, back.y, back.z, -back.dot(eye)],
            [0, 0, 0, 1]
        )
    }

    /// The conventional OpenGL-style perspective matrix for a vertical field of view:
    /// f = 1 / tan(fov / 2), xScale = f / aspect, yScale = f; clip.w = −z_view (the depth).
    public static func perspective(verticalFOVRad fov: Double, aspect: Double, near: Double, far: Double) -> Matrix4 {
        let f = 1 / tan(fov / 2)
        return Matrix4(
            rows: [f / aspect, 0, 0, 0],
            [0, f, 0, 0],
            [0, 0, (far + near) / (near - far), 2 * far * near / (near - far)],
            [0, 0, -1, 0]
        )
    }
}

/// A point on screen: pixels from the top-left corner, and its depth (distance along the view
/// axis, `clip.w`, in scene units).
public struct ScreenPoint: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var depth: Double

    @inlinable public init(x: Double, y: Double, depth: Double) {
        self.x = x; self.y = y; self.depth = depth
    }
}
