import Ephemeris

/// Why a ``FlybyPlan`` could not be built into a chain: the node (index in the plan, and how it
/// reads) and the problem. A leg's problems name the node the leg starts from.
public struct FlybyChainError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Problem: Sendable, Equatable {
        /// The plan's shape: no departure first, an arrival before the end, an open end after
        /// an arrival, a leg list of the wrong length, a body that does not orbit the centre…
        case structure(String)
        /// A time not after the previous node's (TDB seconds of both).
        case outOfOrder(seconds: Double, previousSeconds: Double)
        /// A distance below the body's radius (km).
        case belowSurface(distanceKm: Double, radiusKm: Double)
        /// A distance that is not finite and positive, or beyond the sphere of influence.
        case invalidDistance(String)
        /// A time outside the ephemeris the chain reads (TDB seconds; the span served).
        case outsideEphemeris(seconds: Double, span: ClosedRange<Double>)
        /// No Lambert solution with that many revolutions on the leg starting here.
        case noLambertSolution(revolutions: Int, maximum: Int)
        /// Lambert's problem could not be posed for the leg starting here.
        case lambert(LambertError)
        /// Two spheres of influence overlap in time: the leg from this node would have to end
        /// before it starts (seconds at both patch points).
        case overlappingSpheres(exitSeconds: Double, entrySeconds: Double)
        /// The leg from this node passes within `minimumKm` of the centre, inside its radius.
        case legInsideCenter(minimumKm: Double, radiusKm: Double)
        /// No periapsis joins the two asymptotes, or an injection point could not be found.
        case geometry(String)
        /// The patch points did not settle: the largest velocity mismatch left (km/s).
        case notConverged(mismatchKmS: Double)
    }

    public let node: Int
    public let nodeDescription: String
    public let problem: Problem

    public init(node: Int, nodeDescription: String, problem: Problem) {
        self.node = node
        self.nodeDescription = nodeDescription
        self.problem = problem
    }

    public var description: String {
        let what: String
        switch problem {
        case .structure(let s): what = s
        case let .outOfOrder(s, p): what = "time \(Self.date(s)) is not after the previous node's \(Self.date(p))"
        case let .belowSurface(d, r): what = "distance \(d) km is below the body's radius \(r) km"
        case .invalidDistance(let s): what = s
        case let .outsideEphemeris(s, span): what = "time \(Self.date(s)) is outside the ephemeris (\(Self.date(span.lowerBound)) … \(Self.date(span.upperBound)))"
        case let .noLambertSolution(n, m): what = "the leg from here has no solution with \(n) revolutions (at most \(m) fit)"
        case .lambert(let e): what = "the leg from here: \(e)"
        case let .overlappingSpheres(x, e): what = "the leg from here would leave a sphere of influence at \(Self.date(x)) after entering the next at \(Self.date(e))"
        case let .legInsideCenter(m, r): what = "the leg from here passes \(m) km from the centre, inside its radius \(r) km"
        case .geometry(let s): what = s
        case .notConverged(let m): what = "the patch points did not converge (velocity mismatch \(m) km/s)"
        }
        return "node \(node) (\(nodeDescription)): \(what)"
    }

    /// ISO 8601 UTC of TDB seconds past J2000, for messages (the raw number if not finite).
    static func date(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 1e11 else { return "\(seconds) s" }
        return TimeScale.instant(tdbSecondsPastJ2000: seconds).iso8601
    }
}
