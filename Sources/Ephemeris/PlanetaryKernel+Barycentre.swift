extension PlanetaryKernel {
    /// The Sun from the solar-system barycentre, ecliptic J2000, km and km/s: what turns the
    /// barycentric states of spacecraft kernels (centre 0, as JPL Horizons writes them) into
    /// heliocentric ones. Inside ``spanSeconds`` only (the caller checks).
    public func sunBarycentricState(secondsPastJ2000 seconds: Double) -> (positionKm: Vector3, velocityKmPerSecond: Vector3) {
        let (p, v) = sumStates(sunChain, seconds)
        return (toEcliptic * p, toEcliptic * v)
    }
}

extension PlanetaryKernel {
    /// The bodies ``barycentricPositions(secondsPastJ2000:into:)`` gives, in its order: the Sun,
    /// the Mercury and Venus systems, the Earth and the Moon apart, the Mars … Neptune systems
    /// and the Pluto system (barycentres, as the DE kernels serve them): the point masses of a
    /// small-body integration.
    public static let pointMasses: [BodyID] = [.sun, .mercury, .venus, .earth, .moon, .mars, .jupiter, .saturn, .uranus, .neptune, .pluto]

    /// Barycentric positions (km, ecliptic J2000) of ``pointMasses`` into `buffer` (at least
    /// that many elements), each kernel segment evaluated once. Inside ``spanSeconds`` only.
    /// Returns the Sun's barycentric velocity (km/s), from the same evaluation of its segments.
    @discardableResult
    public func barycentricPositions(secondsPastJ2000 seconds: Double, into buffer: UnsafeMutableBufferPointer<Vector3>) -> Vector3 {
        withUnsafeTemporaryAllocation(of: Vector3.self, capacity: links.count) { linkPositions in
            var sunVelocity = Vector3.zero
            for i in 0..<links.count where !sunChain.contains(i) { linkPositions[i] = linkPosition(i, seconds) }
            for i in sunChain {
                let s = linkState(i, seconds)
                linkPositions[i] = s.positionKm
                sunVelocity += s.velocityKmPerSecond
            }
            for (k, body) in Self.pointMasses.enumerated() {
                var p = Vector3.zero
                for link in chains[body.index] { p += linkPositions[link] }
                buffer[k] = toEcliptic * p
            }
            return toEcliptic * sunVelocity
        }
    }

    /// One body's barycentric state (km, km/s, ecliptic J2000): the Sun, a system barycentre,
    /// the Earth or the Moon. Inside ``spanSeconds`` only.
    public func barycentricState(_ body: BodyID, secondsPastJ2000 seconds: Double) -> (positionKm: Vector3, velocityKmS: Vector3) {
        let (p, v) = sumStates(chains[body.index], seconds)
        return (toEcliptic * p, toEcliptic * v)
    }
}
