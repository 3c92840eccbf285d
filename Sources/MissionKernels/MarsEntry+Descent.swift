import Glibc
import Astrodynamics
import Ephemeris

extension MarsEntry {
    /// The powered descent may last from this long to this long, seconds: outside it the
    /// parachute phase does not fit the touchdown time.
    static let poweredDescentSeconds = 20.0...240.0
    /// Spacing of the powered descent's states, seconds (the last step rounded to fit).
    static let descentStepSeconds = 0.5
    /// Above this exponent k (the descent rate at the separation times the descent's length over
    /// the height) the height falls as (1 − s)^k; at or below it, along the cubic, which stays
    /// above the site while k is under 3.
    static let cubicExponentLimit = 2.0
    /// How far below the site's radius a descent state may dip before it is an error, km.
    static let belowSiteToleranceKm = 1e-6

    /// The powered descent, in the body-fixed frame from the backshell separation's state to
    /// rest at the site at touchdown: across the ground a cubic; down, a cubic too while that
    /// stays above the site (a descent rate below 3·height/time), else the height falls as
    /// (1 − s)^k, braking hard at first and settling slowly, as the descent stage does. Returns
    /// the leg's states with the descent's after them, and the descent's length (s), descent
    /// rate (km/s), offset from straight above the site (km) and speed across the ground (km/s).
    func poweredDescent(after leg: Leg, from interface: Interface, touchdownSeconds: Double) throws
        -> (states: [OrbitalState], descent: (seconds: Double, descentRateKmS: Double, offsetKm: Double, groundSpeedKmS: Double)) {
        let t0 = interface.state.seconds, site = interface.siteKm, up = interface.up, siteRadius = interface.siteRadiusKm
        let start = interface.turn.toBodyFixed(leg.states[leg.states.count - 1])
        let span = touchdownSeconds - leg.backshell
        guard span >= Self.poweredDescentSeconds.lowerBound, span <= Self.poweredDescentSeconds.upperBound else {
            throw EntryError(description: "the powered descent would last \(Int(span)) s (backshell separation at +\(Int(leg.backshell - t0)) s); the parachute phase does not fit the touchdown time")
        }
        let h0 = (start.positionKm - site).dot(up), rate0 = start.velocityKmS.dot(up)
        let across0 = start.positionKm - site - up * h0, acrossRate0 = start.velocityKmS - up * rate0
        let k = -rate0 * span / h0
        var states = leg.states
        let n = Int((span / Self.descentStepSeconds).rounded(.up))
        for i in 1...n {
            let s = Double(i) / Double(n)
            let h00 = 2 * s * s * s - 3 * s * s + 1, h10 = s * s * s - 2 * s * s + s
            let d00 = (6 * s * s - 6 * s) / span, d10 = 3 * s * s - 4 * s + 1
            let height: Double, heightRate: Double
            if k > Self.cubicExponentLimit {
                height = h0 * pow(1 - s, k)
                heightRate = -k * h0 * pow(1 - s, k - 1) / span
            } else {
                height = h0 * h00 + rate0 * span * h10
                heightRate = h0 * d00 + rate0 * d10
            }
            let p = site + up * height + across0 * h00 + acrossRate0 * (h10 * span)
            let v = up * heightRate + across0 * d00 + acrossRate0 * d10
            let t = i == n ? touchdownSeconds : leg.backshell + span * s
            guard p.length >= siteRadius - Self.belowSiteToleranceKm else {
                throw EntryError(description: "the powered descent dips \(Int(((siteRadius - p.length) * 1000).rounded())) m below the site at +\(Int(t - t0)) s")
            }
            states.append(interface.turn.fromBodyFixed(OrbitalState(seconds: t, positionKm: i == n ? site : p, velocityKmS: i == n ? .zero : v)))
        }
        return (states, (span, -rate0, across0.length, acrossRate0.length))
    }
}
