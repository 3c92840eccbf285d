import Foundation
import Testing
import Ephemeris
@testable import Missions

/// Nothing unphysical anywhere: every vehicle of every mission walked from its start to its end
/// (an ongoing one a year past its data), in steps that shrink to a minute near any body. At
/// every step the speed stays below 200 km/s and the vehicle outside every body (its mean radius
/// less 1 km, and less the theory's error for the analytical moons; landed phases aside); over
/// every step outside the powered and landed phases the
/// velocity changes as gravity changes it, within 0.1 m/s² (6 m/s in a minute): no jumps of speed
/// other than at listed burns.
@Suite("Mission walk")
struct MissionWalkTests {
    /// Largest acceleration gravity does not explain, km/s².
    static let unexplainedLimit = 1e-4
    static let speedLimit = 200.0

    /// Every body with a surface, planets before their moons.
    static let bodies: [(body: BodyID, naif: Int, radiusKm: Double, orbit: SeedMeanOrbit?)] = BodyID.allCases
        .sorted { ($0.parent == nil || $0.parent == .sun ? 0 : 1) < ($1.parent == nil || $1.parent == .sun ? 0 : 1) }
        .map { ($0, NAIFBody.id($0), TestMissions.ephemeris.catalogue[$0].radiusKm, TestMissions.ephemeris.catalogue[$0].seedMeanOrbit) }

    /// How far inside a body the walk lets a vehicle be: 1 km, plus — for the moons the engine
    /// places by analytical theories — their measured error (EphemerisTests: Jupiter's within
    /// 0.5 %, Saturn's and Mars's within 1 % of their orbit radius). A spacecraft that passed
    /// such a moon closer than that (Juno 352 km from Europa, Cassini 880 km from Titan) flies
    /// past the real moon, which the engine draws a few thousand km away.
    static func allowanceKm(_ b: (body: BodyID, naif: Int, radiusKm: Double, orbit: SeedMeanOrbit?)) -> Double {
        guard let a = b.orbit?.semiMajorAxisKm else { return 0 }
        switch b.body.parent {
        case .jupiter: return 0.005 * a
        case .saturn, .mars: return 0.01 * a
        default: return 0
        }
    }

    struct Finding: CustomStringConvertible {
        let mission: String, vehicle: String, seconds: Double, what: String
        var description: String { "\(mission)/\(vehicle) \(TimeScale.instant(tdbSecondsPastJ2000: seconds).iso8601): \(what)" }
    }

    /// Walks one vehicle; returns what it found wrong and the largest unexplained acceleration.
    static func walk(_ engine: MissionEngine, _ track: VehicleTrack) throws -> (findings: [Finding], worst: (seconds: Double, accel: Double), steps: Int) {
        let eph = engine.ephemeris
        let gravity = WalkGravity(ephemeris: eph)
        let launch = engine.mission.launch.daysSinceJ2000TDB * Constants.secondsPerDay
        let start = launch + track.startHours * 3600
        let end = launch + (track.endHours ?? (track.dataEndHours + 365 * 24)) * 3600
        let phases = track.vehicle.phases.map { (p: $0, a: launch + $0.startHours * 3600, b: launch + $0.endHours * 3600) }
        func exempt(_ a: Double, _ b: Double) -> Bool {
            phases.contains { ($0.p.kind == .powered || $0.p.kind == .landed) && $0.a <= b && $0.b >= a }
        }
        func landed(_ t: Double) -> BodyID? {
            phases.first { $0.p.kind == .landed && $0.a <= t && $0.b >= t }.map { $0.p.body ?? .earth }
        }
        func state(_ t: Double) throws -> VehicleState {
            try engine.state(track, atHours: (t - launch) / 3600)
        }
        var findings: [Finding] = []
        var worst = (seconds: start, accel: 0.0)
        var t = start, steps = 0
        while t < end, findings.count < 20 {
            steps += 1
            let s = try state(t)
            let at = TimeScale.instant(tdbSecondsPastJ2000: t)
            if s.velocityKmS.length > speedLimit {
                findings.append(Finding(mission: engine.mission.id, vehicle: track.vehicle.id, seconds: t, what: "speed \(s.velocityKmS.length) km/s"))
            }
            // Nearest surface, and the step it allows. A moon is only looked at near its planet.
            var nearest = Double.infinity, nearestSpeed = 1.0
            var planetDistance: [BodyID: Double] = [:]
            for b in bodies {
                // A planet's moon is only placed when the vehicle is within its orbit's band
                // (its mean distance, ±e·a, ±200,000 km): the moons' theories are the costly part.
                if let parent = b.body.parent, parent != .sun, parent != .earth {
                    guard let d = planetDistance[parent], let orbit = b.orbit else { continue }
                    if abs(d - orbit.semiMajorAxisKm) > orbit.semiMajorAxisKm * orbit.eccentricity + 200_000 { continue }
                }
                guard let q = eph.naifState(b.naif, at: at) else { continue }
                let d = (s.heliocentricKm - q.positionKm).length
                planetDistance[b.body] = d
                if d < b.radiusKm - 1 - Self.allowanceKm(b), landed(t) != b.body {
                    findings.append(Finding(mission: engine.mission.id, vehicle: track.vehicle.id, seconds: t,
                                            what: "\(Int(b.radiusKm - d)) km inside \(b.body)"))
                }
                if d - b.radiusKm < nearest {
                    nearest = max(d - b.radiusKm, 0)
                    nearestSpeed = max((s.velocityKmS - q.velocityKmS).length, 0.1)
                }
            }
            let h = min(max(0.08 * (nearest + 1_000) / nearestSpeed, 60), 86_400, end - t)
            guard h > 1 else { break }
            // Velocity change against gravity's (Simpson's rule about the centre at t).
            if !exempt(t, t + h) {
                let c = try gravity.center(forHeliocentric: s.heliocentricKm, seconds: t)
                func relative(_ u: Double) throws -> (r: Vector3, v: Vector3) {
                    let x = u == t ? s : try state(u)
                    let cs = c.body == .sun ? (positionKm: Vector3.zero, velocityKmS: Vector3.zero)
                        : eph.naifState(NAIFBody.id(c.body), at: TimeScale.instant(tdbSecondsPastJ2000: u))!
                    return (x.heliocentricKm - cs.positionKm, x.velocityKmS - cs.velocityKmS)
                }
                let a0 = try relative(t), am = try relative(t + h / 2), a1 = try relative(t + h)
                let expected = (c.model.accelerationKmS2(at: a0.r, seconds: t) + c.model.accelerationKmS2(at: am.r, seconds: t + h / 2) * 4
                    + c.model.accelerationKmS2(at: a1.r, seconds: t + h)) * (h / 6)
                let unexplained = (a1.v - a0.v - expected).length / h
                if unexplained > worst.accel { worst = (t, unexplained) }
                if unexplained > unexplainedLimit {
                    findings.append(Finding(mission: engine.mission.id, vehicle: track.vehicle.id, seconds: t,
                                            what: "velocity changes \(String(format: "%.2f", unexplained * 1000)) m/s² beyond gravity over \(Int(h)) s (about \(c.body); \(s.source) → \(try state(t + h).source))"))
                }
            }
            t += h
        }
        return (findings, worst, steps)
    }

    @Test("every vehicle of every mission", arguments: ServedMissions.catalogue.missions.map(\.id))
    func walkMission(_ id: String) throws {
        guard ServedMissions.engines[id] != nil else {
            Issue.record("\(id): its kernels are not all in Resources/missions")
            return
        }
        let engine = ServedMissions.engine(id)
        for track in engine.tracks {
            let (findings, worst, steps) = try Self.walk(engine, track)
            #expect(findings.isEmpty, "\(findings.map(\.description).joined(separator: "\n"))")
            print("walk \(id)/\(track.vehicle.id): \(steps) steps; largest unexplained acceleration \(String(format: "%.4f", worst.accel * 1000)) m/s² at \(TimeScale.instant(tdbSecondsPastJ2000: worst.seconds).iso8601)")
        }
    }
}
