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
        // Velocities from the two-point boundary problems.
        let p = data.positionsKm, t = data.seconds
        var starts: [Vector3] = [], ends: [Vector3] = []
        for i in 0..<(p.count - 1) {
            let dt = t[i + 1] - t[i]
            guard let guess = KeplerArc.lambert(mu: muE, from: p[i], to: p[i + 1], seconds: dt, longWay: false) else {
                throw RecipeError(description: "\(file): no two-body arc between samples \(i + 1) and \(i + 2)")
            }
            let v = try Shooting.solve([guess.v1.x, guess.v1.y, guess.v1.z], steps: [1e-7, 1e-7, 1e-7], tolerance: [1e-6, 1e-6, 1e-6]) { x in
                let end = try dop.propagate(OrbitalState(seconds: t[i], positionKm: p[i], velocityKmS: Vector3(x[0], x[1], x[2])), to: t[i + 1], model: model).end
                let miss = end.positionKm - p[i + 1]
                return [miss.x, miss.y, miss.z]
            }.x
            let v0 = Vector3(v[0], v[1], v[2])
            starts.append(v0)
            ends.append(try dop.propagate(OrbitalState(seconds: t[i], positionKm: p[i], velocityKmS: v0), to: t[i + 1], model: model).end.velocityKmS)
        }
        var samples: [OrbitalState] = []
        var worstJump = (seconds: 0.0, kmS: 0.0)
        for i in 0..<p.count {
            let v: Vector3
            if i == 0 { v = starts[0] } else if i == p.count - 1 { v = ends[i - 1] } else {
                v = (ends[i - 1] + starts[i]) * 0.5
                let jump = (ends[i - 1] - starts[i]).length
                if jump > worstJump.kmS { worstJump = (t[i], jump) }
            }
            samples.append(OrbitalState(seconds: t[i], positionKm: p[i], velocityKmS: v))
        }
        let path = try HorizonsPath(samples: samples, frame: .geocentric, ephemeris: eph)
        let earth: (Double) -> (positionKm: Vector3, velocityKmS: Vector3) = { s in eph.naifState(399, at: TimeScale.instant(tdbSecondsPastJ2000: s)) ?? (.zero, .zero) }
        func helio(_ g: OrbitalState) -> OrbitalState {
            let e = earth(g.seconds)
            return OrbitalState(seconds: g.seconds, positionKm: g.positionKm + e.positionKm, velocityKmS: g.velocityKmS + e.velocityKmS)
        }
        let first = t[0], last = t[t.count - 1]
        var pieces: [PathPiece] = []
        var notes = ["Source: \(file) (JPL Horizons, Orion -1024, positions every 5 minutes, Earth-centred ecliptic J2000, TDB).",
                     "Largest velocity disagreement between neighbouring intervals' boundary solutions: \(Int((worstJump.kmS * 1000).rounded())) m/s at \(TimeScale.instant(tdbSecondsPastJ2000: worstJump.seconds).iso8601) (the burns)."]

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
                             from: { pad.state(at: $0, ephemeris: eph) }, to: { helio(try initial.state(at: $0)) }).state(at: s)
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
        pieces.append(PathPiece(name: "JPL Horizons -1024 5-min", notes: [
            "Horizons positions kept exactly; velocities from the boundary problems; between samples forward and backward integrations, blended."],
                                startSeconds: first, endSeconds: last, center: 399, requiredSeconds: t, maxStepSeconds: 3600,
                                state: { helio(try path.state(at: $0)) }))
        // After the data: the entry.
        let splash = c.seconds(hours: c.mission.endHours ?? 0)
        let flight = try entry.fly(from: samples[samples.count - 1], landingSeconds: splash, ephemeris: eph)
        let table = try StateTable(flight.states)
        notes.append("Entry from the last sample (\(TimeScale.instant(tdbSecondsPastJ2000: last).iso8601)): lands at \((flight.landingLatitudeDeg * 100).rounded() / 100)°, \((flight.landingLongitudeDeg * 100).rounded() / 100)° (no published coordinates).")
        pieces.append(PathPiece(name: "Entry and parachute descent (modelled)", notes: ["Three-degree-of-freedom entry (drag and lift in an exponential atmosphere), then parachutes."],
                                startSeconds: last, endSeconds: splash, center: 399, maxStepSeconds: 20, state: { helio(table.state(at: $0)) }))
        return [VehiclePath(vehicle: vehicle, pieces: pieces, notes: notes)]
    }
}
