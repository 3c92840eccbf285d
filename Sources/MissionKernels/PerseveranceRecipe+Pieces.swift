import Astrodynamics
import Ephemeris
import Missions

extension PerseveranceRecipe {
    /// From the pad to TCM-1: the ascent, the parking orbit, the escape burn, the escape and the
    /// cruise to TCM-1.
    func launchPieces(_ d: Departure, times: Timeline, ephemeris eph: Ephemeris) -> [PathPiece] {
        let launch = times.launch, insertion = d.insertionSeconds, injection = d.injectionSeconds, profile = d.profile
        var pieces: [PathPiece] = []
        pieces.append(PathPiece(
            name: "Ascent to parking orbit (modelled)", notes: [
                "From SLC-41 at the published liftoff: angle in the departure plane and distance from the Earth's centre as cubics from the pad's to the circular orbit's."],
            startSeconds: launch, endSeconds: insertion, center: 399, maxStepSeconds: 30, state: { d.launching($0) }))
        pieces.append(PathPiece(
            name: "Parking orbit (modelled)", notes: ["Circular two-body motion at \(Int(injectionAltitudeKm)) km in the departure plane."],
            startSeconds: insertion, endSeconds: profile.burnStartSeconds, center: 399, maxStepSeconds: 120, state: { d.launching($0) }))
        pieces.append(PathPiece(
            name: "Escape burn (modelled)", notes: ["The Centaur's second burn: constant tangential acceleration at the parking orbit's height, to the escape hyperbola's perigee."],
            startSeconds: profile.burnStartSeconds, endSeconds: injection, center: 399, maxStepSeconds: 30, state: { d.launching($0) }))
        let escapeEnd = injection + 2 * Constants.secondsPerDay
        pieces.append(PathPiece(
            name: "Earth escape (integrated)", notes: ["Integrated from the injection under the Earth's gravity (J2-J4) with the Moon, the Sun and the planets pulling."],
            startSeconds: injection, endSeconds: escapeEnd, center: 399, maxStepSeconds: 600, state: { try d.outboundState($0) }))
        pieces.append(PathPiece(
            name: "Cruise to TCM-1 (integrated)", notes: ["The same integration, written about the Sun."],
            startSeconds: escapeEnd, endSeconds: times.tcm, center: 10, maxStepSeconds: 86_400, state: { try d.outboundState($0) }))
        return pieces
    }

    /// From TCM-1 to the end of NAIF's cruise solution: the cruise and the approach integrated
    /// back, NAIF's orbit determination, and the seam onto the EDL reconstruction.
    func cruisePieces(_ cruise: Cruise, tcm: Double, naif: NAIFSources, seam: Seam) -> [PathPiece] {
        let od138 = naif.cruise, tM = cruise.handover, seamStart = seam.startSeconds
        var pieces: [PathPiece] = []
        pieces.append(PathPiece(
            name: "Cruise from TCM-1 (integrated)", notes: [
                "NAIF's first cruise state integrated back about Mars to \(iso(tM)), then about the Sun with every planet and the Moon pulling."],
            startSeconds: tcm, endSeconds: tM, center: 10, maxStepSeconds: 86_400, state: { try cruise.back.state(at: $0) }))
        pieces.append(PathPiece(
            name: "Mars approach (integrated)", notes: ["NAIF's first cruise state integrated back under Mars's gravity (J2) with the Sun and the planets pulling."],
            startSeconds: tM, endSeconds: od138.start, center: 499, maxStepSeconds: 3_600, state: { try cruise.approach.state(at: $0) }))
        var od = PathPiece(
            name: "NAIF m2020_cruise_od138", notes: ["\(cruiseKernel) (SPK type 1, about Mars's barycentre, J2000), copied."],
            startSeconds: od138.start, endSeconds: seamStart, center: od138.segment.center, frame: od138.segment.frame,
            requiredSeconds: stride(from: od138.start, through: seamStart, by: 1).map { $0 }, maxStepSeconds: 60, state: { od138.heliocentric($0) })
        od.toleranceKm = 0.000_5
        pieces.append(od)
        pieces.append(PathPiece(
            name: "Seam NAIF od138 -> NAIF edl (spread)", notes: [
                "The cruise solution eased onto NAIF's EDL reconstruction integrated back under Mars's gravity (smoothstep over \(Int(seam.spreadSeconds)) s)."],
            startSeconds: seamStart, endSeconds: naif.edl.start, center: 499, maxStepSeconds: 10, state: { try seam.state($0) }))
        return pieces
    }

    /// From NAIF's EDL reconstruction to the end of the rover's kernel: the reconstruction, the
    /// approach to the entry interface, the entry, the landing site and the rover's kernel.
    func landingPieces(_ approach: Approach, flight: MarsEntry.Flight, site: Vector3, touchdown: Double, naif: NAIFSources,
                       ephemeris eph: Ephemeris) throws -> [PathPiece] {
        let edl = naif.edl, surface = naif.surface, interfaceSeconds = approach.interfaceSeconds, toEntry = approach.toEntry
        let flightTable = try StateTable(flight.states)
        var pieces: [PathPiece] = []
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
                Self.shifted(flightTable.state(at: t), by: Self.planet(499, eph, t), at: t)
            }))
        let turn = BodyTurn(body: .mars, ephemeris: eph)
        func onMars(_ fixed: OrbitalState) -> OrbitalState {
            Self.shifted(turn.fromBodyFixed(fixed), by: Self.planet(499, eph, fixed.seconds), at: fixed.seconds)
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
        return pieces
    }
}
