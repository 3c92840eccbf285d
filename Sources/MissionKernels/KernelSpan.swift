import Astrodynamics
import Ephemeris
import Missions

/// A vehicle's path in a NAIF kernel the mission ships (ESA's, JPL's): the segments for its
/// NAIF id, which must cover one span without gaps, read as heliocentric ecliptic J2000 states
/// (segments in J2000 or ECLIPJ2000 about any body the engine places; later segments of the
/// file take precedence where they overlap, as in NAIF's readers).
public struct KernelSpan: Sendable {
    public let kernel: SPKKernel
    public let target: Int
    public let startSeconds: Double
    public let endSeconds: Double
    /// Segment indices, in file order.
    let segments: [Int]
    let ephemeris: Ephemeris

    public init(kernel: SPKKernel, target: Int, ephemeris: Ephemeris) throws {
        let list = kernel.segments.indices.filter { kernel.segments[$0].target == target }
        guard !list.isEmpty else { throw RecipeError(description: "\(kernel.file): no segment for NAIF \(target)") }
        for i in list {
            let s = kernel.segments[i]
            guard s.isEvaluated else { throw RecipeError(description: "\(kernel.file): segment \(s.name) is \(s.typeDescription), not read") }
            switch NAIFBody.frame(s.frame) {
            case .icrf?, .eclipticJ2000?: break
            default: throw RecipeError(description: "\(kernel.file): segment \(s.name) is in \(NAIFBody.frameName(s.frame)), not J2000 or ECLIPJ2000")
            }
            guard NAIFBody.known(s.center) != nil else { throw RecipeError(description: "\(kernel.file): segment \(s.name) is about NAIF \(s.center), which the engine does not place") }
        }
        let spans = list.map { (kernel.segments[$0].startSeconds, kernel.segments[$0].endSeconds) }.sorted { $0.0 < $1.0 }
        var reach = spans[0].1
        for s in spans.dropFirst() {
            guard s.0 <= reach else { throw RecipeError(description: "\(kernel.file): NAIF \(target) has a gap from \(TimeScale.instant(tdbSecondsPastJ2000: reach).iso8601)") }
            reach = max(reach, s.1)
        }
        self.kernel = kernel
        self.target = target
        startSeconds = spans[0].0
        endSeconds = reach
        segments = list
        self.ephemeris = ephemeris
    }

    /// The heliocentric ecliptic J2000 state at `t` (inside the span).
    public func state(at t: Double) throws -> OrbitalState {
        guard let i = segments.last(where: { kernel.segments[$0].covers(t) }) else {
            throw RecipeError(description: "\(kernel.file): NAIF \(target) has no data at \(TimeScale.instant(tdbSecondsPastJ2000: t).iso8601)")
        }
        let s = kernel.segments[i]
        let raw = kernel.state(segment: i, secondsPastJ2000: t)
        var p = raw.positionKm, v = raw.velocityKmPerSecond
        if NAIFBody.frame(s.frame) == .icrf {
            let m = Precession.eclipticToEquatorialJ2000.transposed
            p = m * p
            v = m * v
        }
        let c = ephemeris.naifState(s.center, at: TimeScale.instant(tdbSecondsPastJ2000: t)) ?? (.zero, .zero)
        return OrbitalState(seconds: t, positionKm: p + c.positionKm, velocityKmS: v + c.velocityKmS)
    }
}
