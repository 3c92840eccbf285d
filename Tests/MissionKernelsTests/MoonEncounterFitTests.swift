import Astrodynamics
import Foundation
import Testing
@testable import Ephemeris
@testable import MissionKernels
import Missions

/// ``MoonEncounterFit`` finds a moon where a spacecraft's samples say it was: samples made by
/// flying past a Titan moved off its theory by a known offset give that offset back, and the
/// flyby's distance from the moved moon; samples made with the theory's Titan leave it there.
@Suite("Moons fitted to a spacecraft's samples")
struct MoonEncounterFitTests {
    /// Cassini's T87 closest approach (2012-11-13T10:21Z), TDB seconds.
    static let epoch = TimeScale.instant(utc: CivilDateTime(year: 2012, month: 11, day: 13, hour: 10, minute: 21)).daysSinceJ2000TDB * Constants.secondsPerDay
    static let offset = Vector3(700, -450, 300)
    /// Passed 3,550 km from the (moved) Titan's centre at 5.9 km/s.
    static let missKm = 3_550.0

    /// Two samples a day apart (heliocentric) of a path that passes Titan — moved by `offset`
    /// in `truth` — `missKm` from its centre at `epoch`, integrated about Saturn with its moons.
    static func samples(truth: Ephemeris) throws -> (OrbitalState, OrbitalState) {
        let model = try HorizonsPath.model(.saturn, frame: .heliocentric, ephemeris: truth)
        let at = TimeScale.instant(tdbSecondsPastJ2000: epoch)
        let titan = try #require(truth.satellitePositionsKm(of: .saturn, at: at).first { $0.body == .titan }?.km)
        let titanLater = try #require(truth.satellitePositionsKm(of: .saturn, at: TimeScale.instant(tdbSecondsPastJ2000: epoch + 10)).first { $0.body == .titan }?.km)
        let titanVelocity = (titanLater - titan) / 10
        // Relative to Titan: 3,550 km out along Titan's orbit normal, moving 5.9 km/s across it.
        let normal = titan.cross(titanVelocity).normalized
        let relative = OrbitalState(seconds: epoch, positionKm: normal * missKm, velocityKmS: titan.normalized * 5.9)
        let local = OrbitalState(seconds: epoch, positionKm: titan + relative.positionKm, velocityKmS: titanVelocity + relative.velocityKmS)
        let dop = DormandPrince853()
        let forward = try dop.propagate(local, to: epoch + 11 * 3600, model: model)
        let backward = try dop.propagate(local, to: epoch - 13 * 3600, model: model)
        func helio(_ s: OrbitalState) -> OrbitalState {
            let c = HorizonsPath.centerState(.saturn, model: model, frame: .heliocentric, seconds: s.seconds, ephemeris: truth)
            return OrbitalState(seconds: s.seconds, positionKm: s.positionKm + c.positionKm, velocityKmS: s.velocityKmS + c.velocityKmS)
        }
        return (helio(backward.end), helio(forward.end))
    }

    static var plain: Ephemeris { Repository.ephemeris }

    @Test("samples flown past a moved Titan give its offset back, and the distance flown")
    func recoversOffset() throws {
        let moved = MoonAnchor(body: .titan, epochSeconds: Self.epoch, offsetKm: Self.offset, source: "test")
        let truth = Ephemeris(catalogue: Self.plain.catalogue, kernel: Self.plain.kernel, moonAnchors: [moved])
        let (a, b) = try Self.samples(truth: truth)
        // The theory's Titan is 900 km from the one flown past: the path built about it misses.
        let path = try HorizonsPath(samples: [a, b], frame: .heliocentric, ephemeris: Self.plain)
        let gaps = try path.mismatches()
        #expect(gaps[0].km > 100, "the theory's Titan leaves a gap of \(gaps[0].km) km")
        let approaches = try MoonEncounterFit.approaches(path, gaps: gaps) { _ in true }
        let titan = try #require(approaches.first { $0.moon == .titan })
        #expect(abs(titan.seconds - Self.epoch) < 3_600)
        guard case let .moved(fit) = try MoonEncounterFit.fit(titan, intervals: [(a, b)], fitted: [], ephemeris: Self.plain, source: "test") else {
            Issue.record("the fit kept Titan on its theory")
            return
        }
        // The offset comes back within a few km (the anchor's epoch is the approach found, within
        // the hours its offset holds), and the flyby's distance within one.
        #expect((fit.anchor.offsetKm - Self.offset).length < 5, "fitted \(fit.anchor.offsetKm), flown \(Self.offset)")
        #expect(abs(fit.closestAfterKm - Self.missKm) < 1, "closest \(fit.closestAfterKm) km")
        #expect(abs(fit.closestSeconds - Self.epoch) < 5)
        #expect(fit.rmsAfterKm < 0.01 * fit.rmsBeforeKm)
    }

    @Test("samples flown past the theory's Titan leave it on its theory")
    func keepsTheory() throws {
        let (a, b) = try Self.samples(truth: Self.plain)
        let path = try HorizonsPath(samples: [a, b], frame: .heliocentric, ephemeris: Self.plain)
        let gaps = try path.mismatches()
        #expect(gaps[0].km < 1)
        // Nothing to examine: the interval's integrations agree.
        #expect(try MoonEncounterFit.approaches(path, gaps: gaps) { _ in true }.isEmpty)
        // Asked anyway, the fit keeps the theory: there is nothing to explain.
        let approach = MoonEncounterFit.Approach(moon: .titan, seconds: Self.epoch, distanceKm: Self.missKm)
        guard case let .kept(reason) = try MoonEncounterFit.fit(approach, intervals: [(a, b)], fitted: [], ephemeris: Self.plain, source: "test") else {
            Issue.record("the fit moved Titan")
            return
        }
        #expect(reason.hasPrefix("the samples agree with its theory"))
    }

    @Test("the thresholds scale with the square of the samples' spacing")
    func scaled() {
        #expect(MoonEncounterFit.scaled(10, over: 86_400) == 10)
        #expect(MoonEncounterFit.scaled(10, over: 2 * 86_400) == 10)
        #expect(abs(MoonEncounterFit.scaled(10, over: 43_200) - 2.5) < 1e-12)
        #expect(MoonEncounterFit.scaled(10, over: 1_800) == 0.1)
    }
}
