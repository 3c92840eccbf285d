import Astrodynamics
import Foundation
import Testing
@testable import Ephemeris
@testable import MissionKernels
import Missions

/// Mars 2020 as shipped: `Resources/missions/perseverance.bsp`, NAIF's kernels beside it,
/// missions.json and DE440.
enum M2020 {
    static var ephemeris: Ephemeris { Repository.ephemeris }

    static let mission: Mission = {
        do { return try Repository.missions.mission("perseverance") } catch { fatalError("missions.json: \(error)") }
    }()

    /// A kernel of `Resources/missions/`, by the name missions.json lists it under.
    static func kernel(_ name: String) throws -> SPKKernel {
        try SPKKernel(bytes: KernelBuffer(copying: Repository.bytes("Resources/missions/\(name)")), file: name)
    }

    static let ours: SPKKernel = { do { return try kernel("perseverance.bsp") } catch { fatalError("\(error)") } }()
    static let cruise = "naif/m2020_cruise_od138_v1.bsp"
    static let edl = "naif/m2020_edl_v01.bsp"
    static let surface = "naif/m2020_surf_rover_loc_0000_0089_v1.bsp"

    static var vehicle: Vehicle { mission.vehicle("perseverance")! }
    static var launchSeconds: Double { mission.launch.daysSinceJ2000TDB * Constants.secondsPerDay }

    /// The phases of a kind as TDB seconds (a few milliseconds of slack: mission hours are TT).
    static func spans(_ kind: VehiclePhase.Kind) -> [ClosedRange<Double>] {
        vehicle.phases.filter { $0.kind == kind }.map { (launchSeconds + $0.startHours * 3600 - 0.01)...(launchSeconds + $0.endHours * 3600 + 0.01) }
    }

    static func within(_ kind: VehiclePhase.Kind, _ t: Double) -> Bool { spans(kind).contains { $0.contains(t) } }

    /// The segment of `kernel` whose name starts with `prefix`.
    static func segment(_ kernel: SPKKernel, _ prefix: String) throws -> Int {
        try #require(kernel.segments.firstIndex { $0.name.hasPrefix(prefix) }, "no segment \(prefix) in \(kernel.file)")
    }
}

@Suite("Perseverance: the recipe and the shipped kernel against NAIF's kernels", .serialized)
struct PerseveranceRecipeTests {
    @Test("the recipe's pieces join in position and velocity, but for one impulse inside its listed powered phase")
    func recipeJoins() throws {
        let context = BuildContext(ephemeris: M2020.ephemeris, mission: M2020.mission,
                                   source: { throw RecipeError(description: "no source \($0)") }, kernel: { try M2020.kernel($0) })
        let paths = try PerseveranceRecipe().paths(context)
        let pieces = try #require(paths.first).pieces
        #expect(pieces.count == 14)
        var impulses: [(name: String, seconds: Double, kmS: Double)] = []
        for (a, b) in zip(pieces, pieces.dropFirst()) {
            #expect(a.endSeconds == b.startSeconds, "\(a.name) -> \(b.name)")
            let sa = try a.state(a.endSeconds), sb = try b.state(b.startSeconds)
            let dr = (sa.positionKm - sb.positionKm).length, dv = (sa.velocityKmS - sb.velocityKmS).length
            #expect(dr < metres(0.01), "\(a.name) -> \(b.name): \(dr * 1000) m")
            if dv > metresPerSecond(0.1) {
                impulses.append((b.name, b.startSeconds, dv))
                #expect(M2020.within(.powered, b.startSeconds), "\(a.name) -> \(b.name): \(dv * 1000) m/s outside a powered phase")
            }
        }
        // TCM-1: one impulse of metres per second, at its phase's middle.
        #expect(impulses.count == 1, "\(impulses)")
        let tcm = try #require(impulses.first)
        #expect(tcm.name == "Cruise from TCM-1 (integrated)")
        #expect(tcm.kmS > metresPerSecond(0.5) && tcm.kmS < metresPerSecond(20), "\(tcm.kmS * 1000) m/s")
        print(String(format: "[perseverance] TCM-1 impulse %.3f m/s", tcm.kmS * 1000))
    }

    @Test("the shipped kernel holds NAIF's states within 1 m where it copies them")
    func reproducesNAIF() throws {
        let ours = M2020.ours
        // The cruise solution, every second (type 1 has no samples of its own), up to the seam.
        let cruise = try M2020.kernel(M2020.cruise)
        let od = try M2020.segment(ours, "NAIF m2020_cruise_od138")
        let odNAIF = try #require(cruise.segments.firstIndex { $0.target == -168 })
        #expect(ours.segments[od].center == cruise.segments[odNAIF].center && ours.segments[od].frame == cruise.segments[odNAIF].frame)
        let odTimes = stride(from: ours.segments[od].startSeconds, through: ours.segments[od].endSeconds, by: 1).map { $0 }
        // The EDL reconstruction's and the rover's own epochs.
        let edl = try M2020.kernel(M2020.edl)
        let entry = try M2020.segment(ours, "NAIF m2020_edl")
        let entryNAIF = try #require(edl.segments.firstIndex { $0.target == -168_031 })
        let surface = try M2020.kernel(M2020.surface)
        let rover = try M2020.segment(ours, "NAIF m2020_surf_rover_loc")
        let roverNAIF = try #require(surface.segments.firstIndex { $0.target == -168 })
        #expect(ours.segments[rover].frame == 10_014 && ours.segments[rover].center == 499)
        for (name, i, source, j, times) in [
            ("cruise od138", od, cruise, odNAIF, odTimes),
            ("EDL -168031", entry, edl, entryNAIF, try #require(edl.stateEpochs(segment: entryNAIF))),
            ("rover", rover, surface, roverNAIF, try #require(surface.stateEpochs(segment: roverNAIF))),
        ] {
            #expect(times.count > 200, "\(name)")
            var worst = (seconds: 0.0, km: 0.0)
            for t in times {
                let d = (ours.state(segment: i, secondsPastJ2000: t).positionKm - source.state(segment: j, secondsPastJ2000: t).positionKm).length
                if d > worst.km { worst = (t, d) }
            }
            #expect(worst.km < metres(1), "\(name): \(worst.km * 1000) m at \(worst.seconds)")
            print(String(format: "[perseverance] %@: %d epochs, max |Δr| %.4f m", name, times.count, worst.km * 1000))
        }
    }

    /// `id`'s state from one segment, heliocentric ecliptic J2000, as the server places it.
    static func place(_ bodies: KernelBodies, _ e: KernelBodies.Entry, _ seconds: Double) throws -> (positionKm: Vector3, velocityKmS: Vector3) {
        let at = TimeScale.instant(tdbSecondsPastJ2000: seconds)
        let local = bodies.relativeState(e, seconds: seconds, at: at, ephemeris: M2020.ephemeris)
        let c = try bodies.place(e.center, at: at, seconds: seconds, ephemeris: M2020.ephemeris, depth: 1, for: e.target)
        return (c.positionKm + local.positionKm, c.velocityKmS + local.velocityKmS)
    }

    @Test("read alone as the server reads it, the kernel is continuous at every join but the listed burn, and covers the mission")
    func kernelJoins() throws {
        let bodies = try KernelBodies([M2020.ours])
        #expect(bodies.refusals.isEmpty)
        let entries = bodies.segments(of: -168).sorted { $0.startSeconds < $1.startSeconds }
        #expect(entries.count == 14)
        let start = try #require(entries.first), end = try #require(entries.last)
        #expect(abs(start.startSeconds - M2020.launchSeconds) < 0.01)
        #expect(end.endSeconds >= M2020.launchSeconds + (M2020.mission.endHours ?? 0) * 3600 - 0.01)
        for (a, b) in zip(entries, entries.dropFirst()) {
            #expect(abs(a.endSeconds - b.startSeconds) < 1e-6, "\(a.name) -> \(b.name): a gap")
            let sa = try Self.place(bodies, a, b.startSeconds), sb = try Self.place(bodies, b, b.startSeconds)
            let dr = (sa.positionKm - sb.positionKm).length, dv = (sa.velocityKmS - sb.velocityKmS).length
            #expect(dr < metres(0.05), "\(a.name) -> \(b.name): \(dr * 1000) m")
            #expect(dv < metresPerSecond(0.1) || M2020.within(.powered, b.startSeconds), "\(a.name) -> \(b.name): \(dv * 1000) m/s")
            print(String(format: "[perseverance] join %@ -> %@: |Δr| %.4f m, |Δv| %.4f m/s", a.name, b.name, dr * 1000, dv * 1000))
        }
    }

    @Test("minute by minute: below 200 km/s, above every body's surface unless landed, and no change of velocity gravity does not explain outside the powered phases")
    func physics() throws {
        let eph = M2020.ephemeris
        let bodies = try KernelBodies([M2020.ours])
        let first = M2020.launchSeconds, last = first + (M2020.mission.endHours ?? 0) * 3600
        let models: [BodyID: GravityModel] = [
            .sun: try HorizonsPath.model(.sun, frame: .heliocentric, ephemeris: eph),
            .earth: try HorizonsPath.model(.earth, frame: .heliocentric, ephemeris: eph),
            .mars: try HorizonsPath.model(.mars, frame: .heliocentric, ephemeris: eph),
        ]
        func state(_ t: Double) throws -> KernelBodies.State { try bodies.state(-168, at: TimeScale.instant(tdbSecondsPastJ2000: t), ephemeris: eph) }
        func center(_ b: BodyID, _ t: Double) -> (positionKm: Vector3, velocityKmS: Vector3) {
            HorizonsPath.centerState(b, model: models[b]!, frame: .heliocentric, seconds: t, ephemeris: eph)
        }
        // The body whose gravity dominates within a million km, else the Sun.
        func dominant(_ p: Vector3, _ t: Double) -> BodyID {
            for b in [BodyID.earth, .mars] where (p - center(b, t).positionKm).length < 1e6 { return b }
            return .sun
        }
        var fastest = 0.0
        var lowest: [BodyID: Double] = [:]
        var worstSpeedStep = (seconds: 0.0, kmS: 0.0)
        var unexplained = (seconds: 0.0, kmS: 0.0), seam = (seconds: 0.0, kmS: 0.0)
        var minutes = 0
        var t = first
        var previous = try state(first)
        while t + 60 <= last {
            let mid = try state(t + 30), next = try state(t + 60)
            fastest = max(fastest, next.velocityKmS.length)
            let quiet = !M2020.spans(.powered).contains { $0.overlaps(t...(t + 60)) } && !M2020.spans(.landed).contains { $0.overlaps(t...(t + 60)) }
            if !M2020.within(.landed, t + 60) {
                for b in [BodyID.earth, .moon, .mars] {
                    let c = b == .moon ? eph.naifState(301, at: TimeScale.instant(tdbSecondsPastJ2000: t + 60))! : center(b, t + 60)
                    let above = (next.positionKm - c.positionKm).length - eph.catalogue[b].radiusKm
                    lowest[b] = min(lowest[b] ?? .infinity, above)
                }
            }
            if quiet {
                let step = abs(next.velocityKmS.length - previous.velocityKmS.length)
                if step > worstSpeedStep.kmS { worstSpeedStep = (t, step) }
                // Δv about the dominant body against Simpson's rule on the model's acceleration.
                let b = dominant(mid.positionKm, t + 30)
                func local(_ s: KernelBodies.State, _ at: Double) -> (Vector3, Vector3) {
                    let c = center(b, at)
                    return (s.positionKm - c.positionKm, s.velocityKmS - c.velocityKmS)
                }
                let (r0, v0) = local(previous, t), (rm, _) = local(mid, t + 30), (r1, v1) = local(next, t + 60)
                let m = models[b]!
                let predicted = (m.accelerationKmS2(at: r0, seconds: t) + m.accelerationKmS2(at: rm, seconds: t + 30) * 4
                                 + m.accelerationKmS2(at: r1, seconds: t + 60)) * 10
                let residual = (v1 - v0 - predicted).length
                let inSeam = [previous, mid, next].contains { $0.segment.name.hasPrefix("Seam") }
                if inSeam { if residual > seam.kmS { seam = (t, residual) } } else if residual > unexplained.kmS { unexplained = (t, residual) }
            }
            previous = next
            t += 60
            minutes += 1
        }
        // The ascent and the entry, second by second: above the Earth and Mars all the way down.
        for span in M2020.spans(.powered) where span.upperBound - span.lowerBound < 7_200 {
            for s in stride(from: span.lowerBound + 0.02, through: span.upperBound - 0.02, by: 1) {
                let p = try state(s).positionKm
                for b in [BodyID.earth, .mars] {
                    lowest[b] = min(lowest[b] ?? .infinity, (p - center(b, s).positionKm).length - eph.catalogue[b].radiusKm)
                }
            }
        }
        func iso(_ t: Double) -> String { TimeScale.instant(tdbSecondsPastJ2000: t).iso8601 }
        print(String(format: "[perseverance] %d minutes: fastest %.3f km/s; largest change of speed in a minute outside powered and landed phases %.2f m/s (%@)",
                     minutes, fastest, worstSpeedStep.kmS * 1000, iso(worstSpeedStep.seconds)))
        print(String(format: "[perseverance] largest Δv in a minute that gravity does not explain: %.4f m/s (%@); in the spread seam %.3f m/s (%@)",
                     unexplained.kmS * 1000, iso(unexplained.seconds), seam.kmS * 1000, iso(seam.seconds)))
        print("[perseverance] lowest above the surface outside landed phases: " + lowest.sorted { $0.key.rawValue < $1.key.rawValue }.map { String(format: "%@ %.3f km", $0.key.rawValue, $0.value) }.joined(separator: ", "))
        #expect(minutes > 400_000)
        #expect(fastest < 200)
        #expect(lowest.values.allSatisfy { $0 > 0 }, "\(lowest)")
        #expect(unexplained.kmS < metresPerSecond(0.05), "\(unexplained.kmS * 1000) m/s at \(iso(unexplained.seconds))")
        // The seam spreads 0.2 km over 155 s with at most 0.05 m/s²: 3 m/s in a minute.
        #expect(seam.kmS < metresPerSecond(3.1), "\(seam.kmS * 1000) m/s at \(iso(seam.seconds))")
    }

    @Test("as missions.json loads them, our continuous kernel is served and it is NAIF's path where NAIF's kernels cover it")
    func servedPath() throws {
        let files = M2020.mission.kernels
        // Listed last, so it outranks NAIF's kernels: one continuous path (NAIF's cruise and EDL
        // solutions disagree by 0.2 km, which our kernel spreads).
        #expect(files.last == "perseverance.bsp")
        let bodies = try KernelBodies(try files.map { try M2020.kernel($0) })
        // NAIF's EDL kernel hangs the rover from the entry vehicle in a spacecraft frame: refused.
        #expect(bodies.refusals.contains { $0.file == M2020.edl && $0.target == -168 })
        // The rover's (-168) span in each NAIF kernel.
        func span(_ file: String) throws -> ClosedRange<Double> {
            let list = try KernelBodies([try M2020.kernel(file)]).segments(of: -168)
            return try #require(list.map(\.startSeconds).min())...(try #require(list.map(\.endSeconds).max()))
        }
        let cruise = try span(M2020.cruise), surface = try span(M2020.surface)
        var compared = 0
        // Not the cruise's last 155 s: there our kernel spreads the seam to NAIF's EDL solution.
        for (t, file) in [(cruise.lowerBound + 1, M2020.cruise), (cruise.lowerBound + 120, M2020.cruise),
                          (cruise.upperBound - 200, M2020.cruise), (surface.lowerBound + 1, M2020.surface),
                          ((surface.lowerBound + surface.upperBound) / 2, M2020.surface), (surface.upperBound - 1, M2020.surface)] {
            let at = TimeScale.instant(tdbSecondsPastJ2000: t)
            #expect(bodies.segment(of: -168, at: t)?.file.hasSuffix("perseverance.bsp") == true, "\(at.iso8601)")
            let naif = try KernelBodies([try M2020.kernel(file)]).state(-168, at: at, ephemeris: M2020.ephemeris)
            let served = try bodies.state(-168, at: at, ephemeris: M2020.ephemeris)
            #expect((served.positionKm - naif.positionKm).length < metres(1), "\(at.iso8601): \((served.positionKm - naif.positionKm).length * 1000) m from \(file)")
            compared += 1
        }
        #expect(compared == 6)
        let engine = try MissionEngine(mission: M2020.mission, ephemeris: M2020.ephemeris, kernels: bodies)
        let track = try #require(engine.tracks.first)
        let landing = try #require(M2020.mission.events.first { $0.key == "landing" })
        let landed = try engine.state(track, atHours: landing.timeHours + 0.01)
        let mars = try #require(M2020.ephemeris.naifState(499, at: landed.instant))
        #expect(abs((landed.heliocentricKm - mars.positionKm).length - 3_391.937) < metres(5))
    }
}
