/// The moons of loaded SPK kernels — NAIF's satellite ephemerides (`mar097.bsp`, `jup365.bsp`,
/// `sat441.bsp`, …) or any kernel with segments for them: where one covers a moon the engine
/// otherwise places by an analytical theory, the kernel places it, everywhere the engine is
/// asked (positions, telemetry, the sky, the scene, the pictures), and `theory` names the file.
///
/// NAIF's satellite kernels give each moon and the planet's own centre (499, 599, 699) relative
/// to the system barycentre (4, 5, 6); a moon relative to its planet is the difference, summed
/// down the segments' centres by ``KernelBodies``. Where a kernel has a moon but not the planet's
/// centre, the centre comes from the engine (the theories' moons weighted by mass,
/// ``Ephemeris/barycenterToCenter(_:at:)``).
///
/// ```swift
/// let eph = Ephemeris(catalogue: catalogue, kernel: de440, satellites: try KernelBodies([sat441]))
/// eph.theory(.titan, at: t).name   // "SPK sat441.bsp + DE440"
/// ```
public struct SatelliteKernels: Sendable {
    let bodies: KernelBodies
    /// The engine's moons some kernel has a segment for.
    public let moons: Set<BodyID>
    /// The planets whose centre some kernel gives (relative to anything).
    let centers: Set<BodyID>

    /// The moons a kernel may take over: every satellite the engine places by a theory (the
    /// Moon comes from the DE kernel; the ISS from element sets).
    public static let replaceable: [BodyID] = BodyID.allCases.filter { $0.isSatellite && $0 != .moon && $0 != .iss }

    /// Per `BodyID.index`: the stretches some segment covers (merged, time order, widened by
    /// the kernels' boundary tolerance), searched by bisection — a mission kernel may hold a
    /// moon in a hundred short stretches, and the engine asks on every moon lookup.
    let coverage: [[ClosedRange<Double>]]

    /// Nil when no kernel has a segment for a replaceable moon or a planet's centre.
    public init?(_ bodies: KernelBodies) {
        self.bodies = bodies
        moons = Set(Self.replaceable.filter { !bodies.segments(of: NAIFBody.id($0)).isEmpty })
        centers = Set([BodyID.mars, .jupiter, .saturn].filter { !bodies.segments(of: NAIFBody.id($0)).isEmpty })
        guard !moons.isEmpty || !centers.isEmpty else { return nil }
        let tolerance = KernelBodies.boundaryToleranceSeconds
        let held = moons.union(centers)
        coverage = BodyID.allCases.map { body in
            guard held.contains(body) else { return [] }
            return bodies.coverage(of: NAIFBody.id(body)).map { ($0.lowerBound - tolerance)...($0.upperBound + tolerance) }
        }
    }

    /// Whether a segment covers `body` (a moon or a planet's centre) at TDB seconds past J2000.
    public func covers(_ body: BodyID, seconds: Double) -> Bool {
        let spans = coverage[body.index]
        // The last stretch starting at or before `seconds`.
        var lo = 0, hi = spans.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if spans[mid].lowerBound <= seconds { lo = mid + 1 } else { hi = mid }
        }
        return lo > 0 && spans[lo - 1].upperBound >= seconds
    }

    /// A moon relative to its planet's centre (km, km/s, ecliptic J2000), nil where no segment
    /// covers it then (or its chain of centres cannot be placed).
    func planetocentric(_ moon: BodyID, seconds: Double, ephemeris: Ephemeris) -> (positionKm: Vector3, velocityKmS: Vector3)? {
        guard moons.contains(moon), let parent = moon.parent, covers(moon, seconds: seconds) else { return nil }
        guard let s = try? bodies.state(NAIFBody.id(moon), relativeTo: NAIFBody.id(parent), tdbSecondsPastJ2000: seconds, ephemeris: ephemeris)
        else { return nil }
        return (s.positionKm, s.velocityKmS)
    }

    /// A planet's centre relative to its system's barycentre (km, km/s), nil where no segment
    /// gives the centre then.
    func centerFromBarycenter(_ planet: BodyID, seconds: Double, ephemeris: Ephemeris) -> (positionKm: Vector3, velocityKmS: Vector3)? {
        guard centers.contains(planet), covers(planet, seconds: seconds), let barycenter = NAIFBody.planetaryKernelID(planet) else { return nil }
        guard let s = try? bodies.state(NAIFBody.id(planet), relativeTo: barycenter, tdbSecondsPastJ2000: seconds, ephemeris: ephemeris)
        else { return nil }
        return (s.positionKm, s.velocityKmS)
    }

    /// The stretches (TDB Julian dates) a kernel covers `moon`, and the file of the segment
    /// serving each: what `theory` reports.
    func spans(_ moon: BodyID) -> [(file: String, jdTDB: ClosedRange<Double>)] {
        guard moons.contains(moon) else { return [] }
        let id = NAIFBody.id(moon)
        return bodies.coverage(of: id).map { span in
            let file = bodies.segment(of: id, at: (span.lowerBound + span.upperBound) / 2).map { bodies.kernels[$0.kernel].fileName } ?? "kernel"
            return (file, (Constants.jdJ2000 + span.lowerBound / Constants.secondsPerDay)...(Constants.jdJ2000 + span.upperBound / Constants.secondsPerDay))
        }
    }
}
