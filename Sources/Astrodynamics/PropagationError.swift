/// Why a numerical propagation, or an interpolation built on it, gave no answer. Thrown, never a
/// trap: a runaway integration (a plunge into the centre, a model that returns NaN, an orbit the
/// tolerances cannot follow) ends in one of these instead of a crash or a hang.
public enum PropagationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The state, a time or a tolerance handed in is not a finite number (or not positive).
    case invalidInput(String)
    /// The state or the acceleration stopped being finite near `seconds` and smaller steps
    /// did not help.
    case nonFiniteState(seconds: Double)
    /// The step size fell below what `seconds` can resolve (`stepSeconds`), e.g. at a collision.
    case stepSizeUnderflow(seconds: Double, stepSeconds: Double)
    /// `limit` steps were taken and the target was not reached (`reachedSeconds`).
    case tooManySteps(limit: Int, reachedSeconds: Double)
    /// The caller's `shouldStop` said to stop (at `reachedSeconds`).
    case stopped(reachedSeconds: Double)
    /// A time outside the span a result covers.
    case outsideSpan(seconds: Double, span: ClosedRange<Double>)
    /// Samples whose times do not strictly increase (`index` is the first that does not).
    case nonIncreasingSamples(index: Int)
    /// Fewer than two samples: there is no interval to interpolate.
    case tooFewSamples(count: Int)
    /// More than one impulsive burn between two samples: the state between the burns is not
    /// determined by the samples.
    case burnsInOneInterval(interval: Int, burnSeconds: [Double])

    public var description: String {
        switch self {
        case .invalidInput(let what): "invalid input: \(what)"
        case .nonFiniteState(let t): "the state stopped being finite at \(t) s TDB past J2000"
        case .stepSizeUnderflow(let t, let h): "step size \(h) s too small to advance from \(t) s TDB past J2000"
        case .tooManySteps(let limit, let t): "\(limit) steps taken without reaching the target (stopped at \(t) s TDB past J2000)"
        case .stopped(let t): "stopped by the caller at \(t) s TDB past J2000"
        case .outsideSpan(let t, let span): "\(t) s TDB past J2000 is outside \(span.lowerBound)…\(span.upperBound)"
        case .nonIncreasingSamples(let i): "sample \(i) is not later than sample \(i - 1)"
        case .tooFewSamples(let n): "\(n) sample(s): at least two are needed"
        case .burnsInOneInterval(let i, let burns): "\(burns.count) burns between samples \(i) and \(i + 1) (at \(burns) s): at most one is allowed"
        }
    }
}
