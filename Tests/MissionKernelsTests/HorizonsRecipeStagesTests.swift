import Astrodynamics
import Foundation
import Testing
@testable import Ephemeris
@testable import MissionKernels
import Missions

/// The stages of ``HorizonsRecipe`` on Juno's files (a daily file and two 10-minute ones, an
/// Earth flyby re-anchored).
@Suite("JPL Horizons recipes: the stages")
struct HorizonsRecipeStagesTests {
    static var recipe: HorizonsRecipe { MissionRecipes.recipe("juno") as! HorizonsRecipe }

    static func read() throws -> (c: BuildContext, read: [HorizonsRecipe.Source], naif: Int?) {
        let c = try StageContext.make(recipe.missionID)
        let (read, naif) = try recipe.readSources(c)
        return (c, read, naif)
    }

    @Test("the files merge into one time-ordered list, the finer file alone where it covers a span")
    func merge() throws {
        let (_, read, naif) = try Self.read()
        #expect(naif == -61)
        let track = HorizonsRecipe.merge(read)
        #expect(track.states.count == track.samplings.count)
        #expect(zip(track.states, track.states.dropFirst()).allSatisfy { $1.seconds - $0.seconds >= HorizonsRecipe.sameSampleSeconds })
        let daily = try #require(read.first { $0.sampling == "1-day" })
        for fine in read where fine.step < daily.step {
            let span = fine.vectors.seconds[0]...fine.vectors.seconds[fine.vectors.seconds.count - 1]
            let inside = zip(track.states, track.samplings).filter { span.contains($0.0.seconds) }
            #expect(inside.count == fine.vectors.seconds.count)
            #expect(inside.allSatisfy { $0.1 == fine.sampling })
        }
        #expect(track.states.count > daily.vectors.seconds.count)
    }

    @Test("re-anchoring the Earth flyby keeps the source's flyby distance, about DE440's Earth")
    func reanchor() throws {
        let (c, read, _) = try Self.read()
        let vehicle = try c.vehicle(Self.recipe.vehicleID)
        let source = HorizonsRecipe.merge(read)
        var track = source
        let at = try c.event("earth")
        let anchor = try Self.recipe.reanchorEncounter(.earth, at: at, track: &track, vehicle: vehicle, c)
        #expect(anchor.offsetKm.length > km(1))
        // Where the offset applies in full, the distance to DE440's Earth is the source's to its
        // Earth (DE440's moved by the offset).
        var checked = 0
        for (s, moved) in zip(source.states, track.states) where s.seconds >= anchor.fullFrom && s.seconds <= anchor.fullTo {
            let earth = try #require(c.ephemeris.naifState(399, at: TimeScale.instant(tdbSecondsPastJ2000: s.seconds)))
            let before = (s.positionKm - (earth.positionKm + anchor.offsetKm)).length
            let after = (moved.positionKm - earth.positionKm).length
            #expect(abs(after - before) < metres(0.001))
            checked += 1
        }
        #expect(checked > 10)
        // The flyby's closest sample stays the closest.
        func closest(_ t: HorizonsRecipe.Track) -> Double {
            t.states.min { a, b in
                (a.positionKm - c.ephemeris.naifState(399, at: TimeScale.instant(tdbSecondsPastJ2000: a.seconds))!.positionKm).length
                    < (b.positionKm - c.ephemeris.naifState(399, at: TimeScale.instant(tdbSecondsPastJ2000: b.seconds))!.positionKm).length
            }!.seconds
        }
        #expect(closest(track) == closest(HorizonsRecipe.Track(states: source.states.map { OrbitalState(seconds: $0.seconds, positionKm: $0.positionKm - anchor.offsetKm, velocityKmS: $0.velocityKmS) }, samplings: source.samplings)))
    }

    @Test("the launch: each burn the first samples need lies in a listed powered phase")
    func launchBurns() throws {
        let (c, read, naif) = try Self.read()
        let vehicle = try c.vehicle(Self.recipe.vehicleID)
        var track = HorizonsRecipe.merge(read)
        var notes: [String] = []
        var provenance = SourceProvenance(vehicle: vehicle.id, naifID: naif ?? vehicle.naifID, sources: [])
        let powered = HorizonsRecipe.PoweredPhases(vehicle: vehicle, context: c)
        let before = track.states.count
        let (burns, bridge) = try Self.recipe.launchBurns(&track, powered: powered, c, notes: &notes, provenance: &provenance)
        #expect(burns.allSatisfy { powered.holding($0) != nil })
        #expect(provenance.excluded.count == before - track.states.count)
        // The first sample kept ends the launch phase.
        #expect(powered.holding(track.states[0].seconds - 1) != nil)
        // Juno's last launch burn (106 m/s, 17:32) lies in an interval that runs to the next
        // day: that interval is bridged from its first sample to the launch phase's end, and
        // nothing after the phase is left to the blend.
        let w = try #require(bridge)
        let phase = try #require(vehicle.phases.first { $0.name == w.name })
        #expect(phase.kind == .powered)
        #expect(w.window.upperBound == c.seconds(hours: phase.endHours))
        let i = try #require(track.states.firstIndex { $0.seconds == w.window.lowerBound })
        #expect(HorizonsRecipe.bridge(i, track.states, [w])?.name == w.name)
        #expect(track.states[i + 1].seconds > w.window.upperBound)
        #expect(notes.contains { $0.hasPrefix("Launch: the last burn's interval is flown as a powered blend") })
    }

    /// Juno's merged samples with the listed burns left out: what was left out, and the burns' windows.
    static func listedBurnsLeftOut() throws -> (c: BuildContext, track: HorizonsRecipe.Track, excluded: [(seconds: Double, reason: String)],
                                                provenance: SourceProvenance, windows: [HorizonsRecipe.BridgeWindow]) {
        let (c, read, naif) = try read()
        let vehicle = try c.vehicle(recipe.vehicleID)
        var track = HorizonsRecipe.merge(read)
        var excluded: [(seconds: Double, reason: String)] = []
        var provenance = SourceProvenance(vehicle: vehicle.id, naifID: naif ?? vehicle.naifID, sources: [])
        let windows = HorizonsRecipe.leaveOutListedBurns(&track, vehicle: vehicle, c, excluded: &excluded, provenance: &provenance)
        return (c, track, excluded, provenance, windows)
    }

    @Test("listed burns: no sample left inside one, each bridged by the interval around it")
    func listedBurns() throws {
        let (_, track, excluded, provenance, windows) = try Self.listedBurnsLeftOut()
        #expect(!windows.isEmpty)
        #expect(excluded.count == provenance.excluded.count)
        for w in windows {
            #expect(!track.states.contains { w.window.contains($0.seconds) }, "\(w.name)")
            let i = try #require(track.states.lastIndex { $0.seconds < w.window.lowerBound })
            #expect(HorizonsRecipe.bridge(i, track.states, windows)?.name == w.name)
        }
    }

    @Test("Jupiter orbit insertion: an arc either side, each a path of gravity fitted to the samples, joined by the burn's 542 m/s")
    func burnArcs() throws {
        let (c, track, _, _, windows) = try Self.listedBurnsLeftOut()
        let vehicle = try c.vehicle(Self.recipe.vehicleID)
        let w = try #require(windows.first { $0.name == "Jupiter orbit insertion" })
        let arc = try #require(try Self.recipe.burnArc(.jupiter, burn: w, samples: track.states, powered: .init(vehicle: vehicle, context: c), ephemeris: c.ephemeris))
        let approach = try #require(arc.approach)
        // Horizons' reconstruction is not quite this gravity's path: fitted within tens of km.
        #expect(approach.rmsKm < 20 && arc.departure.rmsKm < 20, "\(approach.rmsKm), \(arc.departure.rmsKm) km rms")
        #expect(approach.worstKm < 60 && arc.departure.worstKm < 60)
        // Each arc is gravity's path: flown again from its start, it arrives where it says.
        let model = try HorizonsPath.model(.jupiter, frame: .heliocentric, ephemeris: c.ephemeris)
        func local(_ s: OrbitalState) -> OrbitalState {
            let o = HorizonsPath.centerState(.jupiter, model: model, frame: .heliocentric, seconds: s.seconds, ephemeris: c.ephemeris)
            return OrbitalState(seconds: s.seconds, positionKm: s.positionKm - o.positionKm, velocityKmS: s.velocityKmS - o.velocityKmS)
        }
        for (f, from, to) in [(approach.state, arc.arcFrom, w.window.lowerBound), (arc.departure.state, w.window.upperBound, arc.arcTo)] {
            let flown = try DormandPrince853().propagate(local(try f(from)), to: to, model: model).state(at: to)
            #expect((flown.positionKm - local(try f(to)).positionKm).length < 0.05)
        }
        // Only the burn changes the velocity between them: NASA's 542 m/s.
        let mid = (w.window.lowerBound + w.window.upperBound) / 2
        let dv = (try arc.departure.state(mid).velocityKmS - (try approach.state(mid)).velocityKmS).length * 1000
        print("Jupiter orbit insertion: arcs fitted within \(approach.rmsKm) and \(arc.departure.rmsKm) km rms; \(dv) m/s between them")
        #expect(abs(dv - 542) < 0.1 * 542, "\(dv) m/s")
        // The arcs' ends fall between samples; the easings are 9 hours.
        for t in [arc.start, arc.arcFrom, arc.arcTo, arc.end] { #expect(!track.states.contains { abs($0.seconds - t) < 60 }) }
        #expect(arc.blendFrom == w.window.lowerBound && arc.start == arc.arcFrom - 9 * 3_600)
    }

    @Test("the gap notes: the samples left out, the largest and the median gap")
    func gapNotes() {
        let gaps: [(seconds: Double, center: BodyID, km: Double)] = [(0, .sun, 3), (10, .earth, 0.5), (20, .sun, 40)]
        let notes = HorizonsRecipe.gapNotes(excluded: [(5, "a reason")], gaps: gaps)
        #expect(notes.count == 1 + 1 + 1 + 3)
        #expect(notes[0].hasSuffix(": a reason"))
        #expect(notes[1].contains("40 km (about sun"))
        #expect(notes[2] == "Median gap: 3 km over 3 intervals.")
    }

    /// Twenty of Juno's daily samples in cruise about the Sun (from 2014-06-01), clear of every
    /// burn and encounter.
    static func cruise(_ track: HorizonsRecipe.Track) throws -> HorizonsRecipe.Track {
        let k = try #require(track.states.firstIndex { $0.seconds > 454_896_000 })
        return HorizonsRecipe.Track(states: Array(track.states[k..<(k + 20)]), samplings: Array(track.samplings[k..<(k + 20)]))
    }

    @Test("a sample that jumps off the trajectory is left out as a seam, and the path goes through the others")
    func seams() throws {
        let (c, read, _) = try Self.read()
        let vehicle = try c.vehicle(Self.recipe.vehicleID)
        let clean = try Self.cruise(HorizonsRecipe.merge(read))
        // Sample 8 moved 100,000 km: no gentle spread over a day (6·gap/Δt² = 8e-5 km/s²), none
        // over two days (4e-5); and no single burn explains it.
        var states = clean.states
        states[8].positionKm += states[8].positionKm.normalized * 100_000
        var track = HorizonsRecipe.Track(states: states, samplings: clean.samplings)
        var excluded: [(seconds: Double, reason: String)] = []
        var notes: [String] = []
        var provenance = SourceProvenance(vehicle: vehicle.id, naifID: -61, sources: [])
        let (path, gaps) = try Self.recipe.spreadSeams(&track, burns: [], bridgeWindows: [], powered: .init(vehicle: vehicle, context: c), c,
                                                       excluded: &excluded, notes: &notes, provenance: &provenance)
        #expect(excluded.map(\.seconds) == [clean.states[8].seconds])
        #expect(provenance.excluded.map(\.tdbSeconds) == [clean.states[8].seconds])
        #expect(notes.count == 1 && notes[0].hasPrefix("Seam: "))
        #expect(track.states.count == 19 && track.samplings.count == 19)
        #expect(gaps.count == 18)
        for s in track.states {
            #expect((try path.state(at: s.seconds).positionKm - s.positionKm).length < metres(1))
        }
        // The clean samples need nothing left out.
        var untouched = clean
        excluded = []
        _ = try Self.recipe.spreadSeams(&untouched, burns: [], bridgeWindows: [], powered: .init(vehicle: vehicle, context: c), c,
                                        excluded: &excluded, notes: &notes, provenance: &provenance)
        #expect(excluded.isEmpty && untouched.states.count == 20)
    }

    @Test("the data's segments: one per sampling, three per listed burn (its coasts and its window), end to end over the samples")
    func dataPieces() throws {
        let (c, all, _, _, windows) = try Self.listedBurnsLeftOut()
        let dsm = try #require(windows.first { $0.name == "deep space manoeuvre 1" })
        let i = try #require(all.states.lastIndex { $0.seconds < dsm.window.lowerBound })
        // Ten samples about the manoeuvre, the last four relabelled as another sampling.
        let range = (i - 4)..<(i + 6)
        let labels = range.map { $0 < i + 2 ? all.samplings[$0] : "other" }
        let track = HorizonsRecipe.Track(states: Array(all.states[range]), samplings: labels)
        let path = try HorizonsPath(samples: track.states, frame: .heliocentric, ephemeris: c.ephemeris)
        var notes: [String] = []
        let pieces = try HorizonsRecipe.dataPieces(track, path: path, bridgeWindows: windows, naifID: -61, ephemeris: c.ephemeris, notes: &notes)
        #expect(pieces.map(\.name) == ["JPL Horizons -61 1-day", "Coast to deep space manoeuvre 1", "deep space manoeuvre 1 (modelled)", "Coast after deep space manoeuvre 1", "JPL Horizons -61 1-day", "JPL Horizons -61 other"])
        #expect(pieces.first?.startSeconds == track.states[0].seconds && pieces.last?.endSeconds == track.states[9].seconds)
        #expect(zip(pieces, pieces.dropFirst()).allSatisfy { $0.endSeconds == $1.startSeconds })
        // The burn's window is a segment of its own, between the coasts to and from it.
        #expect(pieces[2].startSeconds == dsm.window.lowerBound && pieces[2].endSeconds == dsm.window.upperBound)
        #expect(Set(pieces.flatMap(\.requiredSeconds)) == Set(track.states.map(\.seconds)).union([dsm.window.lowerBound, dsm.window.upperBound]))
        #expect(notes.count == 1 && notes[0].hasPrefix("deep space manoeuvre 1: "))
    }

    @Test("before the data: the ascent from the launch, the escape ending on the first sample")
    func launchPieces() throws {
        let (c, read, _) = try Self.read()
        let first = HorizonsRecipe.merge(read).states[0]
        let pieces = try Self.recipe.launchPieces(before: first, c, naifID: -61)
        #expect(pieces.count == 2)
        #expect(pieces[0].startSeconds == c.seconds(hours: 0) && pieces[0].endSeconds == pieces[1].startSeconds && pieces[1].endSeconds == first.seconds)
        #expect((try pieces[1].state(first.seconds).positionKm - first.positionKm).length < metres(1))
        // A first sample within a minute of the launch leaves no room for them.
        let early = OrbitalState(seconds: c.seconds(hours: 0) + 30, positionKm: first.positionKm, velocityKmS: first.velocityKmS)
        #expect(try Self.recipe.launchPieces(before: early, c, naifID: -61).isEmpty)
    }
}
