import Ephemeris

/// The force side of a numerical propagation: the acceleration of a massless spacecraft at a
/// position relative to the model's centre, at an instant.
///
/// Units and frames are fixed so models and integrators can be combined freely: position in
/// km relative to the model's centre, time in TDB seconds past J2000 (the SPK kernels' own
/// argument, as in ``OrbitalState``), acceleration in km/s², all vectors on ecliptic J2000
/// axes. When the centre is itself a body in free fall (the Sun, a planet), the acceleration is
/// the one relative to that centre: it includes the indirect terms, the centre's own
/// acceleration by the perturbers, subtracted.
///
/// ```swift
/// let jupiter = try GravityModel(ephemeris: eph, center: .jupiter,
///                                perturbers: [.sun, .io, .europa, .ganymede, .callisto], zonalDegree: 6)
/// let a = jupiter.accelerationKmS2(at: Vector3(80_000, 0, 0), seconds: 5.2e8)
/// ```
///
/// Conforming types must be `Sendable`; a model may keep caches (``GravityModel`` tabulates its
/// perturbers) as long as it guards them itself.
public protocol AccelerationModel: Sendable {
    /// Acceleration, km/s², ecliptic J2000, of a massless body at `positionKm` (relative to the
    /// model's centre, ecliptic J2000) at `seconds` (TDB past J2000).
    func accelerationKmS2(at positionKm: Vector3, seconds: Double) -> Vector3

    /// The same for forces that also depend on the velocity (km/s, relative to the centre): the
    /// Sun's relativistic term, a comet's outgassing along its orbit. The integrator calls this
    /// one; the default ignores the velocity.
    func accelerationKmS2(at positionKm: Vector3, velocityKmS: Vector3, seconds: Double) -> Vector3
}

extension AccelerationModel {
    @inline(__always) public func accelerationKmS2(at positionKm: Vector3, velocityKmS: Vector3, seconds: Double) -> Vector3 {
        accelerationKmS2(at: positionKm, seconds: seconds)
    }
}
