/// Where the engine's `iss` comes from when something better than the catalogue's circular orbit (``ISSOrbit``) is loaded:
/// SGP4 from an element set, which lives above this module (`Satellites`) and reaches the engine
/// through this protocol.
public protocol GeocentricStateSource: Sendable {
    /// The satellite's geocentric state at `t` (km and km/day, ecliptic J2000), or nil where the
    /// source cannot give one (no element set, or SGP4 refuses the date): the circular orbit serves.
    func geocentricEclipticState(at t: Instant) -> (positionKm: Vector3, velocityKmPerDay: Vector3)?
}
