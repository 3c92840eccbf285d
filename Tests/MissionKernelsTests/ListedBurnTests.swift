import Astrodynamics
import Foundation
import Testing
@testable import MissionKernels
import Ephemeris
import Missions

/// The shipped kernels carry each listed burn's velocity change where the mission's published
/// figure puts it: across the burn's window, the kernel's velocity change less what gravity
/// (``HorizonsPath/model(_:frame:ephemeris:)`` about the body that holds the window) does over it.
@Suite("Listed burns in the shipped kernels")
struct ListedBurnTests {
    struct Burn: CustomStringConvertible, Sendable {
        let mission: String
        let phase: String
        let center: BodyID
        /// Published, m/s, and how far the kernel may be from it (a long burn's gravity losses).
        let publishedMS: Double
        let toleranceMS: Double
        let source: String
        var description: String { "\(mission) \(phase)" }
    }

    static let burns = [
        Burn(mission: "cassini", phase: "periapsis raise manoeuvre", center: .saturn, publishedMS: 392.9, toleranceMS: 4,
             source: "NASA/JPL status report 2004-08-23 (a 51-minute burn); 392.9 m/s in 51 min 8 s, https://www.fossilhunters.xyz/cassini/capture-orbit-apoapsis.html"),
        Burn(mission: "cassini", phase: "deep space manoeuvre", center: .sun, publishedMS: 450, toleranceMS: 5,
             source: "NASA/JPL, Cassini deep space manoeuvre (1998-12-03): about 450 m/s"),
        Burn(mission: "juno", phase: "deep space manoeuvre 1", center: .sun, publishedMS: 344, toleranceMS: 4,
             source: "NASA/JPL, Juno's first deep-space manoeuvre (2012-08-30): 344 m/s"),
        Burn(mission: "juno", phase: "deep space manoeuvre 2", center: .sun, publishedMS: 388, toleranceMS: 4,
             source: "NASA/JPL, Juno's second deep-space manoeuvre (2012-09-14): 388 m/s"),
    ]

    @Test("the velocity change across the window is the published one", arguments: burns)
    func deltaV(_ burn: Burn) throws {
        let eph = Repository.ephemeris
        let mission = try Repository.missions.mission(burn.mission)
        let vehicle = try #require(mission.primaryVehicle)
        let phase = try #require(vehicle.phases.first { $0.name == burn.phase && $0.kind == .powered }, "\(burn)")
        let t0 = mission.tdbSeconds(atHours: phase.startHours), t1 = mission.tdbSeconds(atHours: phase.endHours)
        let bodies = try Repository.missionKernel(burn.mission)
        let model = try HorizonsPath.model(burn.center, frame: .heliocentric, ephemeris: eph)
        /// The vehicle relative to the model's centre, km and km/s.
        func local(_ t: Double) throws -> (r: Vector3, v: Vector3) {
            let s = try bodies.state(vehicle.naifID, at: TimeScale.instant(tdbSecondsPastJ2000: t), ephemeris: eph)
            let c = HorizonsPath.centerState(burn.center, model: model, frame: .heliocentric, seconds: t, ephemeris: eph)
            return (s.positionKm - c.positionKm, s.velocityKmS - c.velocityKmS)
        }
        // Gravity's share over the window by Simpson's rule on the kernel's own positions (a
        // burn moves the path by kilometres, which changes gravity's share by far less than 1 m/s).
        let n = 32, h = (t1 - t0) / Double(n)
        var gravity = Vector3.zero
        for k in 0...n {
            let t = t0 + Double(k) * h
            let w: Double = k == 0 || k == n ? 1 : (k % 2 == 1 ? 4 : 2)
            gravity += model.accelerationKmS2(at: try local(t).r, seconds: t) * (w * h / 3)
        }
        let dv = ((try local(t1).v - local(t0).v - gravity).length) * 1000
        print("\(burn): \(String(format: "%.1f", dv)) m/s in the kernel, \(burn.publishedMS) published (\(burn.source))")
        #expect(abs(dv - burn.publishedMS) <= burn.toleranceMS, "\(burn): \(dv) m/s, published \(burn.publishedMS)")
    }
}
