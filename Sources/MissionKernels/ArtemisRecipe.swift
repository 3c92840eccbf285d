import Astrodynamics
import Ephemeris
import Missions

/// Artemis II as flown: JPL Horizons' 5-minute geocentric positions of Orion, given velocities
/// by solving, for every pair of neighbouring samples, the two-point boundary problem under the
/// Earth's (J2–J4), the Moon's and the Sun's gravity (each node's velocity the mean of the two
/// intervals meeting there); the path between samples blended from forward and backward
/// integrations (``HorizonsPath``). Before the data: the ascent, the initial orbit and the
/// apogee-raise burn; after it: the entry flown to the splashdown time.
public struct ArtemisRecipe: MissionRecipe {
    public let missionID = "artemis2"
    public let vehicleID = "orion"
    public let file = "horizons-artemis2-geocentric-5m.txt"
    /// The initial orbit (after the perigee raise), km above the Earth: 185 × 2,223 (Horizons header).
    public let initialOrbitKm = (perigee: 185.0, apogee: 2_223.0)
    public var entry = EntryModel.orion

    public init() {}

    public var sources: [String] { [file] }

    public func paths(_ c: BuildContext) throws -> [VehiclePath] {
        let eph = c.ephemeris
        let vehicle = try c.vehicle(vehicleID)
        let data = try HorizonsVectors.read(text: try c.source(file), name: file)
        let model = try GravityModel(ephemeris: eph, center: .earth, perturbers: [.sun, .moon, .venus, .mars, .jupiter, .saturn], zonalDegree: 4)
        let dop = DormandPrince853()
        let muE = GravityConstants.earthGM
        var p = data.positionsKm, t = data.seconds
        var provenance = SourceProvenance(vehicle: vehicle.id, naifID: data.naifID ?? vehicle.naifID, sources: [file])
        // Burns inside the data (trans-lunar injection): the samples taken while the engine
        // fired are left out; the interval that then holds the whole burn is flown as coasts
        // on either side of one impulse at the burn's middle.
        let burnPhases = vehicle.phases.filter { $0.kind == .powered }
            .map { c.seconds(hours: $0.startHours)...c.seconds(hours: $0.endHours) }
            .filter { $0.lowerBound > t[0] && $0.upperBound < t[t.count - 1] }
        for burn in burnPhases {
            while let k = t.firstIndex(where: { burn.contains($0) }) {
                provenance.exclude(t[k], "in powered flight (a listed burn from \(TimeScale.instant(tdbSecondsPastJ2000: burn.lowerBound).iso8601) to \(TimeScale.instant(tdbSecondsPastJ2000: burn.upperBound).iso8601))")
                p.remove(at: k)
                t.remove(at: k)
            }
        }
        /// Whether the interval from sample i to i + 1 holds a burn.
        func holdsBurn(_ i: Int) -> Bool { burnPhases.contains { $0.lowerBound >= t[i] && $0.upperBound <= t[i + 1] } }
        // Velocities from the two-point boundary problems, one per interval.
        func boundary(_ i: Int, _ j: Int) throws -> (start: Vector3, end: Vector3) {
            let dt = t[j] - t[i]
            guard let guess = KeplerArc.lambert(mu: muE, from: p[i], to: p[j], seconds: dt, longWay: false) else {
                throw RecipeError(description: "\(file): no two-body arc from \(TimeScale.instant(tdbSecondsPastJ2000: t[i]).iso8601) to the next sample")
            }
            let v = try Shooting.solve([guess.v1.x, guess.v1.y, guess.v1.z], steps: [1e-7, 1e-7, 1e-7], tolerance: [1e-6, 1e-6, 1e-6]) { x in
                let end = try dop.propagate(OrbitalState(seconds: t[i], positionKm: p[i], velocityKmS: Vector3(x[0], x[1], x[2])), to: t[j], model: model).end
                let miss = end.positionKm - p[j]
                return [miss.x, miss.y, miss.z]
            }.x
            let v0 = Vector3(v[0], v[1], v[2])
            return (v0, try dop.propagate(OrbitalState(seconds: t[i], positionKm: p[i], velocityKmS: v0), to: t[j], model: model).end.velocityKmS)
        }
        var arcs = try (0..<(p.count - 1)).map { try boundary($0, $0 + 1) }
        // Seams: the file merges several trajectory solutions, and where one hands over to the
        // next the positions jump (by up to 165 km within a few samples) where no burn was made.
        // A sample whose two intervals meet with a velocity kink no listed burn explains (more
        // than 0.05 m/s² over the two half-intervals) is left out, the worst first, until none
        // is left: the jump is spread over the samples' wider spacing.
        let limit = 5e-5 // km/s²
        func powered(_ s: Double) -> Bool {
            vehicle.phases.contains { $0.kind == .powered && c.seconds(hours: $0.startHours) - 600 <= s && c.seconds(hours: $0.endHours) + 600 >= s }
        }
        var excludedNotes: [Double: Int] = [:]
        while true {
            var worst: (index: Int, accel: Double)?
            for i in 1..<(p.count - 1) where !powered(t[i]) && !holdsBurn(i - 1) && !holdsBurn(i) {
                let accel = (arcs[i - 1].end - arcs[i].start).length / ((t[i + 1] - t[i - 1]) / 2)
                if accel > limit, accel > worst?.accel ?? 0 { worst = (i, accel) }
            }
            guard let w = worst else { break }
            provenance.exclude(t[w.index], "a seam between trajectory solutions in the source (a velocity kink of \(Int(((arcs[w.index - 1].end - arcs[w.index].start).length * 1000).rounded())) m/s where no burn was made)")
            let hour = (t[w.index] / 3600).rounded(.down)
            excludedNotes[hour, default: 0] += 1
            p.remove(at: w.index)
            t.remove(at: w.index)
            arcs.replaceSubrange((w.index - 1)...w.index, with: [try boundary(w.index - 1, w.index)])
        }
        var samples: [OrbitalState] = []
        var worstJump = (seconds: 0.0, kmS: 0.0)
        for i in 0..<p.count {
            let v: Vector3
            // Beside a burn, the velocity of the coast on the sample's other side.
            if i == 0 || (i < p.count - 1 && holdsBurn(i - 1)) { v = arcs[i].start } else if i == p.count - 1 || holdsBurn(i) { v = arcs[i - 1].end } else {
                v = (arcs[i - 1].end + arcs[i].start) * 0.5
                let jump = (arcs[i - 1].end - arcs[i].start).length
                if jump > worstJump.kmS { worstJump = (t[i], jump) }
            }
            samples.append(OrbitalState(seconds: t[i], positionKm: p[i], velocityKmS: v))
        }
        let path = try HorizonsPath(samples: samples, frame: .geocentric, ephemeris: eph,
                                    burns: burnPhases.map { ($0.lowerBound + $0.upperBound) / 2 })
        let earth: (Double) -> (positionKm: Vector3, velocityKmS: Vector3) = { s in eph.naifState(399, at: TimeScale.instant(tdbSecondsPastJ2000: s)) ?? (.zero, .zero) }
        func helio(_ g: OrbitalState) -> OrbitalState {
            let e = earth(g.seconds)
            return OrbitalState(seconds: g.seconds, positionKm: g.positionKm + e.positionKm, velocityKmS: g.velocityKmS + e.velocityKmS)
        }
        let first = t[0], last = t[t.count - 1]
        var pieces: [PathPiece] = []
        var notes = ["Source: \(file) (JPL Horizons, Orion -1024, positions every 5 minutes, Earth-centred ecliptic J2000, TDB).",
                     "Largest velocity disagreement between neighbouring intervals' boundary solutions: \(Int((worstJump.kmS * 1000).rounded())) m/s at \(TimeScale.instant(tdbSecondsPastJ2000: worstJump.seconds).iso8601) (the burns)."]
        // Each listed burn between two samples flown over its published window: coasts from the
        // samples either side, a powered blend between them (no impulse outside the window).
        var bridges: [(index: Int, bridge: BurnBridge, name: String)] = []
        for burn in burnPhases {
            guard let i = samples.lastIndex(where: { $0.seconds <= burn.lowerBound }), i + 1 < samples.count, samples[i + 1].seconds >= burn.upperBound else { continue }
            let bridge = try BurnBridge(before: samples[i], after: samples[i + 1], window: burn, frame: .geocentric, ephemeris: eph)
            let name = vehicle.phases.first { c.seconds(hours: $0.startHours) == burn.lowerBound }?.name ?? "burn"
            bridges.append((i, bridge, name))
            notes.append("\(name): \(Int((bridge.deltaVKmS * 1000).rounded())) m/s between the coasts either side of its window (\(TimeScale.instant(tdbSecondsPastJ2000: burn.lowerBound).iso8601) to \(TimeScale.instant(tdbSecondsPastJ2000: burn.upperBound).iso8601)); the samples during it are left out.")
        }
        for (hour, n) in excludedNotes.sorted(by: { $0.key < $1.key }) {
            notes.append("Seam: \(n) sample(s) in the hour from \(TimeScale.instant(tdbSecondsPastJ2000: hour * 3600).iso8601) left out (two trajectory solutions joined in the source; see the provenance file).")
        }

        // Before the data: back from the first sample (the high Earth orbit) to the apogee-raise
        // burn, the orbit before it (185 × 2,223 km: same place and direction, lower speed), back
        // to orbit insertion, and the ascent from the pad.
        let launch = c.seconds(hours: 0)
        let ascent = try c.phase(vehicle, "ascent")
        let raise = try c.phase(vehicle, "apogee raise burn")
        let raiseMid = (raise.lowerBound + raise.upperBound) / 2
        let heo = try dop.propagate(samples[0], to: raise.lowerBound, model: model)
        let atBurn = try heo.state(at: raiseMid)
        let a = 6_378.137 + (initialOrbitKm.perigee + initialOrbitKm.apogee) / 2
        let r = atBurn.positionKm.length
        let preSpeed = (muE * (2 / r - 1 / a)).squareRoot()
        let before = OrbitalState(seconds: raiseMid, positionKm: atBurn.positionKm, velocityKmS: atBurn.velocityKmS.normalized * preSpeed)
        let initial = try dop.propagate(before, to: launch, model: model)
        let initialOn = try dop.propagate(before, to: raise.upperBound, model: model)
        notes.append("Apogee raise: \(Int(((atBurn.velocityKmS.length - preSpeed) * 1000).rounded())) m/s at the burn's middle (the state the data's high orbit had then, slowed to the initial orbit's speed).")
        let pad = SurfaceSite.lc39B
        pieces.append(PathPiece(name: "Ascent (modelled)", notes: ["From LC-39B to the initial orbit: a powered blend."],
                                startSeconds: launch, endSeconds: ascent.upperBound, center: 399, maxStepSeconds: 30, state: { s in
            try PoweredBlend(center: .earth, start: launch, end: ascent.upperBound, ephemeris: eph,
                             from: { pad.state(at: $0, ephemeris: eph, terrestrial: c.terrestrial) }, to: { helio(try initial.state(at: $0)) }).state(at: s)
        }))
        pieces.append(PathPiece(name: "Initial Earth orbit (modelled)", startSeconds: ascent.upperBound, endSeconds: raise.lowerBound, center: 399,
                                maxStepSeconds: 300, state: { helio(try initial.state(at: $0)) }))
        pieces.append(PathPiece(name: "Apogee raise burn (modelled)", startSeconds: raise.lowerBound, endSeconds: raise.upperBound, center: 399,
                                maxStepSeconds: 20, state: { s in
            try PoweredBlend(center: .earth, start: raise.lowerBound, end: raise.upperBound, ephemeris: eph,
                             from: { helio($0 <= raiseMid ? try initial.state(at: $0) : try initialOn.state(at: $0)) },
                             to: { helio(try heo.state(at: $0)) }).state(at: s)
        }))
        pieces.append(PathPiece(name: "High Earth orbit before JPL data", startSeconds: raise.upperBound, endSeconds: first, center: 399,
                                maxStepSeconds: 600, state: { helio(try heo.state(at: $0)) }))
        var from = 0
        let stops: [(index: Int, bridge: BurnBridge?, name: String)] = bridges.map { ($0.index, $0.bridge, $0.name) } + [(samples.count - 1, nil, "")]
        for b in stops {
            if b.index > from {
                let required = Array(t[from...b.index])
                pieces.append(PathPiece(name: "JPL Horizons -1024 5-min", notes: [
                    "Horizons positions kept exactly; velocities from the boundary problems; between samples forward and backward integrations, blended."],
                                        startSeconds: t[from], endSeconds: t[b.index], center: 399, requiredSeconds: required, maxStepSeconds: 3600,
                                        state: { helio(try path.state(at: $0)) }))
            }
            guard let bridge = b.bridge else { break }
            pieces.append(PathPiece(name: String("\(b.name) (modelled)".prefix(40)), notes: [
                "Between the Horizons samples either side: coasts integrated from them to the burn's window, a powered blend across it."],
                                    startSeconds: t[b.index], endSeconds: t[b.index + 1], center: 399,
                                    requiredSeconds: [t[b.index], t[b.index + 1]], maxStepSeconds: 60, state: { try bridge.state(at: $0) }))
            from = b.index + 1
        }
        // After the data: the entry.
        let splash = c.seconds(hours: c.mission.endHours ?? 0)
        let flight = try entry.fly(from: samples[samples.count - 1], landingSeconds: splash, ephemeris: eph)
        let table = try StateTable(flight.states)
        notes.append("Entry from the last sample (\(TimeScale.instant(tdbSecondsPastJ2000: last).iso8601)): lands at \((flight.landingLatitudeDeg * 100).rounded() / 100)°, \((flight.landingLongitudeDeg * 100).rounded() / 100)° (no published coordinates).")
        pieces.append(PathPiece(name: "Entry and parachute descent (modelled)", notes: ["Three-degree-of-freedom entry (drag and lift in an exponential atmosphere), then parachutes."],
                                startSeconds: last, endSeconds: splash, center: 399, maxStepSeconds: 20, state: { helio(table.state(at: $0)) }))
        return [VehiclePath(vehicle: vehicle, pieces: pieces, notes: notes, provenance: provenance)]
    }
}
