import Ephemeris

/// The equatorial and polar radii of the bodies whose shape matters to an observer's
/// quantities (angular diameter, planetodetic sub-points): the IAU Working Group on Cartographic
/// Coordinates and Rotational Elements, 2015 report (Archinal et al. 2018, *Celest. Mech. Dyn.
/// Astron.* 130:22, table 5; the Sun: IAU 2015 Resolution B3). Other bodies are spheres of the
/// catalogue's mean radius.
public enum BodyShapes {
    /// Equatorial and polar radius, km.
    public static func radiiKm(_ body: BodyID, catalogue: Catalogue) -> (equatorial: Double, polar: Double) {
        switch body {
        case .sun: return (695_700, 695_700)
        case .mercury: return (2_440.53, 2_438.26)
        case .venus: return (6_051.8, 6_051.8)
        case .earth: return (6_378.1366, 6_356.7519)
        case .moon: return (1_737.4, 1_737.4)
        case .mars: return (3_396.19, 3_376.20)
        case .jupiter: return (71_492, 66_854)
        case .saturn: return (60_268, 54_364)
        case .uranus: return (25_559, 24_973)
        case .neptune: return (24_764, 24_341)
        case .pluto: return (1_188.3, 1_188.3)
        default:
            let r = catalogue[body].radiusKm
            return (r, r)
        }
    }

    /// Whether planetographic longitudes on `body` increase to the west (the IAU's rule: west
    /// for bodies that spin prograde, east for retrograde ones and, by tradition, for the Sun,
    /// the Earth and the Moon).
    public static func westLongitudes(_ body: BodyID, rotation: IAURotationElements?) -> Bool {
        switch body {
        case .sun, .earth, .moon: return false
        default: return (rotation?.primeMeridianRateDegPerDay ?? 1) > 0
        }
    }
}
