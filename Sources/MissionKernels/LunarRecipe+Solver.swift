import Astrodynamics
import Ephemeris
import Missions

extension LunarRecipe {
    /// Where the outbound leg aims: the approach hyperbola's closest approach (radius and time)
    /// and what fixes the plane it should lie in.
    struct LunarTarget {
        let arrival: Double
        let periluneRadius: Double
        /// A lander's site and the time the orbit should pass over it (the powered descent's middle).
        let overSite: (site: SurfaceSite, seconds: Double)?
        /// The orbit's tilt about the Earth–Moon line, radians (no lander, no return asymptote to lie along).
        let inclination: Double
    }

    /// The return's departure asymptote, as a patched conic sees it (Moon-relative).
    typealias Departure = (seconds: Double, s: Vector3, vInf: Double)

    /// LOI altitude when the `loi` event states none, km.
    static let defaultLOIAltitudeKm = 110.0
    /// Flyby closest-approach altitude when the `lunar-ca` event states none, km.
    static let defaultFlybyAltitudeKm = 250.0

    /// What every stage reads: the force models, the mission's times and the lunar target. The
    /// stages are its methods, in `LunarRecipe+<Stage>.swift`.
    struct Solver {
        let recipe: LunarRecipe
        let c: BuildContext
        let eph: Ephemeris
        let frames: Frames
        let earthModel: GravityModel
        let moonModel: GravityModel
        let dop = DormandPrince853()
        let rMoon: Double
        let vehicle: Vehicle
        let launch: Double
        let ascent: ClosedRange<Double>
        let tli: ClosedRange<Double>
        let tliMid: Double
        /// The entry interface and the splashdown (the phase `entry and descent`).
        let ei: Double, splash: Double
        let target: LunarTarget
        /// The return's departure asymptote, for a lunar orbit (``returnAsymptote``).
        let departure: Departure?

        var missionID: String { recipe.missionID }
        var arrival: Double { target.arrival }
        var periluneRadius: Double { target.periluneRadius }

        init(_ recipe: LunarRecipe, _ c: BuildContext) throws {
            self.recipe = recipe
            self.c = c
            let eph = c.ephemeris
            self.eph = eph
            frames = Frames(ephemeris: eph)
            earthModel = try GravityModel(ephemeris: eph, center: .earth, perturbers: [.sun, .moon], zonalDegree: 4)
            moonModel = try GravityModel(ephemeris: eph, center: .moon, perturbers: [.earth, .sun], zonalDegree: 2)
            let rMoon = eph.catalogue[.moon].radiusKm
            self.rMoon = rMoon
            let vehicle = try c.vehicle(recipe.vehicleID)
            self.vehicle = vehicle
            launch = c.seconds(hours: 0)
            ascent = try c.phase(vehicle, "ascent")
            tli = try c.phase(vehicle, "trans-lunar injection")
            tliMid = (tli.lowerBound + tli.upperBound) / 2
            let entryPhase = try c.phase(vehicle, "entry and descent")
            ei = entryPhase.lowerBound
            splash = entryPhase.upperBound
            target = try Self.lunarTarget(recipe, c, vehicle: vehicle, rMoon: rMoon)
            departure = try Self.returnAsymptote(recipe, c, vehicle: vehicle, frames: frames, ei: ei, splash: splash)
        }

        static func lunarTarget(_ recipe: LunarRecipe, _ c: BuildContext, vehicle: Vehicle, rMoon: Double) throws -> LunarTarget {
            switch recipe.objective {
            case let .orbit(inclinationDeg):
                let loi = try c.phase(vehicle, "lunar orbit insertion")
                var overSite: (site: SurfaceSite, seconds: Double)?
                if let lander = recipe.lander {
                    let descent = try c.phase(try c.vehicle(lander.vehicleID), "powered descent")
                    overSite = (lander.site, (descent.lowerBound + descent.upperBound) / 2)
                }
                return LunarTarget(arrival: (loi.lowerBound + loi.upperBound) / 2,
                                   periluneRadius: rMoon + (try c.fact("loi").altitudeKm ?? defaultLOIAltitudeKm),
                                   overSite: overSite, inclination: inclinationDeg * .pi / 180)
            case .flyby:
                return LunarTarget(arrival: try c.event("lunar-ca"),
                                   periluneRadius: rMoon + (try c.fact("lunar-ca").altitudeKm ?? defaultFlybyAltitudeKm),
                                   overSite: nil, inclination: 0)
            }
        }

        /// The return's departure asymptote, as a patched conic sees it: the Earth's two-body arc
        /// from the Moon's centre at trans-Earth injection to the entry interface above the
        /// splashdown. The lunar orbit is laid out so the injection can leave along it. Nil for a flyby.
        static func returnAsymptote(_ recipe: LunarRecipe, _ c: BuildContext, vehicle: Vehicle, frames: Frames,
                                    ei: Double, splash: Double) throws -> Departure? {
            let splashAim = frames.geo(recipe.splashdown.state(at: splash, ephemeris: c.ephemeris, terrestrial: c.terrestrial)).positionKm.normalized * LunarRecipe.entryInterfaceRadiusKm
            guard case .orbit = recipe.objective else { return nil }
            let tei = try c.phase(vehicle, "trans-Earth injection")
            let t = (tei.lowerBound + tei.upperBound) / 2
            let m = frames.moon(t)
            guard let l = KeplerArc.lambert(mu: GravityConstants.earthGM, from: m.positionKm, to: splashAim, seconds: ei - t, longWay: false) else {
                throw RecipeError(description: "\(recipe.missionID): no return arc from the Moon to the entry interface")
            }
            return (t, (l.v1 - m.velocityKmS).normalized, (l.v1 - m.velocityKmS).length)
        }

        func propagateGeo(_ s: OrbitalState, to t: Double) throws -> Arc {
            Arc(arc: try dop.propagate(s, to: t, model: earthModel), aboutMoon: false, frames: frames)
        }

        func propagateMoon(_ geo: OrbitalState, to t: Double) throws -> Arc {
            let m = frames.moon(geo.seconds)
            let local = OrbitalState(seconds: geo.seconds, positionKm: geo.positionKm - m.positionKm, velocityKmS: geo.velocityKmS - m.velocityKmS)
            return Arc(arc: try dop.propagate(local, to: t, model: moonModel), aboutMoon: true, frames: frames)
        }
    }

    /// A vehicle's pieces as the stages add them: states geocentric (or Moon-centred) in, heliocentric out.
    struct PieceList {
        let frames: Frames
        /// The NAIF centre a piece is written about unless it names one.
        let center: Int
        var pieces: [PathPiece] = []

        mutating func add(_ name: String, _ notes: [String] = [], _ a: Double, _ b: Double, step: Double, center: Int? = nil, frame: Int = 1,
                          _ f: @escaping (Double) throws -> OrbitalState) {
            let frames = frames
            pieces.append(PathPiece(name: name, notes: notes, startSeconds: a, endSeconds: b, center: center ?? self.center, frame: frame, maxStepSeconds: step,
                                    state: { t in frames.helio(try f(t)) }))
        }
    }
}
