import Astrodynamics
import Foundation
import Testing
@testable import Ephemeris
@testable import MissionKernels
import Missions

/// The stages of ``ArtemisRecipe`` on Artemis II's own data.
@Suite("Artemis II: the recipe's stages")
struct ArtemisRecipeStagesTests {
    static var recipe: ArtemisRecipe { ArtemisRecipe() }

    /// Horizons' samples of Orion with the listed burns' samples left out.
    static func track() throws -> (track: ArtemisRecipe.Track, provenance: SourceProvenance, read: Int, context: BuildContext) {
        let c = try StageContext.make(recipe.missionID)
        let vehicle = try c.vehicle(recipe.vehicleID)
        let data = try HorizonsVectors.read(text: try c.source(recipe.file), name: recipe.file)
        var provenance = SourceProvenance(vehicle: vehicle.id, naifID: vehicle.naifID, sources: [recipe.file])
        var track = ArtemisRecipe.Track(file: recipe.file, positionsKm: data.positionsKm, seconds: data.seconds,
                                        burns: ArtemisRecipe.burns(of: vehicle, c, within: data.seconds), model: try ArtemisRecipe.gravity(c.ephemeris))
        track.leaveOutBurns(&provenance)
        return (track, provenance, data.seconds.count, c)
    }

    @Test("the samples inside a listed burn are left out, each with its reason")
    func burnsLeftOut() throws {
        let (track, provenance, read, _) = try Self.track()
        #expect(!track.burns.isEmpty)  // the trans-lunar injection and the corrections
        let inBurn = track.seconds.filter { t in track.burns.contains { $0.contains(t) } }
        #expect(inBurn.isEmpty)
        #expect(provenance.excluded.count == read - track.seconds.count)
        #expect(provenance.excluded.count > 0)
        #expect(track.holdsBurn(try #require(track.seconds.lastIndex { $0 < track.burns[0].lowerBound })))
    }

    @Test("a boundary solution flies from one sample's position to the next one's")
    func boundaryJoinsTheSamples() throws {
        let (track, _, _, _) = try Self.track()
        for i in [0, 500, track.seconds.count - 2] {
            let v = try track.boundary(i, i + 1)
            let arc = try DormandPrince853().propagate(OrbitalState(seconds: track.seconds[i], positionKm: track.positionsKm[i], velocityKmS: v.start),
                                                       to: track.seconds[i + 1], model: track.model)
            // Shooting stops with each component of the miss under 1e-6 km.
            #expect((arc.end.positionKm - track.positionsKm[i + 1]).length < km(2e-6), "interval \(i)")
            #expect(arc.end.velocityKmS == v.end)
        }
    }

    @Test("a sample moved off the trajectory is left out as a seam, and only it")
    func seamLeftOut() throws {
        let (full, _, _, _) = try Self.track()
        // Seven neighbouring samples three hours after the data begin (where the source is one
        // solution, no kink over 0.3 mm/s²), the middle one moved 20 km.
        let range = 40..<47
        var positions = Array(full.positionsKm[range])
        positions[3] += positions[3].normalized * 20
        var track = ArtemisRecipe.Track(file: "test", positionsKm: positions, seconds: Array(full.seconds[range]), burns: [], model: full.model)
        var provenance = SourceProvenance(vehicle: "orion", naifID: -1024, sources: [])
        let leftOut = try track.leaveOutSeams(powered: { _ in false }, provenance: &provenance)
        #expect(provenance.excluded.map(\.tdbSeconds) == [full.seconds[range.lowerBound + 3]])
        #expect(leftOut == [full.seconds[range.lowerBound + 3]])
        #expect(track.seconds.count == 6)
        for i in 1..<(track.seconds.count - 1) {
            #expect(track.kink(i) <= ArtemisRecipe.Track.seamLimitKmS2, "sample \(i)")
        }
        // The nodes' velocities: at an inner node its two intervals', each weighted by the
        // other's length (the mean where they are equal; beside the left-out sample, the
        // 5-minute interval's counts twice the 10-minute one's).
        let nodes = track.nodes().samples
        let b0 = try track.boundary(0, 1), b1 = try track.boundary(1, 2), b2 = try track.boundary(2, 3)
        let gap = { (i: Int) in track.seconds[i + 1] - track.seconds[i] }
        #expect(abs(gap(2) - 600) < 0.01 && abs(gap(1) - 300) < 0.01)
        #expect(nodes[0].velocityKmS == b0.start)
        #expect((nodes[1].velocityKmS - (b0.end + b1.start) * 0.5).length < 1e-12)
        #expect((nodes[2].velocityKmS - (b1.end * 2 + b2.start) / 3).length < 1e-9)
        #expect((nodes[2].velocityKmS - (b1.end + b2.start) * 0.5).length > 1e-8)  // not the plain mean
    }

    @Test("the initial orbit before the apogee raise is the stated 185 × 2,223 km, its perigee at the burn's middle under the data's high orbit, in its plane")
    func initialOrbit() throws {
        let (track, _, _, c) = try Self.track()
        let vehicle = try c.vehicle(Self.recipe.vehicleID)
        let first = OrbitalState(seconds: track.seconds[0], positionKm: track.positionsKm[0], velocityKmS: try track.boundary(0, 1).start)
        let raise = try c.phase(vehicle, "apogee raise burn")
        let d = try Self.recipe.departure(firstSample: first, raise: raise, launch: c.seconds(hours: 0), model: track.model)
        let mu = GravityConstants.earthGM, radius = Constants.earthEquatorialRadiusKm
        let atBurn = try d.initialOn.state(at: (raise.lowerBound + raise.upperBound) / 2)
        // Under the high orbit's place, in its plane, moving its way, horizontal (the perigee).
        #expect(atBurn.positionKm.normalized.dot(d.atBurn.positionKm.normalized) > 1 - 1e-15)
        let normal = atBurn.positionKm.cross(atBurn.velocityKmS).normalized
        #expect(normal.dot(d.atBurn.positionKm.cross(d.atBurn.velocityKmS).normalized) > 1 - 1e-12)
        #expect(abs(atBurn.positionKm.normalized.dot(atBurn.velocityKmS.normalized)) < 1e-12)
        // The impulse that would raise it to the high orbit's energy there: ~2.2 km/s.
        let dv = ArtemisRecipe.apogeeRaiseKmS(heo: d.atBurn, initial: atBurn)
        print("[artemis2] apogee raise as one impulse at perigee: \(dv) km/s")
        #expect((2.0...2.6).contains(dv))
        let r = atBurn.positionKm.length, v = atBurn.velocityKmS.length
        let a = 1 / (2 / r - v * v / mu)
        #expect(abs(a - (radius + (185 + 2_223) / 2)) < km(1e-6))
        let h = atBurn.positionKm.cross(atBurn.velocityKmS).length
        let e = (1 - h * h / (mu * a)).squareRoot()
        let perigee = a * (1 - e) - radius, apogee = a * (1 + e) - radius
        print("[artemis2] initial orbit at the apogee raise: \(perigee) × \(apogee) km")
        #expect(abs(perigee - 185) < km(0.001), "perigee \(perigee) km")
        #expect(abs(apogee - 2_223) < km(0.001), "apogee \(apogee) km")
        // Integrated back, it reaches the launch time.
        #expect(d.initialBack.end.seconds == c.seconds(hours: 0))
        #expect(d.highOrbit.end.seconds == raise.lowerBound)
    }
}
