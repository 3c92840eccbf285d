/// Where the moons' theories give way: to a loaded kernel that covers the moon
/// (``SatelliteKernels``), or near a published flyby to the theory moved by an anchor
/// (``MoonAnchor``); and the giant planets' centres their moons hang from.
extension Ephemeris {
    /// Each body's GM as a share of its planet's system (zero for the planets themselves): the
    /// weights of ``barycenterToCenter(_:at:)``.
    static let massShare: [Double] = BodyID.allCases.map { body in
        guard body.isSatellite, let parent = body.parent, parent == .jupiter || parent == .saturn else { return 0 }
        return GravityConstants.gm(body) / GravityConstants.gm(parent)
    }

    /// Whether a loaded kernel places `moon` at `seconds` (TDB past J2000).
    @inline(__always) func kernelPlaces(_ moon: BodyID, seconds: Double) -> Bool {
        guard let k = satelliteKernels, k.moons.contains(moon) else { return false }
        return k.covers(moon, seconds: seconds)
    }

    /// A moon's planetocentric state (km, km/day) as served: the kernel's where one covers the
    /// moon at `seconds` (TDB past J2000), else `theory` moved by the anchors around then.
    func adjustedMoon(_ moon: BodyID, _ theory: (positionKm: Vector3, velocityKmPerDay: Vector3),
                      seconds: Double) -> (positionKm: Vector3, velocityKmPerDay: Vector3) {
        if let k = satelliteKernels, let s = k.planetocentric(moon, seconds: seconds, ephemeris: self) {
            return (s.positionKm, s.velocityKmS * Constants.secondsPerDay)
        }
        var (p, v) = theory
        for a in moonAnchors where a.body == moon && a.spanSeconds.contains(seconds) {
            let d = a.displacement(seconds: seconds)
            p += d.positionKm
            v += d.velocityKmS * Constants.secondsPerDay
        }
        return (p, v)
    }

    /// A snapshot's planet-relative moon positions and giant-planet centres (km), moved where
    /// kernels or anchors serve.
    func adjustMoons(_ rel: inout [Vector3], center: inout [Vector3], at t: Instant) {
        let seconds = t.daysSinceJ2000TDB * Constants.secondsPerDay
        for moon in SatelliteKernels.replaceable {
            rel[moon.index] = adjustedMoon(moon, (rel[moon.index], .zero), seconds: seconds).positionKm
        }
        guard let k = satelliteKernels else { return }
        for planet in [BodyID.jupiter, .saturn] {
            if let c = k.centerFromBarycenter(planet, seconds: seconds, ephemeris: self) { center[planet.index] = c.positionKm }
        }
    }

    /// A giant planet's centre from its barycentre (km, km/day), from its moons' theory states
    /// at hand (`moons`: body, km, km/day), or a kernel's where one gives the centre.
    func centerOffset(_ planet: BodyID, _ moons: [(BodyID, Vector3, Vector3)], seconds: Double) -> (Vector3, Vector3) {
        if let k = satelliteKernels, let c = k.centerFromBarycenter(planet, seconds: seconds, ephemeris: self) {
            return (c.positionKm, c.velocityKmS * Constants.secondsPerDay)
        }
        var p = Vector3.zero, v = Vector3.zero
        for (body, r, rate) in moons {
            p -= r * Self.massShare[body.index]
            v -= rate * Self.massShare[body.index]
        }
        return (p, v)
    }
}
