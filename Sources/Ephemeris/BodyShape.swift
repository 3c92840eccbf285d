import Glibc

/// A body's reference spheroid: equatorial and polar radii, km, from the IAU Working Group on
/// Cartographic Coordinates and Rotational Elements 2015 (Archinal et al. 2018, Celest. Mech.
/// Dyn. Astron. 130:22, table 5 for the planets, 6 for the satellites; a triaxial satellite's
/// two equatorial axes averaged). Altitudes above it are what telemetry reports: Juno's perijoves
/// are 4,200 km above Jupiter's clouds near 66,854 km from the centre at the pole, 71,492 km at
/// the equator.
public struct BodyShape: Sendable, Hashable {
    public let equatorialRadiusKm: Double
    public let polarRadiusKm: Double

    public static func of(_ body: BodyID) -> BodyShape? {
        switch body {
        case .sun: return BodyShape(equatorialRadiusKm: 695_700, polarRadiusKm: 695_700)
        case .mercury: return BodyShape(equatorialRadiusKm: 2_440.53, polarRadiusKm: 2_438.26)
        case .venus: return BodyShape(equatorialRadiusKm: 6_051.8, polarRadiusKm: 6_051.8)
        case .earth: return BodyShape(equatorialRadiusKm: 6_378.1366, polarRadiusKm: 6_356.7519)
        case .mars: return BodyShape(equatorialRadiusKm: 3_396.19, polarRadiusKm: 3_376.20)
        case .jupiter: return BodyShape(equatorialRadiusKm: 71_492, polarRadiusKm: 66_854)
        case .saturn: return BodyShape(equatorialRadiusKm: 60_268, polarRadiusKm: 54_364)
        case .uranus: return BodyShape(equatorialRadiusKm: 25_559, polarRadiusKm: 24_973)
        case .neptune: return BodyShape(equatorialRadiusKm: 24_764, polarRadiusKm: 24_341)
        case .pluto: return BodyShape(equatorialRadiusKm: 1_188.3, polarRadiusKm: 1_188.3)
        case .moon: return BodyShape(equatorialRadiusKm: 1_737.4, polarRadiusKm: 1_737.4)
        case .phobos: return BodyShape(equatorialRadiusKm: 12.2, polarRadiusKm: 9.1)
        case .deimos: return BodyShape(equatorialRadiusKm: 6.9, polarRadiusKm: 5.1)
        case .io: return BodyShape(equatorialRadiusKm: 1_824.4, polarRadiusKm: 1_815.7)
        case .europa: return BodyShape(equatorialRadiusKm: 1_561.45, polarRadiusKm: 1_559.5)
        case .ganymede: return BodyShape(equatorialRadiusKm: 2_631.2, polarRadiusKm: 2_631.2)
        case .callisto: return BodyShape(equatorialRadiusKm: 2_410.3, polarRadiusKm: 2_410.3)
        case .mimas: return BodyShape(equatorialRadiusKm: 202.25, polarRadiusKm: 190.6)
        case .enceladus: return BodyShape(equatorialRadiusKm: 254.0, polarRadiusKm: 248.3)
        case .tethys: return BodyShape(equatorialRadiusKm: 533.35, polarRadiusKm: 526.3)
        case .dione: return BodyShape(equatorialRadiusKm: 562.35, polarRadiusKm: 559.6)
        case .rhea: return BodyShape(equatorialRadiusKm: 764.05, polarRadiusKm: 762.4)
        case .titan: return BodyShape(equatorialRadiusKm: 2_574.965, polarRadiusKm: 2_574.47)
        case .iapetus: return BodyShape(equatorialRadiusKm: 745.7, polarRadiusKm: 712.1)
        case .iss: return nil
        }
    }

    /// Height above the spheroid (negative inside) of a point `r` km from the body's centre,
    /// `pole` the unit north pole in the same axes: the geodetic height, by Bowring's method
    /// (three iterations hold it to millimetres even for Saturn's 10 % flattening).
    public func altitudeKm(of r: Vector3, pole: Vector3) -> Double {
        let a = equatorialRadiusKm, c = polarRadiusKm
        let z = r.dot(pole), rho = (r - pole * z).length
        guard a > c else { return r.length - a }
        let e2 = 1 - (c * c) / (a * a), ep2 = (a * a) / (c * c) - 1
        var beta = atan2(a * z, c * rho)
        var phi = 0.0
        for _ in 0..<3 {
            let sb = sin(beta), cb = cos(beta)
            phi = atan2(z + ep2 * c * sb * sb * sb, rho - e2 * a * cb * cb * cb)
            beta = atan2(c * sin(phi), a * cos(phi))
        }
        let sp = sin(phi), cp = cos(phi)
        let n = a / (1 - e2 * sp * sp).squareRoot()
        // The form that stays exact at both the equator and the poles.
        return rho * cp + z * sp - a * a / n
    }
}
