extension PlanetaryKernel {
    /// The Sun from the solar-system barycentre, ecliptic J2000, km and km/s: what turns the
    /// barycentric states of spacecraft kernels (centre 0, as JPL Horizons writes them) into
    /// heliocentric ones. Inside ``spanSeconds`` only (the caller checks).
    public func sunBarycentricState(secondsPastJ2000 seconds: Double) -> (positionKm: Vector3, velocityKmPerSecond: Vector3) {
        let (p, v) = sumStates(sunChain, seconds)
        return (toEcliptic * p, toEcliptic * v)
    }
}
