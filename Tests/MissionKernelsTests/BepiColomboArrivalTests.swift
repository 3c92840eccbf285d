import Glibc
import Testing
import Ephemeris
import Missions
@testable import MissionKernels

/// BepiColombo past its last flyby follows the published plan (ESA's fact sheet and schedule):
/// the thrust arcs' end, a ballistic approach, insertion into Mio's 590 × 11,640 km polar orbit,
/// and after Mio's release the MPO's own 480 × 1,500 km polar orbit.
@Suite("BepiColombo's planned arrival at Mercury")
struct BepiColomboArrivalTests {
    struct Orbit {
        var lowest = Double.infinity, highest = 0.0
        /// Angles between the orbit's normal and Mercury's pole, degrees.
        var inclinations: [Double] = []
    }

    /// Altitudes above Mercury's mean radius and the orbit's inclination to Mercury's equator,
    /// sampled every minute over `span`.
    static func orbit(_ path: KernelPath, over span: ClosedRange<Double>) -> Orbit {
        let eph = FlybyTestData.ephemeris
        let radius = eph.catalogue[.mercury].radiusKm
        var o = Orbit()
        var t = span.lowerBound
        while t <= span.upperBound {
            let s = path.state(at: t), m = FlybyTestData.place(.mercury, t)
            let r = s.positionKm - m.positionKm, v = s.velocityKmS - m.velocityKmS
            o.lowest = min(o.lowest, r.length - radius)
            o.highest = max(o.highest, r.length - radius)
            let pole = eph.orientation(.mercury, at: TimeScale.instant(tdbSecondsPastJ2000: t)).poleEcliptic
            o.inclinations.append(acos(max(-1, min(1, r.cross(v).normalized.dot(pole)))) * 180 / .pi)
            t += 60
        }
        return o
    }

    static func event(_ mission: Mission, _ key: String) throws -> Double {
        let e = try #require(mission.events.first { $0.key == key })
        return e.date.daysSinceJ2000TDB * Constants.secondsPerDay
    }

    @Test("the insertion puts it into Mio's polar 590 x 11,640 km orbit; after the release the MPO flies its polar 480 x 1,500 km orbit")
    func orbits() throws {
        let l = try FlybyKernelsTests.load("bepicolombo", "bepicolombo.bsp")
        let insertion = try Self.event(l.mission, "moi"), release = try Self.event(l.mission, "mio-release")
        #expect(l.path.segment(at: insertion + 60).name.contains("capture orbit"))
        let capture = Self.orbit(l.path, over: insertion...(insertion + 2 * 86_400))
        #expect(abs(capture.lowest - 590) < 5, "capture orbit periherm \(capture.lowest) km up")
        #expect(abs(capture.highest - 11_640) < 100, "capture orbit apoherm \(capture.highest) km up")
        #expect(capture.inclinations.allSatisfy { abs($0 - 90) < 1 }, "\(capture.inclinations.min()!)...\(capture.inclinations.max()!)°")
        // Mio's orbit until a day after the release; then the descent.
        let before = Self.orbit(l.path, over: (release - 86_400)...(release + 86_400))
        #expect(abs(before.lowest - 590) < 10 && abs(before.highest - 11_640) < 150, "\(before.lowest) x \(before.highest) km before the descent")
        let final = Self.orbit(l.path, over: (release + 3 * 86_400)...l.path.endSeconds)
        #expect(abs(final.lowest - 480) < 10, "final periherm \(final.lowest) km up")
        #expect(abs(final.highest - 1_500) < 20, "final apoherm \(final.highest) km up")
        #expect(final.inclinations.allSatisfy { abs($0 - 90) < 1 })
    }

    @Test("ballistic from the thrust's end to the insertion: an approach from millions of km, no impulse between")
    func approach() throws {
        let l = try FlybyKernelsTests.load("bepicolombo", "bepicolombo.bsp")
        let thrustEnd = try Self.event(l.mission, "sep-end"), insertion = try Self.event(l.mission, "moi")
        let start = l.path.state(at: thrustEnd + 1), m = FlybyTestData.place(.mercury, thrustEnd + 1)
        #expect((start.positionKm - m.positionKm).length > 1e6, "\((start.positionKm - m.positionKm).length) km from Mercury at the thrust's end")
        // No segment starts strictly inside the approach: one ballistic segment, from the
        // impulse at the thrust's end to the insertion.
        let inside = l.path.segments.filter { let s = l.path.kernel.segments[$0].startSeconds; return s > thrustEnd + 1 && s < insertion - 1 }
        #expect(inside.isEmpty)
        // Every impulse of the plan lies in one of its powered phases.
        for key in ["sep-end", "moi"] {
            let t = try Self.event(l.mission, key)
            #expect(l.powered.contains { $0.contains(t) }, "\(key)")
        }
    }
}
