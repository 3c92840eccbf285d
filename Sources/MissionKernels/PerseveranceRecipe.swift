import Glibc
import Astrodynamics
import Ephemeris
import Missions

/// Mars 2020 / Perseverance, from NAIF's kernels where they exist and physics between them:
///
/// - Cruise: the first state of NAIF's last cruise orbit determination (m2020_cruise_od138,
///   eight minutes before entry) integrated back under DE440 gravity — about Mars (J2, the Sun
///   and the planets pulling) for the approach, then about the Sun with every planet pulling —
///   to the first trajectory correction manoeuvre; and from the Earth, an escape hyperbola
///   leaving the injection point, integrated about the Earth (J2–J4, the Moon, the Sun and the
///   planets pulling), aimed by differential correction at where the first arc is at the
///   manoeuvre. What is left is one impulse there, inside the listed powered phase. The
///   departure plane holds the pad at liftoff (the launch window is when the pad passes
///   through it); before the injection, the ascent, a parking orbit and the escape burn
///   (``PlanarDeparture``).
/// - NAIF's cruise orbit determination, then NAIF's EDL reconstruction (m2020_edl, the entry
///   vehicle −168031 relative to Mars), copied. The two disagree by a couple of hundred metres
///   where one hands over to the other; the jump is spread over the last minutes of the cruise
///   solution.
/// - From the end of NAIF's EDL excerpt: its hyperbola integrated on to the entry interface, then
///   a guided entry, the parachute and the powered descent to the landing site at the landing
///   time (``MarsEntry``).
/// - On Mars: the site NAIF's rover kernel starts from, fixed in IAU_MARS, until that kernel
///   begins; then the kernel (the rover's localizations, sols 0–89), copied.
///
/// Every piece is heliocentric ecliptic J2000 for the generator; the Mars pieces are written
/// relative to Mars (NAIF's own centres), the landed ones in IAU_MARS.
public struct PerseveranceRecipe: MissionRecipe {
    public let missionID = "perseverance"
    public let vehicleID = "perseverance"
    public let cruiseKernel = "naif/m2020_cruise_od138_v1.bsp"
    public let edlKernel = "naif/m2020_edl_v01.bsp"
    public let surfaceKernel = "naif/m2020_surf_rover_loc_0000_0089_v1.bsp"
    /// Atlas V 541 from Cape Canaveral SLC-41.
    public var pad = SurfaceSite.slc41
    /// Height of the parking orbit and of the injection point (the escape hyperbola's perigee)
    /// above the equatorial radius, km: a typical Atlas V parking orbit; the flown value is not
    /// published in the sources found.
    public var injectionAltitudeKm = 185.0
    /// The Atlas V 541's ascent to the parking orbit and the Centaur's escape burn, minutes: as
    /// it flew MSL, the same vehicle on the same kind of trajectory (about 4 minutes of Atlas,
    /// about 7 of Centaur to orbit; the second burn nearly 8).
    public var ascentMinutes = 12.0
    public var escapeBurnMinutes = 8.0
    /// Where the ascent enters the parking orbit, degrees downrange of the pad at liftoff
    /// (about 2,200 km: a model value).
    public var insertionDownrangeDeg = 20.0
    /// How long before NAIF's first cruise state the integration about Mars hands over to the
    /// one about the Sun (beyond Mars's sphere of influence, 0.58 million km, at 2.6 km/s).
    public var approachDays = 5.0
    /// Largest extra acceleration with which a seam between two sources is spread, km/s² (the
    /// limit the other recipes use for seams in JPL Horizons files).
    public var seamAccelerationKmS2 = 5e-5
    public var entry = MarsEntry.mars2020

    public init() {}

    public var sources: [String] {
        [cruiseKernel, edlKernel, surfaceKernel, "Resources/missions.json (launch, TCM-1, entry, landing: times and sources)"]
    }

    public func paths(_ c: BuildContext) throws -> [VehiclePath] {
        let eph = c.ephemeris
        let vehicle = try c.vehicle(vehicleID)
        let cruise = try NAIFSource(kernel: try c.kernel(cruiseKernel), file: cruiseKernel, target: vehicle.naifID, ephemeris: eph)
        let edl = try NAIFSource(kernel: try c.kernel(edlKernel), file: edlKernel, target: -168_031, ephemeris: eph)
        let surface = try NAIFSource(kernel: try c.kernel(surfaceKernel), file: surfaceKernel, target: vehicle.naifID, ephemeris: eph)
        guard cruise.start < edl.start, edl.start <= cruise.end, edl.end < surface.start else {
            throw RecipeError(description: "\(missionID): the NAIF kernels are not in the order cruise, EDL, surface (cruise \(iso(cruise.start))–\(iso(cruise.end)), EDL \(iso(edl.start))–\(iso(edl.end)), surface from \(iso(surface.start)))")
        }
        func mars(_ t: Double) -> (positionKm: Vector3, velocityKmS: Vector3) {
            eph.naifState(499, at: TimeScale.instant(tdbSecondsPastJ2000: t)) ?? (.zero, .zero)
        }
        func earth(_ t: Double) -> (positionKm: Vector3, velocityKmS: Vector3) {
            eph.naifState(399, at: TimeScale.instant(tdbSecondsPastJ2000: t)) ?? (.zero, .zero)
        }
        var notes: [String] = []
        var provenance = SourceProvenance(vehicle: vehicle.id, naifID: vehicle.naifID, sources: [cruiseKernel, edlKernel, surfaceKernel])

        // Times: the mission's (missions.json says where each comes from).
        let launch = c.seconds(hours: 0)
        let launchPhase = try c.phase(vehicle, "launch and injection")
        let tcmPhase = try c.phase(vehicle, "trajectory correction manoeuvre 1")
        let tcm = (tcmPhase.lowerBound + tcmPhase.upperBound) / 2
        let edlPhase = try c.phase(vehicle, "entry, descent and landing")
        let landedPhase = try c.phase(vehicle, "on Mars")
        let touchdown = try c.event("landing")
        let interfaceRadius = try c.fact("entry").distanceKm ?? 3_522.2
        guard abs(landedPhase.lowerBound - touchdown) < 0.01, abs(edlPhase.upperBound - touchdown) < 0.01 else {
            throw RecipeError(description: "\(missionID): the entry phase must end and the landed phase begin at the landing event (\(iso(touchdown)))")
        }
        guard let endHours = c.mission.endHours, c.seconds(hours: endHours) <= surface.end + 0.01 else {
            throw RecipeError(description: "\(missionID): the mission must end by the end of \(surfaceKernel) (\(iso(surface.end)))")
        }

        // MARK: Cruise, back from NAIF's first cruise state.
        let first = cruise.heliocentric(cruise.start)
        let tM = cruise.start - approachDays * Constants.secondsPerDay
        let approach = try ForwardArc(from: first, to: tM, ephemeris: eph)
        let cruiseBack = try ForwardArc(from: try approach.state(at: tM), to: tcm, ephemeris: eph)
        guard approach.center == .mars, cruiseBack.center == .sun else {
            throw RecipeError(description: "\(missionID): the approach must be integrated about Mars (\(approach.center)) and the cruise about the Sun (\(cruiseBack.center))")
        }
        let aim = try cruiseBack.state(at: tcm)

        // MARK: The departure, aimed at it.
        let muE = GravityConstants.earthGM
        let earthModel = try HorizonsPath.model(.earth, frame: .heliocentric, ephemeris: eph)
        func padState(_ t: Double) -> OrbitalState {
            let p = pad.state(at: t, ephemeris: eph, terrestrial: c.terrestrial), e = earth(t)
            return OrbitalState(seconds: t, positionKm: p.positionKm - e.positionKm, velocityKmS: p.velocityKmS - e.velocityKmS)
        }
        let padAtLiftoff = padState(launch).positionKm.normalized
        let earthPole = eph.orientation(.earth, at: TimeScale.instant(tdbSecondsPastJ2000: launch)).bodyToEcliptic * Vector3(0, 0, 1)
        let rp = 6_378.137 + injectionAltitudeKm
        // The escape hyperbola's perigee state (geocentric) at `t` for an asymptote v∞: in the
        // plane through v∞ and the pad at liftoff, moving eastward.
        func injectionState(_ vInf: Vector3, at t: Double) -> OrbitalState {
            var n = padAtLiftoff.cross(vInf).normalized
            if n.dot(earthPole) < 0 { n = -n }
            let e = 1 + rp * vInf.lengthSquared / muE
            let p = LunarRecipe.rotate(vInf.normalized, about: n, by: -acos(-1 / e))
            let speed = (vInf.lengthSquared + 2 * muE / rp).squareRoot()
            return OrbitalState(seconds: t, positionKm: p * rp, velocityKmS: n.cross(p) * speed)
        }
        let dop = DormandPrince853()
        // The asymptote whose escape, integrated to TCM-1, meets the cruise there (differential
        // correction from the two-body arc's asymptote).
        func aimed(at injection: Double) throws -> (vInf: Vector3, arc: PropagatedArc) {
            let e0 = earth(injection)
            guard let guess = KeplerArc.lambert(mu: GravityConstants.sunGM, from: e0.positionKm, to: aim.positionKm, seconds: tcm - injection, longWay: false) else {
                throw RecipeError(description: "\(missionID): no two-body arc from the Earth to the cruise at TCM-1")
            }
            let v0 = guess.v1 - e0.velocityKmS
            let x = try Shooting.solve([v0.x, v0.y, v0.z], steps: [1e-6, 1e-6, 1e-6], tolerance: [1e-5, 1e-5, 1e-5]) { x in
                let end = try dop.propagate(injectionState(Vector3(x[0], x[1], x[2]), at: injection), to: tcm, model: earthModel).end
                let miss = end.positionKm + earth(tcm).positionKm - aim.positionKm
                return [miss.x, miss.y, miss.z]
            }.x
            let vInf = Vector3(x[0], x[1], x[2])
            return (vInf, try dop.propagate(injectionState(vInf, at: injection), to: tcm, model: earthModel))
        }
        // The injection time: where the escape burn from the parking orbit ends at the perigee
        // (the perigee's direction moves a little with the asymptote: a few passes).
        let insertion = launch + ascentMinutes * 60, burn = escapeBurnMinutes * 60
        let insertionAngle = insertionDownrangeDeg * .pi / 180
        var injection = launchPhase.upperBound
        var departure = try aimed(at: injection)
        for pass in 0..<10 {
            let perigee = injectionState(departure.vInf, at: injection)
            let n = perigee.positionKm.cross(perigee.velocityKmS).normalized
            var angle = atan2(padAtLiftoff.cross(perigee.positionKm.normalized).dot(n), padAtLiftoff.dot(perigee.positionKm.normalized))
            if angle < insertionAngle { angle += 2 * .pi }
            let next = PlanarDeparture.injectionSeconds(insertionSeconds: insertion, insertionAngle: insertionAngle, burnSeconds: burn, radius: rp,
                                                        perigeeAngle: angle, perigeeSpeed: perigee.velocityKmS.length, mu: muE)
            if abs(next - injection) < 0.01 { break }
            guard pass < 9 else { throw RecipeError(description: "\(missionID): the injection time does not settle (\(iso(injection)), then \(iso(next)))") }
            injection = next
            departure = try aimed(at: injection)
        }
        guard launchPhase.contains(injection - 0.01) else {
            throw RecipeError(description: "\(missionID): the powered phase \"launch and injection\" must last to the injection, \(iso(injection))")
        }
        let vInf = departure.vInf
        let outbound = departure.arc
        func outboundState(_ t: Double) throws -> OrbitalState {
            let s = try outbound.state(at: t), e = earth(t)
            return OrbitalState(seconds: t, positionKm: s.positionKm + e.positionKm, velocityKmS: s.velocityKmS + e.velocityKmS)
        }
        let before = try outboundState(tcm)
        let deltaV = aim.velocityKmS - before.velocityKmS
        let joinMiss = (before.positionKm - aim.positionKm).length
        let injected = injectionState(vInf, at: injection)
        let launchProfile = try PlanarDeparture(launchSeconds: launch, insertionSeconds: insertion, insertionAngle: insertionAngle, burnSeconds: burn,
                                                perigee: injected, mu: muE, pad: padState)
        let inclination = acos(max(-1, min(1, launchProfile.normal.dot(earthPole)))) * 180 / .pi
        notes.append("Departure: C3 \(fixed(vInf.lengthSquared, 2)) km²/s², in a plane through the pad at liftoff and the asymptote, inclined \(fixed(inclination, 1))° to the equator. Ascent to a \(Int(injectionAltitudeKm)) km parking orbit \(Int(insertionDownrangeDeg))° downrange at \(iso(insertion)), coast, and an \(Int(escapeBurnMinutes))-minute escape burn ending at the hyperbola's perigee, \(fixed(launchProfile.perigeeAngle * 180 / .pi, 0))° downrange of the pad at liftoff, at \(iso(injection)) (the time at which the burn is a constant tangential acceleration, \(fixed((launchProfile.perigeeRate - launchProfile.circularRate) * rp / burn * 1000 / 9.806_65, 2)) g).")
        notes.append("TCM-1 (modelled): \(fixed(deltaV.length * 1000, 2)) m/s at \(iso(tcm)), the one impulse joining the departure to the cruise integrated back from NAIF's cruise orbit determination (positions meet within \(fixed(joinMiss * 1e6, 0)) mm). It stands for TCM-1's removal of the injection bias and for what the model leaves out after it (TCM-2 to TCM-4, solar radiation pressure).")

        // MARK: NAIF cruise -> NAIF EDL: spread the seam.
        let edlFirst = edl.heliocentric(edl.start)
        let cruiseThere = cruise.heliocentric(edl.start)
        let seamKm = (edlFirst.positionKm - cruiseThere.positionKm).length
        let seamKmS = (edlFirst.velocityKmS - cruiseThere.velocityKmS).length
        let spread = max(60, (6 * seamKm / seamAccelerationKmS2).squareRoot().rounded(.up))
        let seamStart = edl.start - spread
        guard seamStart > cruise.start + 60 else { throw RecipeError(description: "\(missionID): the cruise solution is too short to spread a \(fixed(seamKm * 1000, 0)) m seam") }
        let edlBack = try ForwardArc(from: edlFirst, to: seamStart, ephemeris: eph)
        func seam(_ t: Double) throws -> OrbitalState {
            let a = cruise.heliocentric(t), b = try edlBack.state(at: t)
            let x = (t - seamStart) / spread
            let w = x * x * (3 - 2 * x), dw = 6 * x * (1 - x) / spread
            return OrbitalState(seconds: t, positionKm: a.positionKm * (1 - w) + b.positionKm * w,
                                velocityKmS: a.velocityKmS * (1 - w) + b.velocityKmS * w + (b.positionKm - a.positionKm) * dw)
        }
        provenance.exclude(seamStart, "NAIF \(cruiseKernel) from here to \(iso(edl.start)): moved by up to \(fixed(seamKm * 1000, 0)) m onto the EDL reconstruction (a seam between the two NAIF solutions, spread over \(Int(spread)) s)")
        notes.append("Seam: NAIF's EDL reconstruction begins \(fixed(seamKm * 1000, 0)) m and \(fixed(seamKmS * 1e6, 0)) mm/s from the cruise solution (\(iso(edl.start))); the difference is spread over the cruise solution's last \(Int(spread)) s (at most \(fixed(6 * seamKm / (spread * spread) * 1e6, 0)) mm/s² extra), so the kernel is continuous. missions.json lists this kernel after NAIF's, so the server serves the continuous path.")
        notes.append("NAIF's EDL kernel places the rover (-168) 2 m from the entry vehicle's navigation point (-168031) in a spacecraft frame the server cannot turn; this kernel gives -168 the navigation point's path.")

        // MARK: From the EDL excerpt to the entry interface, and the entry.
        let edlLast = edl.heliocentric(edl.end)
        let toEntry = try ForwardArc(from: edlLast, to: edl.end + 3_600, ephemeris: eph)
        guard toEntry.center == .mars else { throw RecipeError(description: "\(missionID): the approach to entry must be integrated about Mars") }
        func radius(_ t: Double) throws -> Double { try toEntry.arc.state(at: t).positionKm.length }
        // The first crossing of the interface radius: a scan by minutes, then bisection.
        var lo = edl.end
        while try radius(min(lo + 60, edl.end + 3_600)) > interfaceRadius {
            lo += 60
            guard lo < edl.end + 3_600 else {
                throw RecipeError(description: "\(missionID): the hyperbola from NAIF's EDL excerpt does not reach the \(interfaceRadius) km entry interface within an hour")
            }
        }
        var hi = min(lo + 60, edl.end + 3_600)
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if try radius(mid) > interfaceRadius { lo = mid } else { hi = mid }
        }
        let interfaceSeconds = hi
        guard edlPhase.lowerBound <= interfaceSeconds + 1, edlPhase.lowerBound >= edl.end else {
            throw RecipeError(description: "\(missionID): the powered phase \"entry, descent and landing\" must begin by the entry interface, \(iso(interfaceSeconds)) (NAIF's EDL state carried to \(interfaceRadius) km)")
        }
        let interface = try toEntry.arc.state(at: interfaceSeconds)
        let surfaceFirst = surface.local(surface.start)
        let site = surfaceFirst.positionKm
        let marsModel = try HorizonsPath.model(.mars, frame: .heliocentric, ephemeris: eph)
        let flight = try entry.fly(from: interface, siteBodyFixedKm: site, touchdownSeconds: touchdown, gravity: marsModel, ephemeris: eph)
        let flightTable = try StateTable(flight.states)
        notes.append("Entry interface (\(interfaceRadius) km from Mars's centre): \(iso(interfaceSeconds)), NAIF's last EDL state carried on under Mars's gravity; \(fixed(interface.velocityKmS.length, 3)) km/s inertial, \(fixed(flight.interfaceAirspeedKmS, 3)) km/s through the air; flight-path angle \(fixed(flight.interfaceInertialFlightPathDeg, 2))° (\(fixed(flight.interfaceFlightPathDeg, 2))° through the air).")
        notes.append("Entry (modelled): bank \(fixed(flight.bankDeg.before, 1))° then \(fixed(flight.bankDeg.after, 1))° after +\(Int(entry.bankReversalSeconds)) s, solved to reach the site; peak deceleration \(fixed(flight.peakDecelerationG, 1)) g; parachute at \(iso(flight.parachuteSeconds)) (+\(Int((flight.parachuteSeconds - interfaceSeconds).rounded())) s), backshell separation \(entry.backshellSeparationKm) km above the site at \(iso(flight.backshellSeparationSeconds)) (+\(Int((flight.backshellSeparationSeconds - interfaceSeconds).rounded())) s, descending at \(Int((flight.poweredDescent.descentRateKmS * 1000).rounded())) m/s, \(Int((flight.poweredDescent.offsetKm * 1000).rounded())) m from straight above the site, \(Int((flight.poweredDescent.groundSpeedKmS * 1000).rounded())) m/s across the ground), powered descent of \(Int(flight.poweredDescent.seconds.rounded())) s to touchdown at \(iso(touchdown)).")
        let lat = asin(site.z / site.length) * 180 / .pi, lon = atan2(site.y, site.x) * 180 / .pi
        notes.append("Landing site: NAIF's first rover localization, \(fixed(lat, 4))° N \(fixed(lon, 4))° E, \(fixed(site.length, 3)) km from Mars's centre (IAU_MARS).")

        // MARK: Pieces.
        var pieces: [PathPiece] = []
        func launching(_ t: Double) -> OrbitalState {
            let s = launchProfile.state(at: t), e = earth(t)
            return OrbitalState(seconds: t, positionKm: s.positionKm + e.positionKm, velocityKmS: s.velocityKmS + e.velocityKmS)
        }
        pieces.append(PathPiece(
            name: "Ascent to parking orbit (modelled)", notes: [
                "From SLC-41 at the published liftoff: angle in the departure plane and distance from the Earth's centre as cubics from the pad's to the circular orbit's."],
            startSeconds: launch, endSeconds: insertion, center: 399, maxStepSeconds: 30, state: { launching($0) }))
        pieces.append(PathPiece(
            name: "Parking orbit (modelled)", notes: ["Circular two-body motion at \(Int(injectionAltitudeKm)) km in the departure plane."],
            startSeconds: insertion, endSeconds: launchProfile.burnStartSeconds, center: 399, maxStepSeconds: 120, state: { launching($0) }))
        pieces.append(PathPiece(
            name: "Escape burn (modelled)", notes: ["The Centaur's second burn: constant tangential acceleration at the parking orbit's height, to the escape hyperbola's perigee."],
            startSeconds: launchProfile.burnStartSeconds, endSeconds: injection, center: 399, maxStepSeconds: 30, state: { launching($0) }))
        let escapeEnd = injection + 2 * Constants.secondsPerDay
        pieces.append(PathPiece(
            name: "Earth escape (integrated)", notes: ["Integrated from the injection under the Earth's gravity (J2-J4) with the Moon, the Sun and the planets pulling."],
            startSeconds: injection, endSeconds: escapeEnd, center: 399, maxStepSeconds: 600, state: { try outboundState($0) }))
        pieces.append(PathPiece(
            name: "Cruise to TCM-1 (integrated)", notes: ["The same integration, written about the Sun."],
            startSeconds: escapeEnd, endSeconds: tcm, center: 10, maxStepSeconds: 86_400, state: { try outboundState($0) }))
        pieces.append(PathPiece(
            name: "Cruise from TCM-1 (integrated)", notes: [
                "NAIF's first cruise state integrated back about Mars to \(iso(tM)), then about the Sun with every planet and the Moon pulling."],
            startSeconds: tcm, endSeconds: tM, center: 10, maxStepSeconds: 86_400, state: { try cruiseBack.state(at: $0) }))
        pieces.append(PathPiece(
            name: "Mars approach (integrated)", notes: ["NAIF's first cruise state integrated back under Mars's gravity (J2) with the Sun and the planets pulling."],
            startSeconds: tM, endSeconds: cruise.start, center: 499, maxStepSeconds: 3_600, state: { try approach.state(at: $0) }))
        var od = PathPiece(
            name: "NAIF m2020_cruise_od138", notes: ["\(cruiseKernel) (SPK type 1, about Mars's barycentre, J2000), copied."],
            startSeconds: cruise.start, endSeconds: seamStart, center: cruise.segment.center, frame: cruise.segment.frame,
            requiredSeconds: stride(from: cruise.start, through: seamStart, by: 1).map { $0 }, maxStepSeconds: 60, state: { cruise.heliocentric($0) })
        od.toleranceKm = 0.000_5
        pieces.append(od)
        pieces.append(PathPiece(
            name: "Seam NAIF od138 -> NAIF edl (spread)", notes: [
                "The cruise solution eased onto NAIF's EDL reconstruction integrated back under Mars's gravity (smoothstep over \(Int(spread)) s)."],
            startSeconds: seamStart, endSeconds: edl.start, center: 499, maxStepSeconds: 10, state: { try seam($0) }))
        var edlPiece = PathPiece(
            name: "NAIF m2020_edl (-168031)", notes: ["\(edlKernel): the entry vehicle's navigation point (-168031) about Mars, J2000 (SPK type 13), copied."],
            startSeconds: edl.start, endSeconds: edl.end, center: edl.segment.center, frame: edl.segment.frame,
            requiredSeconds: edl.epochs, maxStepSeconds: 1, state: { edl.heliocentric($0) })
        // Every state, cubic Hermite between neighbours as NAIF's own segment: its positions
        // carry millimetres of noise at 5 ms steps, which a smoother fit would turn into
        // velocity wiggles.
        edlPiece.window = 2
        edlPiece.keepsEveryRequiredEpoch = true
        pieces.append(edlPiece)
        pieces.append(PathPiece(
            name: "Approach to entry (integrated)", notes: ["NAIF's last EDL state integrated on under Mars's gravity (J2) with the Sun and the planets pulling, to the entry interface."],
            startSeconds: edl.end, endSeconds: interfaceSeconds, center: 499, maxStepSeconds: 60, state: { try toEntry.state(at: $0) }))
        pieces.append(PathPiece(
            name: "Entry, descent and landing (modelled)", notes: [
                "Guided entry, parachute and powered descent (three degrees of freedom, exponential atmosphere; MarsEntry.mars2020) to the landing site at the landing time."],
            startSeconds: interfaceSeconds, endSeconds: touchdown, center: 499, maxStepSeconds: 5, state: { t in
                let s = flightTable.state(at: t), m = mars(t)
                return OrbitalState(seconds: t, positionKm: s.positionKm + m.positionKm, velocityKmS: s.velocityKmS + m.velocityKmS)
            }))
        let turn = BodyTurn(body: .mars, ephemeris: eph)
        func onMars(_ fixed: OrbitalState) -> OrbitalState {
            let s = turn.fromBodyFixed(fixed), m = mars(fixed.seconds)
            return OrbitalState(seconds: fixed.seconds, positionKm: s.positionKm + m.positionKm, velocityKmS: s.velocityKmS + m.velocityKmS)
        }
        pieces.append(PathPiece(
            name: "Jezero landing site (IAU_MARS)", notes: ["At rest where NAIF's rover kernel starts, from touchdown until the kernel begins."],
            startSeconds: touchdown, endSeconds: surface.start, center: surface.segment.center, frame: surface.segment.frame, maxStepSeconds: 86_400,
            state: { onMars(OrbitalState(seconds: $0, positionKm: site, velocityKmS: .zero)) }))
        let localizations = try StateTable(surface.epochs.map { surface.local($0) })
        var rover = PathPiece(
            name: "NAIF m2020_surf_rover_loc", notes: [
                "\(surfaceKernel) (SPK type 9, linear, about Mars in IAU_MARS): every localization kept as a node; between them cubic Hermite on the stored (zero) velocities, so the rover eases from one localization to the next (at most a tenth of a move from NAIF's straight line)."],
            startSeconds: surface.start, endSeconds: surface.end, center: surface.segment.center, frame: surface.segment.frame,
            requiredSeconds: surface.epochs, maxStepSeconds: 30 * Constants.secondsPerDay, state: { onMars(localizations.state(at: $0)) })
        rover.window = 2
        rover.keepsEveryRequiredEpoch = true
        pieces.append(rover)
        return [VehiclePath(vehicle: vehicle, pieces: pieces, notes: notes, provenance: provenance)]
    }

    func iso(_ t: Double) -> String { TimeScale.instant(tdbSecondsPastJ2000: t).iso8601 }

    func fixed(_ x: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", x) }
}

/// One target's segment of a NAIF kernel (the last, as SPICE ranks them, in a frame the
/// server turns): its states in its own centre and frame, and heliocentric ecliptic J2000.
struct NAIFSource {
    let kernel: SPKKernel
    let index: Int
    let segment: SPKKernel.Segment
    let frame: NAIFBody.Frame
    let ephemeris: Ephemeris

    init(kernel: SPKKernel, file: String, target: Int, ephemeris: Ephemeris) throws {
        guard let i = kernel.segments.lastIndex(where: { $0.target == target && NAIFBody.frame($0.frame) != nil }),
              let frame = NAIFBody.frame(kernel.segments[i].frame) else {
            throw RecipeError(description: "\(file) has no segment for \(target) in a frame the server turns")
        }
        self.kernel = kernel
        index = i
        segment = kernel.segments[i]
        self.frame = frame
        self.ephemeris = ephemeris
    }

    var start: Double { segment.startSeconds }
    var end: Double { segment.endSeconds }
    /// The epochs of its own states (types 9 and 13), empty for a continuous type.
    var epochs: [Double] { kernel.stateEpochs(segment: index) ?? [] }

    /// The segment's state, in its centre and frame.
    func local(_ t: Double) -> OrbitalState {
        let s = kernel.state(segment: index, secondsPastJ2000: t)
        return OrbitalState(seconds: t, positionKm: s.positionKm, velocityKmS: s.velocityKmPerSecond)
    }

    /// Heliocentric ecliptic J2000, as ``KernelBodies`` places it.
    func heliocentric(_ t: Double) -> OrbitalState {
        let s = local(t)
        let turned: OrbitalState
        switch frame {
        case .icrf:
            let m = Precession.equatorialToEclipticJ2000
            turned = OrbitalState(seconds: t, positionKm: m * s.positionKm, velocityKmS: m * s.velocityKmS)
        case .eclipticJ2000:
            turned = s
        case let .bodyFixed(body):
            turned = BodyTurn(body: body, ephemeris: ephemeris).fromBodyFixed(s)
        }
        let c = ephemeris.naifState(segment.center, at: TimeScale.instant(tdbSecondsPastJ2000: t)) ?? (.zero, .zero)
        return OrbitalState(seconds: t, positionKm: turned.positionKm + c.positionKm, velocityKmS: turned.velocityKmS + c.velocityKmS)
    }
}
