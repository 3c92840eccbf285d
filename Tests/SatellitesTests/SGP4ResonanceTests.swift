import Testing
import Glibc
import Ephemeris
@testable import Satellites

/// The deep-space resonance integration resumes from saved states (`ResonanceCheckpoints`)
/// instead of restarting at the epoch: the answers must not depend on the order of the calls,
/// and must stay the reference code's integration (dspace: Euler–Maclaurin steps of 720 min
/// from the epoch, the library's sines and cosines at every step).
@Suite struct SGP4ResonanceTests {
    /// Resonant sets of the verification file (Vallado et al. 2006): a geostationary one (24 h)
    /// and two Molniyas (12 h, e 0.69 and 0.71).
    static let sets: [(String, String)] = [
        ("1 25954U 99060A   04039.68057285 -.00000108  00000-0  00000-0 0  6847",
         "2 25954   0.0004 243.8136 0001765  15.5294  22.7134  1.00271289 15615"),
        ("1 08195U 75081A   06176.33215444  .00000099  00000-0  11873-3 0   813",
         "2 08195  64.1586 279.0717 6877146 264.7651  20.2257  2.00491383225656"),
        ("1 09880U 77021A   06176.56157475  .00000421  00000-0  10000-3 0  9814",
         "2 09880  64.5968 349.3786 7069051 270.0229  16.3320  2.00813614112380"),
    ]

    static func propagator(_ set: (String, String)) throws -> SGP4 {
        try SGP4(try TLEParser.parse(line1: Substring(set.0), line2: Substring(set.1), verifyChecksums: false))
    }

    /// Minutes from the epoch, both ways, short and far (a year is 731 steps).
    static let minutes: [Double] = [0, 719.9, 720, 1_000.5, -1_000.5, 86_400.25, -86_400.25, 525_960 * 3.3, -525_960 * 2.7,
                                    525_960 * 40.1, 525_960 * 40.1 + 10, 525_960 * 12, -525_960 * 60.5, 525_960 * 150.2]

    @Test("the same state whatever was asked before, and in whichever order")
    func answersDoNotDependOnTheOrderOfCalls() throws {
        var compared = 0
        for set in Self.sets {
            // A Molniya's drag ends its SGP4 orbit within decades: the same error either way then.
            func state(_ p: SGP4, _ t: Double) -> Result<TEMEState, SGP4Error> { Result { () throws(SGP4Error) in try p.propagate(minutesSinceEpoch: t) } }
            let fresh = try Self.minutes.map { t in state(try Self.propagator(set), t) }
            let walked = try Self.propagator(set)
            for t in Self.minutes { _ = state(walked, t) }
            var order = Array(Self.minutes.indices)
            order.reverse()
            order.swapAt(1, 5)
            for i in order {
                #expect(state(walked, Self.minutes[i]) == fresh[i], "\(set.0.prefix(7)) at \(Self.minutes[i]) min")
                compared += 1
            }
        }
        #expect(compared == Self.sets.count * Self.minutes.count)
    }

    @Test("the saved states stay bounded: the spacing doubles past 64 of them")
    func checkpointsAreBounded() throws {
        let sgp4 = try Self.propagator(Self.sets[0])
        let checkpoints = try #require(sgp4.deepSpace?.checkpoints)
        _ = try sgp4.propagate(minutesSinceEpoch: 525_960 * 900)  // 657,000 steps
        let steps = Int(525_960 * 900 / 720)
        let near = try #require(checkpoints.nearest(to: steps - 1, forward: true))
        // At most 64 saved states of 657,000 steps: a spacing of at least 10,265 steps.
        #expect(near.steps <= steps - 1)
        #expect(steps - 1 - near.steps < 2 * 16_384, "the nearest saved state is \(steps - 1 - near.steps) steps short")
        let nearBack = checkpoints.nearest(to: 10, forward: false)
        #expect(nearBack == nil, "nothing saved toward the past yet")
    }

    /// dspace as the reference code writes it: from the epoch at every call, with the library's
    /// sines and cosines; the mean longitude and mean motion at `t`.
    static func reference(_ ds: SGP4.DeepSpace, t: Double) -> (xl: Double, n: Double) {
        let fasx2 = 0.13130908, fasx4 = 2.8843198, fasx6 = 0.37448087
        let g22 = 5.7686396, g32 = 0.95240898, g44 = 1.8014998, g52 = 1.0508330, g54 = 4.4108898
        let stepMin = 720.0, step2 = 259_200.0
        let delt = t > 0 ? stepMin : -stepMin
        var atime = 0.0, xli = ds.xlamo, xni = ds.no
        var xndt = 0.0, xldot = 0.0, xnddt = 0.0, ft = 0.0
        while true {
            if ds.resonance == .synchronous {
                xndt = ds.del1 * sin(xli - fasx2) + ds.del2 * sin(2 * (xli - fasx4)) + ds.del3 * sin(3 * (xli - fasx6))
                xldot = xni + ds.xfact
                xnddt = (ds.del1 * cos(xli - fasx2) + 2 * ds.del2 * cos(2 * (xli - fasx4)) + 3 * ds.del3 * cos(3 * (xli - fasx6))) * xldot
            } else {
                let xomi = ds.argpo + ds.argpdot * atime
                let x2omi = xomi + xomi, x2li = xli + xli
                xndt = ds.d2201 * sin(x2omi + xli - g22) + ds.d2211 * sin(xli - g22)
                    + ds.d3210 * sin(xomi + xli - g32) + ds.d3222 * sin(-xomi + xli - g32)
                    + ds.d4410 * sin(x2omi + x2li - g44) + ds.d4422 * sin(x2li - g44)
                    + ds.d5220 * sin(xomi + xli - g52) + ds.d5232 * sin(-xomi + xli - g52)
                    + ds.d5421 * sin(xomi + x2li - g54) + ds.d5433 * sin(-xomi + x2li - g54)
                xldot = xni + ds.xfact
                xnddt = (ds.d2201 * cos(x2omi + xli - g22) + ds.d2211 * cos(xli - g22)
                    + ds.d3210 * cos(xomi + xli - g32) + ds.d3222 * cos(-xomi + xli - g32)
                    + ds.d5220 * cos(xomi + xli - g52) + ds.d5232 * cos(-xomi + xli - g52)
                    + 2 * (ds.d4410 * cos(x2omi + x2li - g44) + ds.d4422 * cos(x2li - g44)
                        + ds.d5421 * cos(xomi + x2li - g54) + ds.d5433 * cos(-xomi + x2li - g54))) * xldot
            }
            if abs(t - atime) < stepMin {
                ft = t - atime
                break
            }
            xli += xldot * delt + xndt * step2
            xni += xndt * delt + xnddt * step2
            atime += delt
        }
        return (xli + xldot * ft + xndt * ft * ft * 0.5, xni + xndt * ft + xnddt * ft * ft * 0.5)
    }

    @Test("the reference code's integration within 1e-9 rad of mean longitude over ±60 years")
    func matchesTheReferenceIntegration() throws {
        var worst = 0.0, compared = 0
        for set in Self.sets {
            let sgp4 = try Self.propagator(set)
            let ds = try #require(sgp4.deepSpace)
            for t in Self.minutes where abs(t) <= 525_960 * 61 {
                let ours = ds.resonanceState(at: t)
                let rates = ds.resonanceRates(ours)
                let ft = t - ours.atime
                let xl = ours.xli + rates.xldot * ft + rates.xndt * ft * ft * 0.5
                let n = ours.xni + rates.xndt * ft + rates.xnddt * ft * ft * 0.5
                let ref = Self.reference(ds, t: t)
                // 1e-9 rad of mean longitude is 4 cm at the geostationary radius.
                #expect(abs(xl - ref.xl) < 1e-9, "\(set.0.prefix(7)) at \(t) min: \(xl - ref.xl) rad")
                #expect(abs(n - ref.n) < 1e-14, "\(set.0.prefix(7)) at \(t) min: \(n - ref.n) rad/min")
                worst = max(worst, abs(xl - ref.xl))
                compared += 1
            }
        }
        print("[resonance] largest mean-longitude difference from the reference integration: \(worst) rad over \(compared) times")
        #expect(compared == Self.sets.count * Self.minutes.filter { abs($0) <= 525_960 * 61 }.count)
    }

    @Test("a time that is not finite or beyond 10,000 years is an error, not a trap or a hang")
    func unreachableTimesAreErrors() throws {
        let sgp4 = try Self.propagator(Self.sets[0])
        for t in [Double.nan, .infinity, -.infinity, 1e12, -1e12] {
            do {
                _ = try sgp4.propagate(minutesSinceEpoch: t)
                Issue.record("\(t) minutes was propagated")
            } catch {
                #expect(error.code == 0, "\(t): \(error)")
            }
        }
    }
}
