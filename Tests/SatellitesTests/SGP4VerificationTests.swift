import Testing
import Ephemeris
@testable import Satellites

/// The paper's verification run (Vallado et al. 2006, `SGP4-VER.TLE` → `tcppver.out`, 'i' mode,
/// WGS-72): every satellite at every time its driver prints, and the errors where its output stops.
@Suite struct SGP4VerificationTests {
    struct Expected { let minutes: Double; let positionKm: Vector3; let velocityKmPerSecond: Vector3 }
    struct Case { let line1: Substring; let line2: Substring; let start: Double; let stop: Double; let step: Double }

    /// `tcppver.out`: "NNNNN xx" then one line per time: minutes, r (km), v (km/s), ….
    static func expected() -> [(satellite: Int, states: [Expected])] {
        var out: [(Int, [Expected])] = []
        for line in Fixtures.text("tcppver.out").split(whereSeparator: \.isNewline) {
            let f = line.split(separator: " ")
            if f.count == 2, f[1] == "xx" { out.append((Int(f[0])!, [])); continue }
            let v = f.prefix(7).map { Double($0)! }
            out[out.count - 1].1.append(Expected(minutes: v[0], positionKm: Vector3(v[1], v[2], v[3]),
                                                 velocityKmPerSecond: Vector3(v[4], v[5], v[6])))
        }
        return out
    }

    static func cases() -> [Case] {
        let lines = Fixtures.text("SGP4-VER.TLE").split(whereSeparator: \.isNewline)
        var out: [Case] = []
        for (i, line) in lines.enumerated() where line.hasPrefix("1 ") {
            let line2 = lines[i + 1]
            let times = line2.dropFirst(69).split(separator: " ").map { Double($0)! }
            out.append(Case(line1: line.prefix(69), line2: line2.prefix(69), start: times[0], stop: times[1], step: times[2]))
        }
        return out
    }

    /// The times the paper's driver (testcpp.cpp) prints: 0, then start…stop by step, stop included.
    static func times(_ c: Case) -> [Double] {
        var out = [0.0]
        var t = c.start
        if abs(t) > 1e-8 { t -= c.step }
        while t < c.stop {
            t += c.step
            if t > c.stop { t = c.stop }
            out.append(t)
        }
        return out
    }

    @Test func everySatelliteAndTimeWithinOneMetreAndOneMillimetrePerSecond() throws {
        let expected = Self.expected()
        let cases = Self.cases()
        #expect(cases.count == 33)
        #expect(expected.count == 33)
        var compared = 0, maxPositionKm = 0.0, maxVelocityKmPerSecond = 0.0
        var errors: [(Int, Double, SGP4Error)] = []
        for (c, reference) in zip(cases, expected) {
            let elements = try TLEParser.parse(line1: c.line1, line2: c.line2, verifyChecksums: false)
            #expect(elements.noradID == reference.satellite)
            let sgp4: SGP4
            do {
                sgp4 = try SGP4(elements)
            } catch {
                // The driver prints its previous satellite's line at t = 0 when initialisation fails.
                errors.append((elements.noradID, 0, error))
                #expect(reference.states.count == 1)
                continue
            }
            let times = Self.times(c)
            for (i, t) in times.enumerated() {
                do {
                    let state = try sgp4.propagate(minutesSinceEpoch: t)
                    guard i < reference.states.count else {
                        Issue.record("\(elements.noradID) at \(t) min: a state, where the reference stops")
                        break
                    }
                    let r = reference.states[i]
                    #expect(abs(r.minutes - t) < 1e-6)
                    let dr = (state.positionKm - r.positionKm).length
                    let dv = (state.velocityKmPerSecond - r.velocityKmPerSecond).length
                    maxPositionKm = max(maxPositionKm, dr)
                    maxVelocityKmPerSecond = max(maxVelocityKmPerSecond, dv)
                    #expect(dr < 0.001, "\(elements.noradID) at \(t) min: \(dr * 1000) m")
                    #expect(dv < 0.000_001, "\(elements.noradID) at \(t) min: \(dv * 1e6) mm/s")
                    compared += 1
                } catch {
                    #expect(i == reference.states.count, "\(elements.noradID) at \(t) min: \(error), where the reference has a state")
                    errors.append((elements.noradID, t, error))
                    break
                }
            }
        }
        print("SGP4 verification: \(compared) states, max |Δr| \(maxPositionKm * 1e6) mm, max |Δv| \(maxVelocityKmPerSecond * 1e9) µm/s")
        // 700 lines: 33 headers and 667 states, one of which (33334 at t = 0) is the driver's stale line.
        #expect(compared == 666)
        // The reference's errors (python-sgp4's run of the same set lists the same codes and values).
        let codes = errors.map { "\($0.0)@\($0.1):\($0.2.code)" }
        #expect(codes == ["22312@494.2028672:1", "28350@1560.0:1", "28872@55.0:6", "29141@440.0:6",
                          "33333@25.0:4", "33334@0.0:3", "20413@1844345.0:6"])
        #expect(errors.map { $0.2.description.split(separator: " ").prefix(3).joined(separator: " ") } == [
            "mean eccentricity -0.001329", "mean eccentricity -0.001208", "the satellite has", "the satellite has",
            "semi-latus rectum -0.103223", "perturbed eccentricity -122.217193", "the satellite has"])
    }
}
