import Astrodynamics
import Foundation
import Testing
@testable import Ephemeris
@testable import MissionKernels
import Missions

/// The stages of ``PerseveranceRecipe`` and ``MarsEntry`` on Mars 2020's own kernels and times.
@Suite("Perseverance: the recipe's stages", .serialized)
struct PerseveranceRecipeStagesTests {
    static var recipe: PerseveranceRecipe { PerseveranceRecipe() }

    static func setting() throws -> (c: BuildContext, naif: PerseveranceRecipe.NAIFSources, times: PerseveranceRecipe.Timeline) {
        let c = try StageContext.make(recipe.missionID)
        let vehicle = try c.vehicle(recipe.vehicleID)
        let naif = try recipe.naifSources(c, vehicle: vehicle)
        return (c, naif, try recipe.timeline(c, vehicle: vehicle, surface: naif.surface))
    }

    @Test("the timeline: TCM-1 in its phase's middle, the entry interface at missions.json's distance")
    func timeline() throws {
        let (c, naif, times) = try Self.setting()
        let vehicle = try c.vehicle(Self.recipe.vehicleID)
        let tcmPhase = try c.phase(vehicle, "trajectory correction manoeuvre 1")
        #expect(times.tcm > tcmPhase.lowerBound && times.tcm < tcmPhase.upperBound)
        #expect(times.interfaceRadiusKm == (try c.fact("entry").distanceKm))
        #expect(times.launch < times.tcm && times.tcm < naif.cruise.start && naif.edl.end < times.touchdown && times.touchdown < naif.surface.start)
    }

    @Test("the cruise integrated back starts at NAIF's first cruise state and hands over about Mars")
    func cruiseBack() throws {
        let (c, naif, times) = try Self.setting()
        let cruise = try Self.recipe.cruiseBack(from: naif.cruise, to: times.tcm, ephemeris: c.ephemeris)
        let first = naif.cruise.heliocentric(naif.cruise.start)
        #expect((try cruise.approach.state(at: naif.cruise.start).positionKm - first.positionKm).length < metres(0.001))
        #expect((try cruise.back.state(at: cruise.handover).positionKm - cruise.approach.state(at: cruise.handover).positionKm).length < metres(0.001))
        #expect(cruise.aim.seconds == times.tcm)
        #expect(cruise.handover == naif.cruise.start - Self.recipe.approachDays * Constants.secondsPerDay)
    }

    @Test("the departure leaves the injection perigee and meets the cruise at TCM-1")
    func departure() throws {
        let (c, naif, times) = try Self.setting()
        let cruise = try Self.recipe.cruiseBack(from: naif.cruise, to: times.tcm, ephemeris: c.ephemeris)
        let d = try Self.recipe.depart(c, times: times, aim: cruise.aim)
        // At TCM-1 the escape is where the cruise is (the shooting's tolerance, 1e-5 km a component).
        let atTCM = try d.outboundState(times.tcm)
        #expect((atTCM.positionKm - cruise.aim.positionKm).length < km(2e-5))
        // It starts at the hyperbola's perigee, the parking orbit's height, at the injection.
        let start = try d.outbound.state(at: d.injectionSeconds)
        #expect(abs(start.positionKm.length - (Constants.earthEquatorialRadiusKm + Self.recipe.injectionAltitudeKm)) < metres(0.001))
        #expect(abs(start.positionKm.dot(start.velocityKmS)) < 1e-9 * start.positionKm.length * start.velocityKmS.length)
        #expect(times.launchPhase.contains(d.injectionSeconds))
        // The launch profile joins the escape there.
        let profile = d.launching(d.injectionSeconds), escape = try d.outboundState(d.injectionSeconds)
        #expect((profile.positionKm - escape.positionKm).length < metres(1))
    }

    @Test("the seam eases from the cruise solution onto the EDL reconstruction from the separation on")
    func seam() throws {
        let (c, naif, _) = try Self.setting()
        let separation = naif.edl.start - 72
        let seam = try Self.recipe.seam(from: naif.cruise, to: naif.edl, from: separation, ephemeris: c.ephemeris)
        let a = try seam.state(seam.startSeconds), cruise = naif.cruise.heliocentric(seam.startSeconds)
        #expect(a.positionKm == cruise.positionKm && a.velocityKmS == cruise.velocityKmS)
        let b = try seam.state(naif.edl.start), edl = naif.edl.heliocentric(naif.edl.start)
        #expect((b.positionKm - edl.positionKm).length < metres(0.001))
        #expect((b.velocityKmS - edl.velocityKmS).length < metresPerSecond(1e-6))
        #expect(seam.startSeconds == separation && seam.spreadSeconds == 72)
        #expect(seam.km > metres(10) && seam.km < metres(1_000))
    }

    @Test("the entry interface is the first crossing of its radius after NAIF's EDL excerpt")
    func entryInterface() throws {
        let (c, naif, times) = try Self.setting()
        let approach = try Self.recipe.entryInterface(after: naif.edl, radiusKm: times.interfaceRadiusKm, ephemeris: c.ephemeris)
        #expect(abs(approach.interface.positionKm.length - times.interfaceRadiusKm) < metres(0.001))
        #expect(try approach.toEntry.arc.state(at: approach.interfaceSeconds - 1).positionKm.length > times.interfaceRadiusKm)
        #expect(approach.interfaceSeconds > naif.edl.end && approach.interfaceSeconds < naif.edl.end + PerseveranceRecipe.interfaceSearchSeconds)
        #expect(times.edlPhase.lowerBound <= approach.interfaceSeconds + 1)
    }

    @Test("the entry: guided to straight above the site, then the powered descent to rest on it at touchdown")
    func entry() throws {
        let (c, naif, times) = try Self.setting()
        let eph = c.ephemeris
        let approach = try Self.recipe.entryInterface(after: naif.edl, radiusKm: times.interfaceRadiusKm, ephemeris: eph)
        let site = naif.surface.local(naif.surface.start).positionKm
        let entry = Self.recipe.entry
        let gravity = try HorizonsPath.model(.mars, frame: .heliocentric, ephemeris: eph)
        let start = MarsEntry.Interface(approach.interface, site: site, ephemeris: eph)
        // Mars's rotation: 350.89°/day about its pole.
        #expect(abs(start.omega.length - 350.891_982_2 * .pi / 180 / Constants.secondsPerDay) < 1e-10)
        #expect(abs(start.east.dot(start.north)) < 1e-15 && abs(start.up.dot(start.east)) < 1e-15)
        let (banks, leg) = try entry.guidedEntry(from: start, gravity: gravity, touchdownSeconds: times.touchdown)
        // The shooting's tolerance: 10 m east and north of straight above the site.
        let miss = entry.miss(leg, start)
        #expect(abs(miss[0]) < metres(10) && abs(miss[1]) < metres(10), "\(miss)")
        #expect(abs(banks[0]) < .pi && abs(banks[1]) < .pi)
        let last = leg.states[leg.states.count - 1]
        #expect(abs(last.positionKm.length - start.siteRadiusKm - entry.backshellSeparationKm) < metres(1))
        #expect(leg.parachute < leg.backshell)
        let deployAir = try #require(leg.states.first { $0.seconds >= leg.parachute })
        #expect(abs(start.air(deployAir.positionKm, deployAir.velocityKmS).length - entry.parachuteDeploySpeedKmS) < metresPerSecond(1))
        let (states, descent) = try entry.poweredDescent(after: leg, from: start, touchdownSeconds: times.touchdown)
        let landed = start.turn.toBodyFixed(states[states.count - 1])
        #expect(states[states.count - 1].seconds == times.touchdown)
        #expect((landed.positionKm - site).length < metres(0.001))
        #expect(landed.velocityKmS.length < metresPerSecond(0.001))
        #expect(descent.seconds == times.touchdown - leg.backshell)
        #expect(zip(states, states.dropFirst()).allSatisfy { $0.seconds < $1.seconds })
    }
}
