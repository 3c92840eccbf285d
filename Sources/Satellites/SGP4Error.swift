/// Why SGP4 cannot give a state: the reference code's error codes 1–4 and 6 (Vallado et al.
/// 2006, sgp4 "error"), with the value that tripped the check.
public enum SGP4Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// Code 1: the mean eccentricity left 0 ≤ e < 1 (drag has driven it out) — the elements
    /// no longer describe an orbit.
    case meanEccentricityOutOfRange(Double)
    /// Code 2: the mean motion fell to zero or below.
    case meanMotionNotPositive(Double)
    /// Code 3: the eccentricity perturbed by the Sun and Moon left 0 ≤ e ≤ 1.
    case perturbedEccentricityOutOfRange(Double)
    /// Code 4: the semi-latus rectum is negative.
    case semiLatusRectumNegative(Double)
    /// Code 6: the orbit radius fell below one Earth radius: the satellite has decayed.
    case decayed(radiusEarthRadii: Double)
    /// Not one of the reference code's: the time is not finite or beyond
    /// ``SGP4/maxMinutesFromEpoch`` (code 0).
    case timeOutOfRange(minutes: Double)

    /// The reference code's number.
    public var code: Int {
        switch self {
        case .meanEccentricityOutOfRange: 1
        case .meanMotionNotPositive: 2
        case .perturbedEccentricityOutOfRange: 3
        case .semiLatusRectumNegative: 4
        case .decayed: 6
        case .timeOutOfRange: 0
        }
    }

    public var description: String {
        switch self {
        case .meanEccentricityOutOfRange(let e):
            "mean eccentricity \(fixed6(e)) is outside 0 ≤ e < 1 (SGP4 error 1)"
        case .meanMotionNotPositive(let n):
            "mean motion \(fixed6(n)) rad/min is not positive (SGP4 error 2)"
        case .perturbedEccentricityOutOfRange(let e):
            "perturbed eccentricity \(fixed6(e)) is outside 0 ≤ e ≤ 1 (SGP4 error 3)"
        case .semiLatusRectumNegative(let p):
            "semi-latus rectum \(fixed6(p)) earth radii is negative (SGP4 error 4)"
        case .decayed(let r):
            "the satellite has decayed: orbit radius \(fixed6(r)) earth radii is below the Earth's surface (SGP4 error 6)"
        case .timeOutOfRange(let minutes):
            "\(minutes) minutes from the epoch is not a time SGP4 is run at (at most 10,000 years either way)"
        }
    }
}

/// `x` with six decimals, as the reference code's messages print it.
func fixed6(_ x: Double) -> String {
    guard x.isFinite else { return "\(x)" }
    let scaled = (abs(x) * 1e6).rounded()
    let whole = Int((scaled / 1e6).rounded(.down))
    let frac = Int(scaled - Double(whole) * 1e6)
    let digits = String(frac)
    return (x < 0 && scaled > 0 ? "-" : "") + "\(whole)." + String(repeating: "0", count: 6 - digits.count) + digits
}
