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
///
/// The stages, each in its own file: the departure (launch, parking orbit, escape burn and the
/// escape aimed at the cruise: `PerseveranceRecipe+Departure.swift`), the cruise back from NAIF's
/// orbit determination to TCM-1, the seam between NAIF's two solutions and the entry interface
/// (`PerseveranceRecipe+Arrival.swift`), the entry (``MarsEntry``), and the pieces
/// (`PerseveranceRecipe+Pieces.swift`).
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
    public var entry = MarsEntry.mars2020

    public init() {}

    public var sources: [String] {
        [cruiseKernel, edlKernel, surfaceKernel, "Resources/missions.json (launch, TCM-1, entry, landing: times and sources)"]
    }

    public func paths(_ c: BuildContext) throws -> [VehiclePath] {
        let eph = c.ephemeris
        let vehicle = try c.vehicle(vehicleID)
        let naif = try naifSources(c, vehicle: vehicle)
        var notes: [String] = []
        var provenance = SourceProvenance(vehicle: vehicle.id, naifID: vehicle.naifID, sources: [cruiseKernel, edlKernel, surfaceKernel])
        let times = try timeline(c, vehicle: vehicle, surface: naif.surface)
        let cruise = try cruiseBack(from: naif.cruise, to: times.tcm, ephemeris: eph)
        let departure = try depart(c, times: times, aim: cruise.aim)
        notes += try departureNotes(departure, aim: cruise.aim, times: times)
        guard times.separationPhase.contains(naif.edl.start), times.separationPhase.upperBound >= naif.edl.end else {
            throw RecipeError(description: "\(missionID): the powered phase \"cruise stage separation and turn to entry\" must hold NAIF's EDL reconstruction (\(iso(naif.edl.start)) to \(iso(naif.edl.end)), where its thrusters fire) and the seam onto it")
        }
        let seam = try seam(from: naif.cruise, to: naif.edl, from: times.separationPhase.lowerBound, ephemeris: eph)
        provenance.exclude(seam.startSeconds, "NAIF \(cruiseKernel) from here to \(iso(naif.edl.start)): moved by up to \(fixed(seam.km * 1000, 0)) m onto the EDL reconstruction (the two NAIF solutions joined over \(Int(seam.spreadSeconds)) s from the cruise stage separation, inside its powered phase)")
        notes.append(note(seam))
        notes.append("NAIF's EDL kernel places the rover (-168) 2 m from the entry vehicle's navigation point (-168031) in a spacecraft frame the server cannot turn; this kernel gives -168 the navigation point's path.")
        let approach = try entryInterface(after: naif.edl, radiusKm: times.interfaceRadiusKm, ephemeris: eph)
        guard times.edlPhase.lowerBound <= approach.interfaceSeconds + 1, times.edlPhase.lowerBound >= naif.edl.end else {
            throw RecipeError(description: "\(missionID): the powered phase \"entry, descent and landing\" must begin by the entry interface, \(iso(approach.interfaceSeconds)) (NAIF's EDL state carried to \(times.interfaceRadiusKm) km)")
        }
        let site = naif.surface.local(naif.surface.start).positionKm
        let flight = try fly(approach, to: site, times: times, ephemeris: eph, notes: &notes)
        var pieces = launchPieces(departure, times: times, ephemeris: eph)
        pieces += cruisePieces(cruise, tcm: times.tcm, naif: naif, seam: seam)
        pieces += try landingPieces(approach, flight: flight, site: site, touchdown: times.touchdown, naif: naif, ephemeris: eph)
        return [VehiclePath(vehicle: vehicle, pieces: pieces, notes: notes, provenance: provenance)]
    }

    /// NAIF's three kernels: the cruise orbit determination, the EDL reconstruction and the
    /// rover's localizations, which must follow each other in that order.
    struct NAIFSources {
        let cruise: NAIFSource, edl: NAIFSource, surface: NAIFSource
    }

    /// The NAIF entry vehicle's navigation point, the target of the EDL kernel.
    static let entryVehicleNAIFID = -168_031

    func naifSources(_ c: BuildContext, vehicle: Vehicle) throws -> NAIFSources {
        let eph = c.ephemeris
        let cruise = try NAIFSource(kernel: try c.kernel(cruiseKernel), file: cruiseKernel, target: vehicle.naifID, ephemeris: eph)
        let edl = try NAIFSource(kernel: try c.kernel(edlKernel), file: edlKernel, target: Self.entryVehicleNAIFID, ephemeris: eph)
        let surface = try NAIFSource(kernel: try c.kernel(surfaceKernel), file: surfaceKernel, target: vehicle.naifID, ephemeris: eph)
        guard cruise.start < edl.start, edl.start <= cruise.end, edl.end < surface.start else {
            throw RecipeError(description: "\(missionID): the NAIF kernels are not in the order cruise, EDL, surface (cruise \(iso(cruise.start))–\(iso(cruise.end)), EDL \(iso(edl.start))–\(iso(edl.end)), surface from \(iso(surface.start)))")
        }
        return NAIFSources(cruise: cruise, edl: edl, surface: surface)
    }

    /// The mission's times (missions.json says where each comes from), TDB seconds.
    struct Timeline {
        let launch: Double
        let launchPhase: ClosedRange<Double>
        /// TCM-1: the middle of its listed phase.
        let tcm: Double
        /// Cruise stage separation and the entry vehicle's thrusters before entry: NAIF's cruise
        /// solution hands over to its EDL reconstruction inside it.
        let separationPhase: ClosedRange<Double>
        let edlPhase: ClosedRange<Double>
        let touchdown: Double
        /// The entry interface's distance from Mars's centre, km.
        let interfaceRadiusKm: Double
    }

    /// The entry interface's radius when missions.json states none, km (Mars 2020's, 3,522.2 km
    /// from Mars's centre).
    static let defaultInterfaceRadiusKm = 3_522.2
    /// Slack allowed between the landing event and the phases it ends and begins, seconds.
    static let phaseSlackSeconds = 0.01

    func timeline(_ c: BuildContext, vehicle: Vehicle, surface: NAIFSource) throws -> Timeline {
        let launch = c.seconds(hours: 0)
        let launchPhase = try c.phase(vehicle, "launch and injection")
        let tcmPhase = try c.phase(vehicle, "trajectory correction manoeuvre 1")
        let tcm = (tcmPhase.lowerBound + tcmPhase.upperBound) / 2
        let separationPhase = try c.phase(vehicle, "cruise stage separation and turn to entry")
        let edlPhase = try c.phase(vehicle, "entry, descent and landing")
        let landedPhase = try c.phase(vehicle, "on Mars")
        let touchdown = try c.event("landing")
        let interfaceRadius = try c.fact("entry").distanceKm ?? Self.defaultInterfaceRadiusKm
        guard abs(landedPhase.lowerBound - touchdown) < Self.phaseSlackSeconds, abs(edlPhase.upperBound - touchdown) < Self.phaseSlackSeconds else {
            throw RecipeError(description: "\(missionID): the entry phase must end and the landed phase begin at the landing event (\(iso(touchdown)))")
        }
        guard let endHours = c.mission.endHours, c.seconds(hours: endHours) <= surface.end + Self.phaseSlackSeconds else {
            throw RecipeError(description: "\(missionID): the mission must end by the end of \(surfaceKernel) (\(iso(surface.end)))")
        }
        return Timeline(launch: launch, launchPhase: launchPhase, tcm: tcm, separationPhase: separationPhase, edlPhase: edlPhase, touchdown: touchdown, interfaceRadiusKm: interfaceRadius)
    }

    /// `s` moved by a centre's state `c` (its position and velocity added), at `t`.
    static func shifted(_ s: OrbitalState, by c: (positionKm: Vector3, velocityKmS: Vector3), at t: Double) -> OrbitalState {
        OrbitalState(seconds: t, positionKm: s.positionKm + c.positionKm, velocityKmS: s.velocityKmS + c.velocityKmS)
    }

    /// A planet's heliocentric state at `t` (DE440), zero where the engine has none.
    static func planet(_ naifID: Int, _ eph: Ephemeris, _ t: Double) -> (positionKm: Vector3, velocityKmS: Vector3) {
        eph.naifState(naifID, at: TimeScale.instant(tdbSecondsPastJ2000: t)) ?? (.zero, .zero)
    }

    func iso(_ t: Double) -> String { TimeScale.instant(tdbSecondsPastJ2000: t).iso8601 }

    func fixed(_ x: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", x) }
}
