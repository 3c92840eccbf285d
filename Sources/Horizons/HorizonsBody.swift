import Ephemeris
import Sky
import SmallBodies

/// A target or centre a Horizons request can name, resolved: who it is (the names Horizons
/// prints) and its path (heliocentric ecliptic J2000 km and km/s at TDB seconds past J2000; NaN
/// where it cannot be placed, which ``HorizonsContext/unavailable(_:at:)`` checks before a table
/// is written).
public struct HorizonsBody: Sendable {
    public enum Kind: Sendable, Hashable {
        case barycenter, sun, planet, satelliteOfPlanet, spacecraft, earthSatellite, smallBody
    }

    public let kind: Kind
    /// The NAIF id (major bodies, spacecraft, Earth satellites) or the small-body record number.
    public let id: Int
    /// `Mars`, `Voyager 1 (spacecraft)`, `1 Ceres (A801 AA)`.
    public let name: String
    /// What `Target body name` prints: `Mars (499)`, `1 Ceres (A801 AA)`.
    public let targetName: String
    /// The `{source: …}` of the header.
    public let source: String
    /// The engine body it is (planets as their system barycentres, as the engine places them).
    public let engineBody: BodyID?
    /// The small body it is.
    public let smallBody: SmallBody?
    /// Equatorial and polar radius, km (nil: unknown).
    public let radiiKm: (equatorial: Double, polar: Double)?
    /// GM, km³/s² (nil: unknown).
    public let gm: Double?
    /// TDB seconds past J2000 where it can be placed (nil: the engine's whole range).
    public let coverage: [ClosedRange<Double>]?
    let state: @Sendable (Double) -> (positionKm: Vector3, velocityKmS: Vector3)
    /// Body-fixed → ICRF at TDB seconds (nil: no rotation model).
    let orientation: (@Sendable (Double) -> Matrix3)?
    /// False when only the spin pole is known (SBDB's `pole`): no longitudes on the body.
    let primeMeridianKnown: Bool
    let westLongitudes: Bool
    let brightness: QuantityTarget.Brightness
    /// The engine body it orbits (a moon's planet, the Moon's Earth).
    let primary: BodyID?

    /// Heliocentric ecliptic J2000 state, km and km/s.
    public func stateKm(_ seconds: Double) -> (positionKm: Vector3, velocityKmS: Vector3) { state(seconds) }

    var isSun: Bool { engineBody == .sun && kind == .sun }
}

extension HorizonsBody {
    /// The major bodies the engine places, with the names and aliases Horizons lists them by.
    static let majorBodies: [(id: Int, name: String, designation: String, aliases: String)] = [
        (0, "Solar System Barycenter", "", "SSB"),
        (1, "Mercury Barycenter", "", ""),
        (2, "Venus Barycenter", "", ""),
        (3, "Earth-Moon Barycenter", "", "EMB"),
        (4, "Mars Barycenter", "", ""),
        (5, "Jupiter Barycenter", "", ""),
        (6, "Saturn Barycenter", "", ""),
        (7, "Uranus Barycenter", "", ""),
        (8, "Neptune Barycenter", "", ""),
        (9, "Pluto Barycenter", "", ""),
        (10, "Sun", "", "Sol"),
        (199, "Mercury", "", ""),
        (299, "Venus", "", ""),
        (399, "Earth", "", "Geocenter"),
        (301, "Moon", "", "Luna"),
        (499, "Mars", "", ""),
        (401, "Phobos", "", "MI"),
        (402, "Deimos", "", "MII"),
        (599, "Jupiter", "", ""),
        (501, "Io", "", "JI"),
        (502, "Europa", "", "JII"),
        (503, "Ganymede", "", "JIII"),
        (504, "Callisto", "", "JIV"),
        (699, "Saturn", "", ""),
        (601, "Mimas", "", "SI"),
        (602, "Enceladus", "", "SII"),
        (603, "Tethys", "", "SIII"),
        (604, "Dione", "", "SIV"),
        (605, "Rhea", "", "SV"),
        (606, "Titan", "", "SVI"),
        (608, "Iapetus", "", "SVIII"),
        (799, "Uranus", "", ""),
        (899, "Neptune", "", ""),
        (999, "Pluto", "", "134340"),
    ]
}
