import Glibc
import Astrodynamics
import Ephemeris
import Missions

extension PerseveranceRecipe {
    /// NAIF's first cruise state integrated back: about Mars (J2, the Sun and the planets
    /// pulling) for the approach, then about the Sun with every planet pulling, to TCM-1.
    struct Cruise {
        /// Where the integration about Mars hands over to the one about the Sun.
        let handover: Double
        let approach: ForwardArc, back: ForwardArc
        /// The cruise's state at TCM-1, where the departure is aimed.
        let aim: OrbitalState
    }

    func cruiseBack(from cruise: NAIFSource, to tcm: Double, ephemeris eph: Ephemeris) throws -> Cruise {
        let first = cruise.heliocentric(cruise.start)
        let tM = cruise.start - approachDays * Constants.secondsPerDay
        let approach = try ForwardArc(from: first, to: tM, ephemeris: eph)
        let cruiseBack = try ForwardArc(from: try approach.state(at: tM), to: tcm, ephemeris: eph)
        guard approach.center == .mars, cruiseBack.center == .sun else {
            throw RecipeError(description: "\(missionID): the approach must be integrated about Mars (\(approach.center)) and the cruise about the Sun (\(cruiseBack.center))")
        }
        return Cruise(handover: tM, approach: approach, back: cruiseBack, aim: try cruiseBack.state(at: tcm))
    }

    /// The seam between NAIF's cruise solution and its EDL reconstruction, which disagree by a
    /// couple of hundred metres and 0.2 m/s where one hands over to the other: the cruise stage
    /// separated a minute before (E−10 min) and the entry vehicle's thrusters were firing (the
    /// reconstruction's five seconds show 46 mm/s² beyond gravity). The difference is spread
    /// (a smoothstep) from the separation to the reconstruction, inside that powered phase.
    struct Seam {
        let cruise: NAIFSource
        /// NAIF's first EDL state integrated back to the seam's start.
        let edlBack: ForwardArc
        let startSeconds: Double, spreadSeconds: Double
        /// The two solutions' difference where the EDL reconstruction begins, km and km/s.
        let km: Double, kmS: Double
        let edlStart: Double

        /// The cruise solution eased onto the EDL reconstruction.
        func state(_ t: Double) throws -> OrbitalState {
            let seamStart = startSeconds, spread = spreadSeconds
            let a = cruise.heliocentric(t), b = try edlBack.state(at: t)
            let x = (t - seamStart) / spread
            let w = x * x * (3 - 2 * x), dw = 6 * x * (1 - x) / spread
            return OrbitalState(seconds: t, positionKm: a.positionKm * (1 - w) + b.positionKm * w,
                                velocityKmS: a.velocityKmS * (1 - w) + b.velocityKmS * w + (b.positionKm - a.positionKm) * dw)
        }

        /// The largest extra acceleration the spread adds for the position difference, km/s²
        /// (a smoothstep's peak, 6·d/T²).
        var peakAccelerationKmS2: Double { 6 * km / (spreadSeconds * spreadSeconds) }
    }

    /// The least of the cruise solution kept whole before the seam, seconds.
    static let shortestCruiseCopySeconds = 60.0

    /// What the seam came to.
    func note(_ seam: Seam) -> String {
        "Seam: NAIF's EDL reconstruction begins \(fixed(seam.km * 1000, 0)) m and \(fixed(seam.kmS * 1e6, 0)) mm/s from the cruise solution (\(iso(seam.edlStart))); the difference is spread over the \(Int(seam.spreadSeconds)) s from the cruise stage separation (\(iso(seam.startSeconds))), inside its powered phase (at most \(fixed(seam.peakAccelerationKmS2 * 1e3, 2)) m/s² for the position), so the kernel is continuous. missions.json lists this kernel after NAIF's, so the server serves the continuous path."
    }

    /// The seam spread from `start` (the cruise stage separation) to the EDL reconstruction.
    func seam(from cruise: NAIFSource, to edl: NAIFSource, from start: Double, ephemeris eph: Ephemeris) throws -> Seam {
        let edlFirst = edl.heliocentric(edl.start)
        let cruiseThere = cruise.heliocentric(edl.start)
        let seamKm = (edlFirst.positionKm - cruiseThere.positionKm).length
        let seamKmS = (edlFirst.velocityKmS - cruiseThere.velocityKmS).length
        guard start > cruise.start + Self.shortestCruiseCopySeconds, start < edl.start else {
            throw RecipeError(description: "\(missionID): the cruise stage separation (\(iso(start))) must fall in NAIF's cruise solution, before its EDL reconstruction begins")
        }
        let edlBack = try ForwardArc(from: edlFirst, to: start, ephemeris: eph)
        return Seam(cruise: cruise, edlBack: edlBack, startSeconds: start, spreadSeconds: edl.start - start, km: seamKm, kmS: seamKmS, edlStart: edl.start)
    }

    /// NAIF's last EDL state carried on under Mars's gravity to the entry interface.
    struct Approach {
        let toEntry: ForwardArc
        let interfaceSeconds: Double
        let interface: OrbitalState
        let radiusKm: Double
    }

    /// How long after NAIF's EDL excerpt the interface is looked for, the scan's step and the
    /// bisections after it, seconds.
    static let interfaceSearchSeconds = 3_600.0, interfaceScanSeconds = 60.0, interfaceBisections = 60

    /// The first crossing of the interface radius after NAIF's EDL excerpt: a scan by minutes,
    /// then bisection.
    func entryInterface(after edl: NAIFSource, radiusKm interfaceRadius: Double, ephemeris eph: Ephemeris) throws -> Approach {
        let edlLast = edl.heliocentric(edl.end)
        let toEntry = try ForwardArc(from: edlLast, to: edl.end + Self.interfaceSearchSeconds, ephemeris: eph)
        guard toEntry.center == .mars else { throw RecipeError(description: "\(missionID): the approach to entry must be integrated about Mars") }
        func radius(_ t: Double) throws -> Double { try toEntry.arc.state(at: t).positionKm.length }
        guard let step = try Search.firstStep(edl.end...(edl.end + Self.interfaceSearchSeconds), step: Self.interfaceScanSeconds,
                                              reached: { !(try radius($0) > interfaceRadius) }) else {
            throw RecipeError(description: "\(missionID): the hyperbola from NAIF's EDL excerpt does not reach the \(interfaceRadius) km entry interface within an hour")
        }
        let crossing = try Search.bisect(step.lo, step.hi, iterations: Self.interfaceBisections) { try radius($0) > interfaceRadius ? .above : .below }
        let interfaceSeconds = crossing.hi
        return Approach(toEntry: toEntry, interfaceSeconds: interfaceSeconds, interface: try toEntry.arc.state(at: interfaceSeconds), radiusKm: interfaceRadius)
    }

    /// The entry from the interface to the site at the landing time (``MarsEntry``).
    func fly(_ approach: Approach, to site: Vector3, times: Timeline, ephemeris eph: Ephemeris, notes: inout [String]) throws -> MarsEntry.Flight {
        let interface = approach.interface, interfaceSeconds = approach.interfaceSeconds, interfaceRadius = approach.radiusKm
        let touchdown = times.touchdown
        let marsModel = try HorizonsPath.model(.mars, frame: .heliocentric, ephemeris: eph)
        let flight = try entry.fly(from: interface, siteBodyFixedKm: site, touchdownSeconds: touchdown, gravity: marsModel, ephemeris: eph)
        notes.append("Entry interface (\(interfaceRadius) km from Mars's centre): \(iso(interfaceSeconds)), NAIF's last EDL state carried on under Mars's gravity; \(fixed(interface.velocityKmS.length, 3)) km/s inertial, \(fixed(flight.interfaceAirspeedKmS, 3)) km/s through the air; flight-path angle \(fixed(flight.interfaceInertialFlightPathDeg, 2))° (\(fixed(flight.interfaceFlightPathDeg, 2))° through the air).")
        notes.append("Entry (modelled): bank \(fixed(flight.bankDeg.before, 1))° then \(fixed(flight.bankDeg.after, 1))° after +\(Int(entry.bankReversalSeconds)) s, solved to reach the site; peak deceleration \(fixed(flight.peakDecelerationG, 1)) g; parachute at \(iso(flight.parachuteSeconds)) (+\(Int((flight.parachuteSeconds - interfaceSeconds).rounded())) s), backshell separation \(entry.backshellSeparationKm) km above the site at \(iso(flight.backshellSeparationSeconds)) (+\(Int((flight.backshellSeparationSeconds - interfaceSeconds).rounded())) s, descending at \(Int((flight.poweredDescent.descentRateKmS * 1000).rounded())) m/s, \(Int((flight.poweredDescent.offsetKm * 1000).rounded())) m from straight above the site, \(Int((flight.poweredDescent.groundSpeedKmS * 1000).rounded())) m/s across the ground), powered descent of \(Int(flight.poweredDescent.seconds.rounded())) s to touchdown at \(iso(touchdown)).")
        let lat = asin(site.z / site.length) * 180 / .pi, lon = atan2(site.y, site.x) * 180 / .pi
        notes.append("Landing site: NAIF's first rover localization, \(fixed(lat, 4))° N \(fixed(lon, 4))° E, \(fixed(site.length, 3)) km from Mars's centre (IAU_MARS).")
        return flight
    }
}
