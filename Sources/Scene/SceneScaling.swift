import Glibc
import Ephemeris

/// The scene scaling every drawing shares (the viewer, `/v1/scene`, the pictures): log distances, square-root radii, compressed moon
/// orbits. Golden values (tests): Earth at 1 AU → 16.48, Jupiter at 5.2 AU → 36.5, Earth's
/// radius → 0.100, Jupiter's → 0.331, the Moon's → 0.027 at 17.6 Earth radii, the Sun 0.8.
public enum SceneScaling {
    /// Distance scale: `15 · ln(1 + AU / 0.5)`.
    public static let distanceFactor = 15.0
    public static let distanceKneeAU = 0.5
    /// Radius scale: `√km × 0.00125`.
    public static let radiusFactor = 0.00125
    public static let minimumPlanetRadius = 0.03
    /// The Sun's scene radius: 0.8 (the square-root formula is for
    /// planets; it would give 1.04).
    public static let sunRadius = 0.8
    public static let minimumMoonRadius = 0.012
    /// Moon distance compression: `parentSceneRadius × (a / parentRadius)^0.6 × 1.5`.
    public static let moonDistanceExponent = 0.6
    public static let moonDistanceFactor = 1.5

    /// Scene distance of a heliocentric distance in AU.
    @inlinable public static func sceneDistance(au: Double) -> Double {
        distanceFactor * log(1 + au / distanceKneeAU)
    }

    /// Inverse of ``sceneDistance(au:)``.
    @inlinable public static func astronomicalUnits(sceneDistance s: Double) -> Double {
        distanceKneeAU * (exp(s / distanceFactor) - 1)
    }

    /// Scene radius of a planet (or Pluto) of the given radius; the Sun is ``sunRadius``.
    @inlinable public static func planetRadius(km: Double) -> Double {
        max(minimumPlanetRadius, km.squareRoot() * radiusFactor)
    }

    /// Scene radius of a moon: its parent's scene radius times the real radius ratio.
    @inlinable public static func moonRadius(km: Double, parentKm: Double, parentSceneRadius: Double) -> Double {
        guard parentKm > 0 else { return minimumMoonRadius }
        return max(minimumMoonRadius, parentSceneRadius * km / parentKm)
    }

    /// Scene distance of a moon from its parent's centre, from its semi-major axis.
    @inlinable public static func moonDistance(semiMajorAxisKm a: Double, parentKm: Double, parentSceneRadius: Double) -> Double {
        guard parentKm > 0, a > 0 else { return 0 }
        return parentSceneRadius * pow(a / parentKm, moonDistanceExponent) * moonDistanceFactor
    }
}

/// Ecliptic J2000 → scene axes: scene = (x, z, −y), a −90° rotation about x (Y-up, so
/// quaternions stay proper rotations and orbits run counter-clockwise seen from +Y).
public enum SceneAxes {
    /// The rotation ecliptic J2000 → scene.
    public static let fromEcliptic = Matrix3.rotationX(-Double.pi / 2)
    /// −90° about x as a quaternion.
    public static let fromEclipticQuaternion = Quaternion(angle: -Double.pi / 2, axis: Vector3(1, 0, 0))
    /// A Y-up model (north +Y, prime meridian +X) → IAU body-fixed (north +z, prime meridian +x): +90° about x.
    public static let modelToBodyQuaternion = Quaternion(angle: Double.pi / 2, axis: Vector3(1, 0, 0))

    @inlinable public static func scene(fromEcliptic v: Vector3) -> Vector3 {
        Vector3(v.x, v.z, -v.y)
    }

    @inlinable public static func ecliptic(fromScene v: Vector3) -> Vector3 {
        Vector3(v.x, -v.z, v.y)
    }

    /// The quaternion orienting a Y-up model in the scene frame, from the body-fixed → ecliptic one.
    @inlinable public static func sceneQuaternion(bodyToEcliptic q: Quaternion) -> Quaternion {
        (fromEclipticQuaternion * q * modelToBodyQuaternion).normalized
    }
}
