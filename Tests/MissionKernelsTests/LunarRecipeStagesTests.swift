import Astrodynamics
import Foundation
import Testing
@testable import Ephemeris
@testable import MissionKernels
import Missions

/// Apollo 11 as missions.json gives it, its recipe's stages, and the shipped kernel for the
/// states a later stage starts from (so a stage is tested without solving every stage before it).
/// The recipe, context and solver are not Sendable (closures, a class-backed gravity model):
/// they are built once and only read, by the one serialized suite below.
enum Apollo11 {
    static let mission: Mission = {
        do { return try Repository.missions.mission("apollo11") } catch { fatalError("missions.json: \(error)") }
    }()

    nonisolated(unsafe) static let recipe: LunarRecipe = {
        guard let r = MissionRecipes.recipe("apollo11") as? LunarRecipe else { fatalError("apollo11 has no lunar recipe") }
        return r
    }()

    nonisolated(unsafe) static let context = BuildContext(ephemeris: Repository.ephemeris, mission: mission,
                                                          source: { throw RecipeError(description: "no source \($0)") },
                                                          kernel: { throw RecipeError(description: "no kernel \($0)") })

    nonisolated(unsafe) static let solver: LunarRecipe.Solver = {
        do { return try LunarRecipe.Solver(recipe, context) } catch { fatalError("\(error)") }
    }()

    /// The parking orbit at the two-body azimuth, and trans-lunar injection solved from it.
    static let outbound: (azimuthDeg: Double, park: OrbitalState, injection: LunarRecipe.Injection) = {
        do {
            let parking = solver.parkingOrbit()
            guard let az = parking.twoBodyAzimuth(), let park = parking.state(azimuthDeg: az) else { fatalError("no parking orbit") }
            return (az, park.state, try solver.injection(park.state))
        } catch { fatalError("\(error)") }
    }()

    /// The command module's path in `Resources/missions/apollo11.bsp` (heliocentric; ``shipped(_:)`` is geocentric).
    static let kernel = KernelPath(FlybyTestData.kernel("apollo11.bsp"), target: -1969011, ephemeris: Repository.ephemeris)

    static func shipped(_ t: Double) -> OrbitalState { solver.frames.geo(kernel.state(at: t)) }

    static func phase(_ name: String) throws -> ClosedRange<Double> { try context.phase(solver.vehicle, name) }

    static func degrees(_ x: Double) -> Double { x * .pi / 180 }
}

@Suite("LunarRecipe: each stage on Apollo 11", .serialized)
struct LunarRecipeStagesTests {
    @Test("the parking orbit is circular at its altitude and heads off the pad at the azimuth asked for")
    func parkingOrbit() throws {
        let parking = Apollo11.solver.parkingOrbit()
        let radius = Constants.earthEquatorialRadiusKm + Apollo11.recipe.parkingAltitudeKm
        for azimuth in [72.0, 81.3, 108.0] {
            let p = try #require(parking.state(azimuthDeg: azimuth)).state
            #expect(abs(p.positionKm.length - radius) < metres(0.001))
            #expect(abs(p.velocityKmS.length - (GravityConstants.earthGM / radius).squareRoot()) < metresPerSecond(1e-6))
            #expect(abs(p.positionKm.normalized.dot(p.velocityKmS.normalized)) < 1e-12)
            #expect(p.seconds == Apollo11.solver.tliMid)
            // The plane holds the pad; along it, at the pad, the motion heads at the azimuth.
            let normal = p.positionKm.cross(p.velocityKmS).normalized
            #expect(abs(normal.dot(parking.padAtInsertion)) < 1e-12)
            let heading = normal.cross(parking.padAtInsertion)
            let got = atan2(heading.dot(parking.east), heading.dot(parking.localNorth)) * 180 / .pi
            #expect(abs(got - azimuth) < 1e-9, "\(got)° for \(azimuth)°")
        }
        // The two-body azimuth: on the half-degree grid of Apollo's range, cheaper than its neighbours.
        let az = try #require(parking.twoBodyAzimuth())
        #expect(LunarRecipe.launchAzimuthRangeDeg.contains(az) && (az * 2).rounded() == az * 2)
        let cost = { (a: Double) in parking.state(azimuthDeg: a)?.deltaV ?? .infinity }
        #expect(cost(az) <= cost(az - 0.5) && cost(az) <= cost(az + 0.5))
    }

    @Test("trans-lunar injection: the coast leaves the parking orbit's point and passes the Moon at the wanted perilune and time")
    func transLunarInjection() throws {
        let solver = Apollo11.solver, out = Apollo11.outbound
        let ca = out.injection.ca
        #expect(abs(ca.radius - solver.periluneRadius) < km(0.1), "\(ca.radius - solver.periluneRadius) km off")
        #expect(abs(ca.seconds - solver.arrival) < seconds(0.5), "\(ca.seconds - solver.arrival) s off")
        // A closest approach: r·v vanishes there (to the bisection's 6 h / 2^60), and it is the
        // arc's own state.
        let m = solver.frames.moon(ca.seconds)
        let r = ca.state.positionKm - m.positionKm, v = ca.state.velocityKmS - m.velocityKmS
        #expect(abs(r.normalized.dot(v)) < metresPerSecond(0.01))
        #expect((try out.injection.coast.state(ca.seconds).positionKm - ca.state.positionKm).length == 0)
        // Injected where the parking orbit is, at the middle of the burn.
        let start = try out.injection.coast.state(solver.tliMid)
        #expect((start.positionKm - out.park.positionKm).length < metres(0.001))
        #expect((start.velocityKmS - out.injection.velocity).length < metresPerSecond(0.001))
        // Retrograde about the Moon's pole, as Apollo's orbits were.
        #expect(r.cross(v).dot(solver.frames.moonPole(ca.seconds)) < 0)
    }

    @Test("the lunar orbit: insertion leaves a perilune at the closest approach, the second burn an orbit with the other apsis asked for")
    func lunarOrbit() throws {
        let solver = Apollo11.solver
        let phasing = try LunarRecipe.LunarOrbitPhasing(solver, ca: Apollo11.outbound.injection.ca, departure: try #require(solver.departure))
        let muM = GravityConstants.moonGM
        func moonRelative(_ arc: LunarRecipe.Arc, _ t: Double) throws -> (r: Vector3, v: Vector3) {
            let s = try arc.state(t), m = solver.frames.moon(t)
            return (s.positionKm - m.positionKm, s.velocityKmS - m.velocityKmS)
        }
        let rP = phasing.r.length
        let first = try phasing.firstOrbit(rP + 200)
        let atInsertion = try moonRelative(first, phasing.ca.seconds)
        #expect(abs(LunarRecipe.periapsisRadius(r: atInsertion.r, v: atInsertion.v, mu: muM) - rP) < metres(1))
        let a = 1 / (2 / rP - atInsertion.v.lengthSquared / muM)
        #expect(abs(2 * a - rP - (rP + 200)) < metres(1), "apolune \(2 * a - rP - (rP + 200)) km off")
        // The second burn, at its middle, leaves the radius there and the other apsis as apsides.
        let other = solver.rMoon + 120
        let second = try phasing.secondOrbit(first, other)
        let atBurn = try moonRelative(second, phasing.secondMid)
        let a2 = 1 / (2 / atBurn.r.length - atBurn.v.lengthSquared / muM)
        #expect(abs(2 * a2 - atBurn.r.length - other) < metres(1))
        #expect(abs(atBurn.r.normalized.dot(atBurn.v.normalized)) < 1e-12)
        // The phasing miss is an angle in (−π, π], zero when the orbiter is at the mark.
        let there = try second.state(phasing.secondMid).positionKm - solver.frames.moon(phasing.secondMid).positionKm
        #expect(abs(try phasing.miss(second, at: phasing.secondMid, mark: there, lead: 0)) < 1e-12)
        #expect(abs(try phasing.miss(second, at: phasing.secondMid, mark: there, lead: .pi) - .pi) < 1e-12)
    }

    @Test("lunar-orbit phasing: the second orbit leaves along the return asymptote at trans-Earth injection")
    func lunarOrbitPhasing() throws {
        // Without a site to pass over (as Apollo 8): one root of the injection's phasing. With
        // Apollo 11's site the apolune is a root of the site's miss over that root (a hundred
        // of these searches), minutes in a debug build: the kernel rebuild covers it.
        let r = Apollo11.recipe
        let noLander = LunarRecipe(missionID: r.missionID, vehicleID: r.vehicleID, pad: r.pad, objective: r.objective, lander: nil, splashdown: r.splashdown)
        let solver = try LunarRecipe.Solver(noLander, Apollo11.context)
        #expect(solver.target.overSite == nil)
        let departure = try #require(solver.departure)
        let phasing = try LunarRecipe.LunarOrbitPhasing(solver, ca: Apollo11.outbound.injection.ca, departure: departure)
        let chosen = try #require(try phasing.solve())
        #expect(chosen.apolune == phasing.r.length + LunarRecipe.apoluneRaiseKm)
        let teiMiss = try phasing.teiMiss(chosen.first, chosen.other)
        print("[apollo11] phasing without the site: other apsis \(chosen.other - solver.rMoon) km, miss \(teiMiss) rad")
        // The bisection leaves the root within 4 km / 2^40, the integration's own noise about
        // 1e-9 rad: a microradian is 2 m along the orbit.
        #expect(abs(teiMiss) < 1e-6)
        #expect(chosen.other > solver.rMoon + LunarRecipe.otherApsisFloorKm)
        // Just below the root the orbiter is still ahead of the injection point (the scan's bracket).
        #expect(try phasing.teiMiss(chosen.first, chosen.other - 0.5) > 0)
    }

    /// The shipped lunar orbit carried on from trans-Earth injection's start to its middle, and
    /// that middle.
    static func atTransEarthInjection() throws -> (state: OrbitalState, teiMid: Double) {
        let tei = try Apollo11.phase("trans-Earth injection")
        let teiMid = (tei.lowerBound + tei.upperBound) / 2
        return (try Apollo11.solver.propagateMoon(Apollo11.shipped(tei.lowerBound), to: teiMid).state(teiMid), teiMid)
    }

    @Test("the return aimed: the entry from the aimed interface comes down at the splashdown site, within 1 km along track and 2 km across")
    func returnAimed() throws {
        let solver = Apollo11.solver
        let (state, teiMid) = try Self.atTransEarthInjection()
        let back = try solver.returnLeg(from: state, burnMid: teiMid)
        let site = solver.frames.geo(Apollo11.recipe.splashdown.state(at: solver.splash, ephemeris: solver.eph, terrestrial: Apollo11.context.terrestrial)).positionKm
        let landed = back.flight.states[back.flight.states.count - 1].positionKm
        let along = LunarRecipe.overshootKm(landed: landed, site: site, interface: back.interface)
        let across = LunarRecipe.acrossTrack(landed: landed, site: site, interface: back.interface) * Constants.earthEquatorialRadiusKm
        let fpa = asin(back.interface.positionKm.normalized.dot(back.interface.velocityKmS.normalized)) * 180 / .pi
        print("[apollo11] return: \(back.deltaV) km/s, fpa \(fpa)°, \(along) km along, \(across) km across")
        #expect(LunarRecipe.corridorDeg.contains(fpa))
        #expect(abs(along) < km(LunarRecipe.landingToleranceKm))
        // Across track the plane passes close the miss to 2 km (each pass's gain measured from
        // the last: the landing follows the aimed plane only about a third of the way).
        #expect(abs(across) < km(LunarRecipe.crossTrackToleranceKm))
    }

    @Test("return aiming: the coast from trans-Earth injection reaches the entry interface at the corridor's flight-path angle")
    func returnAiming() throws {
        let solver = Apollo11.solver
        let (state, teiMid) = try Self.atTransEarthInjection()
        let aiming = try LunarRecipe.ReturnAiming(solver, from: state, burnMid: teiMid)
        #expect(aiming.nearMoon)
        for fpaDeg in [LunarRecipe.corridorMiddleDeg, LunarRecipe.corridorDeg.lowerBound] {
            let aimed = try aiming.aimed(Apollo11.degrees(fpaDeg))
            let r = aimed.interface.positionKm, v = aimed.interface.velocityKmS
            #expect(aimed.interface.seconds == solver.ei)
            #expect(abs(r.length - LunarRecipe.entryInterfaceRadiusKm) <= km(LunarRecipe.returnTolerance[0]))
            #expect(abs(asin(r.normalized.dot(v.normalized)) - Apollo11.degrees(fpaDeg)) <= LunarRecipe.returnTolerance[1])
            #expect(abs(r.cross(v).normalized.dot(aiming.planeTarget)) <= km(LunarRecipe.returnTolerance[2]))
            // The burn leaves from the state given, the arc is the one the interface is read from.
            #expect((try aimed.arc.state(teiMid).positionKm - state.positionKm).length < metres(0.001))
            #expect((try aimed.arc.state(solver.ei).positionKm - r).length == 0)
        }
    }

    @Test("the entry: flown from the shipped entry interface it comes down at the splashdown time near the site, and the overshoot is measured along track")
    func entry() throws {
        let solver = Apollo11.solver
        // The overshoot: zero at the site, one degree of the equatorial radius a degree along track.
        let interface = Apollo11.shipped(solver.ei)
        let site = solver.frames.geo(Apollo11.recipe.splashdown.state(at: solver.splash, ephemeris: solver.eph, terrestrial: Apollo11.context.terrestrial)).positionKm
        let track = interface.positionKm.cross(interface.velocityKmS).normalized
        #expect(LunarRecipe.overshootKm(landed: site, site: site, interface: interface) == 0)
        let inPlane = (site - track * site.dot(track)).normalized * site.length
        let degree = Constants.earthEquatorialRadiusKm * .pi / 180
        for deg in [1.0, -1.0, 30.0] {
            let landed = LunarRecipe.rotate(inPlane, about: track, by: Apollo11.degrees(deg))
            #expect(abs(LunarRecipe.overshootKm(landed: landed, site: inPlane, interface: interface) - deg * degree) < metres(0.001))
        }
        // The shipped entry flown again: down at the splashdown time, near the site.
        let landing = try #require(solver.entryLanding(Apollo11.recipe.entry, from: interface, site: site))
        let last = landing.flight.states[landing.flight.states.count - 1]
        #expect(abs(last.seconds - solver.splash) < seconds(1))
        let landed = last.positionKm
        let overshoot = LunarRecipe.overshootKm(landed: landed, site: site, interface: interface)
        #expect(overshoot == landing.overshootKm)
        let across = LunarRecipe.acrossTrack(landed: landed, site: site, interface: interface) * Constants.earthEquatorialRadiusKm
        print("[apollo11] entry from the shipped interface: \(overshoot) km along track, \(across) km across")
        // Aimed to land within 1 km along track; the kernel holds the interface to 5 m, which
        // moves the landing by about as much again.
        #expect(abs(overshoot) < km(2 * LunarRecipe.landingToleranceKm), "\(overshoot) km along track")
        #expect(abs(across) < km(2 * LunarRecipe.crossTrackToleranceKm), "\(across) km across track")
    }

    @Test("lateral steering: one bank reversal sets how far across track the entry lands; at the interface it is the other side flown throughout")
    func lateralSteering() throws {
        let solver = Apollo11.solver
        let interface = Apollo11.shipped(solver.ei)
        let site = solver.frames.geo(Apollo11.recipe.splashdown.state(at: solver.splash, ephemeris: solver.eph, terrestrial: Apollo11.context.terrestrial)).positionKm
        func across(_ lateral: EntryModel.Lateral?) throws -> (km: Double, flight: EntryModel.Flight) {
            var model = Apollo11.recipe.entry
            model.lateral = lateral
            let landing = try #require(solver.entryLanding(model, from: interface, site: site))
            let landed = landing.flight.states[landing.flight.states.count - 1].positionKm
            return (LunarRecipe.acrossTrack(landed: landed, site: site, interface: interface) * Constants.earthEquatorialRadiusKm, landing.flight)
        }
        let none = try across(nil).km
        let right = try across(.init(side: 1, reversalSeconds: solver.splash)).km
        let left = try across(.init(side: -1, reversalSeconds: solver.splash))
        print("[apollo11] across track: \(left.km) km all left, \(none) km without the side part, \(right) km all right")
        // The side part moves the landing hundreds of km either way, the unsteered one between
        // (across track is positive to the left, on the side of the orbit's normal).
        #expect(none - right > 100 && left.km - none > 100)
        // Reversed at the interface, right-then-left is left all the way: the same flight.
        let reversedAtOnce = try across(.init(side: 1, reversalSeconds: solver.ei))
        #expect(reversedAtOnce.flight.states.count == left.flight.states.count)
        #expect(zip(reversedAtOnce.flight.states, left.flight.states).allSatisfy { $0.positionKm == $1.positionKm })
        // The later the reversal, the farther right while the air still turns the capsule
        // (the first half of the 14 minutes): what the bisection relies on. Later, slowed and
        // then under the parachutes, a reversal moves it by a kilometre at most.
        let step = (solver.splash - solver.ei) / 8
        let swept = try (0...8).map { try across(.init(side: 1, reversalSeconds: solver.ei + Double($0) * step)).km }
        print("[apollo11] across track by reversal time: \(swept)")
        #expect(zip(swept[...4], swept[1...4]).allSatisfy { $0 > $1 + 10 }, "\(swept)")
        #expect(swept[4...].allSatisfy { abs($0 - right) < 2 }, "\(swept)")
        #expect(swept.first == left.km && swept.last == right)
    }

    @Test("the lander: its pieces join, it rests at the site, and its rendezvous transfer meets the command module above the ground")
    func lander() throws {
        let solver = Apollo11.solver
        let lander = try #require(Apollo11.recipe.lander)
        let eagle = try #require(Apollo11.mission.vehicle(lander.vehicleID))
        let undock = Apollo11.context.seconds(hours: eagle.startHours), dock = Apollo11.context.seconds(hours: eagle.endHours ?? eagle.startHours)
        // The command module's orbit: the shipped one, carried on from undocking.
        let orbitArc = try solver.propagateMoon(Apollo11.shipped(undock), to: dock)
        let ascent = try Apollo11.context.phase(eagle, "ascent")
        let burn = try Apollo11.context.phase(eagle, LunarRecipe.rendezvousBurnPhase)
        let burnMid = (burn.lowerBound + burn.upperBound) / 2
        let muM = GravityConstants.moonGM
        let transfer = try solver.rendezvousTransfer(site: lander.site, ascent: ascent, burn: burnMid, dock: dock, orbitArc: orbitArc)
        // The insertion orbit is the flown 17 × 87 km, entered at its perilune.
        #expect(abs(LunarRecipe.periapsisRadius(r: transfer.insertion, v: transfer.insertionVelocity, mu: muM) - solver.rMoon - 17) < metres(1))
        #expect(abs(LunarRecipe.apoapsisRadius(r: transfer.insertion, v: transfer.insertionVelocity, mu: muM) - solver.rMoon - 87) < metres(1))
        #expect(LunarRecipe.ascentDownrangeDeg.contains(transfer.downrangeDeg))
        // The transfer from CSI stays between 10 and 130 km up (Columbia flies at about 110).
        #expect(LunarRecipe.periapsisRadius(r: transfer.burnPosition, v: transfer.solution.v1, mu: muM) > solver.rMoon + LunarRecipe.rendezvousClearanceKm)
        #expect(LunarRecipe.apoapsisRadius(r: transfer.burnPosition, v: transfer.solution.v1, mu: muM) < solver.rMoon + LunarRecipe.rendezvousCeilingKm)
        // CSI is a burn of a few tens of m/s (the flown one was 15 m/s), not a second ascent.
        #expect((transfer.solution.v1 - transfer.burnVelocity).length < 0.1, "\((transfer.solution.v1 - transfer.burnVelocity).length * 1000) m/s")
        // Flown two-body to docking, it arrives where the command module is.
        let kepler = KeplerArc(mu: muM, position: transfer.burnPosition, velocity: transfer.solution.v1, epochHours: burnMid / 3600)
        let csm = try orbitArc.state(dock), m = solver.frames.moon(dock)
        #expect((kepler.state(atHours: dock / 3600).position - (csm.positionKm - m.positionKm)).length < metres(1))

        let path = try solver.landerPath(lander, orbitArc: orbitArc)
        #expect(path.pieces.first?.startSeconds == undock && path.pieces.last?.endSeconds == dock)
        for (a, b) in zip(path.pieces, path.pieces.dropFirst()) {
            #expect(a.endSeconds == b.startSeconds, "\(a.name) -> \(b.name)")
            let dr = (try a.state(a.endSeconds).positionKm - (try b.state(b.startSeconds)).positionKm).length
            #expect(dr < metres(0.01), "\(a.name) -> \(b.name): \(dr * 1000) m")
        }
        // From the end of the ascent to docking the lander never climbs above 130 km (it went to
        // 208 km when the transfer started at insertion).
        var highest = 0.0
        for piece in path.pieces where piece.startSeconds >= ascent.upperBound {
            for t in stride(from: piece.startSeconds, through: piece.endSeconds, by: 30) {
                let st = try piece.state(t)
                let moon = Repository.ephemeris.naifState(301, at: TimeScale.instant(tdbSecondsPastJ2000: t)) ?? (.zero, .zero)
                highest = max(highest, (st.positionKm - moon.positionKm).length - solver.rMoon)
            }
        }
        #expect(highest < LunarRecipe.rendezvousCeilingKm, "\(highest) km")
        // On the surface: at the site, and the descent orbit's perilune as asked.
        let landed = try #require(path.pieces.first { $0.frame == 10020 })
        let mid = (landed.startSeconds + landed.endSeconds) / 2
        #expect((try landed.state(mid).positionKm - lander.site.state(at: mid, ephemeris: solver.eph).positionKm).length == 0)
        let descentOrbit = try #require(path.pieces.first { $0.name == "Descent orbit (modelled)" })
        let s = try descentOrbit.state(descentOrbit.startSeconds)
        let moon = Repository.ephemeris.naifState(301, at: TimeScale.instant(tdbSecondsPastJ2000: s.seconds)) ?? (.zero, .zero)
        let r = s.positionKm - moon.positionKm, v = s.velocityKmS - moon.velocityKmS
        #expect(abs(LunarRecipe.periapsisRadius(r: r, v: v, mu: muM) - (solver.rMoon + lander.descentPeriluneKm)) < km(1))
    }
}
