import Astrodynamics
import Foundation
import Ephemeris
import Missions
@testable import MissionKernels

/// The engine, the missions and the shipped kernels as the flyby tests use them (``Repository``).
enum FlybyTestData {
    static var ephemeris: Ephemeris { Repository.ephemeris }
    static var missions: MissionCatalogue { Repository.missions }

    static func kernel(_ name: String) -> SPKKernel {
        do { return try SPKKernel(bytes: KernelBuffer(copying: Repository.bytes("Resources/missions/\(name)")), file: "Resources/missions/\(name)") } catch {
            fatalError("Resources/missions/\(name): \(error)")
        }
    }

    /// TDB seconds past J2000 of a UTC calendar time.
    static func seconds(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Double = 0) -> Double {
        do { return try TimeScale.utc(year: year, month: month, day: day, hour: hour, minute: minute, second: second).daysSinceJ2000TDB * Constants.secondsPerDay } catch {
            fatalError("\(error)")
        }
    }

    /// A body's heliocentric ecliptic state as the kernels place it.
    static func place(_ body: BodyID, _ t: Double) -> (positionKm: Vector3, velocityKmS: Vector3) {
        ephemeris.naifState(FlybyRecipe.centerID(body), at: TimeScale.instant(tdbSecondsPastJ2000: t)) ?? (.zero, .zero)
    }
}


/// One vehicle's segments in a mission kernel, read as heliocentric ecliptic J2000 states.
struct KernelPath {
    let kernel: SPKKernel
    let segments: [Int]
    let ephemeris: Ephemeris

    init(_ kernel: SPKKernel, target: Int, ephemeris: Ephemeris) {
        self.kernel = kernel
        segments = kernel.segments.indices.filter { kernel.segments[$0].target == target }.sorted { kernel.segments[$0].startSeconds < kernel.segments[$1].startSeconds }
        self.ephemeris = ephemeris
    }

    var startSeconds: Double { kernel.segments[segments[0]].startSeconds }
    var endSeconds: Double { kernel.segments[segments[segments.count - 1]].endSeconds }

    /// Segment `i`'s own state at `t` (either side of a boundary).
    func state(segment i: Int, at t: Double) -> OrbitalState {
        let s = kernel.segments[i]
        let raw = kernel.state(segment: i, secondsPastJ2000: t)
        var p = raw.positionKm, v = raw.velocityKmPerSecond
        if s.frame == 1 {
            let m = Precession.eclipticToEquatorialJ2000.transposed
            p = m * p
            v = m * v
        }
        let c = ephemeris.naifState(s.center, at: TimeScale.instant(tdbSecondsPastJ2000: t)) ?? (.zero, .zero)
        return OrbitalState(seconds: t, positionKm: p + c.positionKm, velocityKmS: v + c.velocityKmS)
    }

    /// The state at `t` from the last segment starting at or before it.
    func state(at t: Double) -> OrbitalState {
        let i = segments.last { kernel.segments[$0].startSeconds <= t } ?? segments[0]
        return state(segment: i, at: t)
    }

    /// The segment serving `t`.
    func segment(at t: Double) -> SPKKernel.Segment {
        kernel.segments[segments.last { kernel.segments[$0].startSeconds <= t } ?? segments[0]]
    }

    /// The closest approach to `body` within `window`: a scan every minute, then golden-section
    /// search to a millisecond.
    func closestApproach(_ body: BodyID, in window: ClosedRange<Double>) -> (km: Double, seconds: Double) {
        func distance(_ t: Double) -> Double { (state(at: t).positionKm - FlybyTestData.place(body, t).positionKm).length }
        var best = (km: Double.infinity, seconds: window.lowerBound)
        var t = window.lowerBound
        while t <= window.upperBound {
            let d = distance(t)
            if d < best.km { best = (d, t) }
            t += 60
        }
        var lo = max(window.lowerBound, best.seconds - 60), hi = min(window.upperBound, best.seconds + 60)
        let ratio = (5.0.squareRoot() - 1) / 2
        while hi - lo > 1e-3 {
            let m1 = hi - ratio * (hi - lo), m2 = lo + ratio * (hi - lo)
            if distance(m1) < distance(m2) { hi = m2 } else { lo = m1 }
        }
        return (distance((lo + hi) / 2), (lo + hi) / 2)
    }
}
