import Glibc
import Ephemeris

/// A place on the WGS 84 ellipsoid: geodetic latitude and longitude (east positive), height
/// above the ellipsoid.
///
/// ```swift
/// let paris = try Observer(latitudeDeg: 48.8566, longitudeDeg: 2.3522, elevationM: 35)
/// ```
public struct Observer: Sendable, Hashable {
    public let latitudeDeg: Double
    public let longitudeDeg: Double
    public let elevationM: Double
    /// Position in the terrestrial frame (ITRS axes), km.
    public let terrestrialKm: Vector3
    /// Local zenith, east and north as unit vectors in the terrestrial frame.
    public let up: Vector3
    public let east: Vector3
    public let north: Vector3

    public static let latitudeRange = -90.0...90.0
    public static let longitudeRange = -180.0...180.0
    public static let elevationRange = -500.0...10_000.0

    public init(latitudeDeg: Double, longitudeDeg: Double, elevationM: Double = 0) throws(ObserverError) {
        guard latitudeDeg.isFinite, Self.latitudeRange.contains(latitudeDeg) else { throw .latitude(latitudeDeg) }
        guard longitudeDeg.isFinite, Self.longitudeRange.contains(longitudeDeg) else { throw .longitude(longitudeDeg) }
        guard elevationM.isFinite, Self.elevationRange.contains(elevationM) else { throw .elevation(elevationM) }
        self.latitudeDeg = latitudeDeg
        self.longitudeDeg = longitudeDeg
        self.elevationM = elevationM
        let phi = latitudeDeg * Angle.radiansPerDegree, lambda = longitudeDeg * Angle.radiansPerDegree
        let sp = sin(phi), cp = cos(phi), sl = sin(lambda), cl = cos(lambda)
        let a = SkyConstants.wgs84EquatorialRadiusKm, f = SkyConstants.wgs84Flattening
        let e2 = f * (2 - f)
        let n = a / (1 - e2 * sp * sp).squareRoot()
        let h = elevationM / 1000
        terrestrialKm = Vector3((n + h) * cp * cl, (n + h) * cp * sl, (n * (1 - e2) + h) * sp)
        up = Vector3(cp * cl, cp * sl, sp)
        east = Vector3(-sl, cl, 0)
        north = Vector3(-sp * cl, -sp * sl, cp)
    }

    /// A site given by its geocentric place, as the MPC's observatory codes and Horizons'
    /// `COORD_TYPE=CYLINDRICAL` give it: east longitude, and the distances from the Earth's axis
    /// and from its equatorial plane (km). The geodetic latitude and height follow on the
    /// WGS 84 ellipsoid (Bowring's iteration); the height is not range-checked (published
    /// parallax constants of old sites put them kilometres off the ellipsoid), the place is
    /// kept exactly.
    public init(longitudeDeg: Double, axisDistanceKm p: Double, equatorDistanceKm z: Double) throws(ObserverError) {
        guard longitudeDeg.isFinite else { throw .longitude(longitudeDeg) }
        guard p.isFinite, z.isFinite, p >= 0, (p * p + z * z).squareRoot() < 100_000 else { throw .elevation(p) }
        let a = SkyConstants.wgs84EquatorialRadiusKm, f = SkyConstants.wgs84Flattening
        let e2 = f * (2 - f), b = a * (1 - f)
        var phi = atan2(z, p * (1 - e2))
        for _ in 0..<5 {
            let s = sin(phi)
            let n = a / (1 - e2 * s * s).squareRoot()
            phi = atan2(z + e2 * n * s, p)
        }
        let s = sin(phi), c = cos(phi)
        let n = a / (1 - e2 * s * s).squareRoot()
        let h = abs(c) > 1e-9 ? p / c - n : abs(z) - b
        var lon = Angle.normalizedDegrees(longitudeDeg)
        if lon > 180 { lon -= 360 }
        self.latitudeDeg = phi * Angle.degreesPerRadian
        self.longitudeDeg = lon
        self.elevationM = h * 1000
        let lambda = lon * Angle.radiansPerDegree
        terrestrialKm = Vector3(p * cos(lambda), p * sin(lambda), z)
        up = Vector3(c * cos(lambda), c * sin(lambda), s)
        east = Vector3(-sin(lambda), cos(lambda), 0)
        north = Vector3(-s * cos(lambda), -s * sin(lambda), c)
    }
}

/// Why an observer could not be placed; each names the value and what is accepted.
public enum ObserverError: Error, Sendable, Equatable, CustomStringConvertible {
    case latitude(Double), longitude(Double), elevation(Double)

    public var parameter: String {
        switch self {
        case .latitude: return "lat"
        case .longitude: return "lon"
        case .elevation: return "elevation"
        }
    }

    public var accepted: String {
        switch self {
        case .latitude: return "degrees from -90 to 90 (geodetic, WGS 84, north positive)"
        case .longitude: return "degrees from -180 to 180 (east positive)"
        case .elevation: return "metres from -500 to 10000 above the WGS 84 ellipsoid"
        }
    }

    public var description: String {
        switch self {
        case let .latitude(v), let .longitude(v), let .elevation(v): return "\(parameter) \(v) is out of range; accepted: \(accepted)"
        }
    }
}
