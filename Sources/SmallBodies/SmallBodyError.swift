import Astrodynamics
import Ephemeris

/// Why the propagator gave no state.
public enum SmallBodyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The instant lies outside the span the integration is trusted over (TDB seconds past J2000).
    case outsideTrustedSpan(seconds: Double, trusted: ClosedRange<Double>)
    /// No planetary kernel: only `model=kepler` is available.
    case noKernel
    /// The integration failed (a collision with a planet, numbers that broke down).
    case propagation(PropagationError)
    /// The caller's budget ran out (`shouldStop`).
    case stopped

    public var description: String {
        switch self {
        case let .outsideTrustedSpan(t, span):
            "\(Self.date(t)) is outside the span the integration is trusted over, \(Self.date(span.lowerBound)) … \(Self.date(span.upperBound)) TDB"
        case .noKernel: "the n-body model needs a JPL DE kernel (--ephemeris); only model=kepler is available"
        case let .propagation(e): "the integration failed: \(e)"
        case .stopped: "the integration was stopped before it reached the date"
        }
    }

    /// An ISO 8601 date (TDB) for messages.
    public static func date(_ seconds: Double) -> String {
        let t = TimeScale.instant(tdbSecondsPastJ2000: seconds)
        return String(t.utc.iso8601.prefix(10))
    }
}
