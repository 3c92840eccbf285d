import Ephemeris
import Missions

/// What building a mission's kernel reads: the engine, the mission (its events and phases),
/// and the source files by name (JPL Horizons vectors, NAIF kernels) — handed in as bytes, so
/// the recipes do no I/O.
public struct BuildContext {
    public let ephemeris: Ephemeris
    public let mission: Mission
    /// The bytes of a source file (`horizons-voyager2_1d.json`), or a thrown error naming it.
    public let source: (String) throws -> [UInt8]
    /// A NAIF kernel the mission ships (`naif/m2020_edl_v01.bsp`), opened.
    public let kernel: (String) throws -> SPKKernel

    /// How the Earth turned (UT1, the IERS pole): where launch pads are.
    public let terrestrial: TerrestrialFrame

    public init(ephemeris: Ephemeris, mission: Mission, source: @escaping (String) throws -> [UInt8], kernel: @escaping (String) throws -> SPKKernel,
                terrestrial: TerrestrialFrame? = nil) {
        self.ephemeris = ephemeris
        self.mission = mission
        self.source = source
        self.kernel = kernel
        self.terrestrial = terrestrial ?? TerrestrialFrame(ephemeris: ephemeris)
    }

    /// The same context with another engine (moons moved by the recipe), the Earth's turning kept.
    func replacing(ephemeris: Ephemeris) -> BuildContext {
        BuildContext(ephemeris: ephemeris, mission: mission, source: source, kernel: kernel, terrestrial: terrestrial)
    }

    /// TDB seconds past J2000 of a mission event, by key.
    public func event(_ key: String) throws -> Double {
        guard let e = mission.events.first(where: { $0.key == key }) else {
            throw RecipeError(description: "mission \(mission.id) has no event \"\(key)\"")
        }
        return e.date.daysSinceJ2000TDB * Constants.secondsPerDay
    }

    /// The event's fact (distance, altitude), by key.
    public func fact(_ key: String) throws -> MissionFact {
        guard let f = mission.events.first(where: { $0.key == key })?.fact else {
            throw RecipeError(description: "mission \(mission.id): event \"\(key)\" states no fact")
        }
        return f
    }

    /// The vehicle, by id.
    public func vehicle(_ id: String) throws -> Vehicle {
        guard let v = mission.vehicle(id) else { throw RecipeError(description: "mission \(mission.id) has no vehicle \"\(id)\"") }
        return v
    }

    /// TDB seconds of mission hours, counted from the launch's TDB: within 3 ms of the engine's
    /// exact mapping (``Mission/tdbSeconds(atHours:)``, TT elapsed), which the server's one-second
    /// slack at a vehicle's ends absorbs. Kept so the shipped kernels rebuild byte for byte: the
    /// flyby searches (``FlybyRecipe``) settle in another local minimum when their inputs move
    /// by milliseconds (Parker's corrections: 104 m/s instead of 36).
    public func seconds(hours t: Double) -> Double {
        mission.launch.daysSinceJ2000TDB * Constants.secondsPerDay + t * 3600
    }

    /// A vehicle phase's span in TDB seconds, by name.
    public func phase(_ vehicle: Vehicle, _ name: String) throws -> ClosedRange<Double> {
        guard let p = vehicle.phases.first(where: { $0.name == name }) else {
            throw RecipeError(description: "vehicle \(vehicle.id) has no phase \"\(name)\"")
        }
        return seconds(hours: p.startHours)...seconds(hours: p.endHours)
    }
}

public struct RecipeError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}

/// One vehicle's path, piece by piece, with what the kernel's comments say about it.
public struct VehiclePath {
    public let vehicle: Vehicle
    public let pieces: [PathPiece]
    public let notes: [String]
    /// For a path through source samples: what it leaves out and re-anchors.
    public let provenance: SourceProvenance?
    /// Other bodies the path moved, written beside it: moons fitted to the vehicle's samples
    /// (``MoonEncounterFit``), by NAIF id.
    public let bodyPieces: [(naifID: Int, piece: PathPiece)]

    public init(vehicle: Vehicle, pieces: [PathPiece], notes: [String] = [], provenance: SourceProvenance? = nil,
                bodyPieces: [(naifID: Int, piece: PathPiece)] = []) {
        self.vehicle = vehicle
        self.pieces = pieces
        self.notes = notes
        self.provenance = provenance
        self.bodyPieces = bodyPieces
    }
}

/// How one mission's kernel is made.
public protocol MissionRecipe {
    var missionID: String { get }
    /// The files it reads (for the comments and the build's inputs).
    var sources: [String] { get }
    func paths(_ context: BuildContext) throws -> [VehiclePath]
}

/// What a kernel does with its source samples, for the tests that hold it to them and for
/// readers: which samples it leaves out (and why), and which encounters it re-anchors on
/// DE440's planets. Written beside the kernel as `<mission>.provenance.json`.
public struct SourceProvenance: Sendable, Codable, Equatable {
    public struct Excluded: Sendable, Codable, Equatable {
        /// TDB seconds past J2000 of the sample, and the same as an ISO 8601 UTC instant.
        public let tdbSeconds: Double
        public let utc: String
        public let reason: String
    }

    public struct Anchor: Sendable, Codable, Equatable {
        public let body: String
        public let closestTDBSeconds: Double
        public let closestUTC: String
        /// Where the samples' planet lies from DE440's (heliocentric ecliptic J2000, km).
        public let offsetKm: [Double]
        public let rmsBeforeKm: Double
        public let rmsAfterKm: Double
        /// Full correction between these TDB seconds, none outside the taper ones.
        public let fullFrom: Double
        public let fullTo: Double
        public let taperFrom: Double
        public let taperTo: Double

        public init(_ a: EncounterAnchor) {
            body = a.body.rawValue
            closestTDBSeconds = a.closestSeconds
            closestUTC = TimeScale.instant(tdbSecondsPastJ2000: a.closestSeconds).iso8601
            offsetKm = [a.offsetKm.x, a.offsetKm.y, a.offsetKm.z]
            rmsBeforeKm = a.rmsBeforeKm
            rmsAfterKm = a.rmsAfterKm
            fullFrom = a.fullFrom
            fullTo = a.fullTo
            taperFrom = a.taperFrom
            taperTo = a.taperTo
        }

        /// The anchor it was written from.
        public var encounter: EncounterAnchor? {
            guard let b = BodyID(rawValue: body), offsetKm.count == 3 else { return nil }
            return EncounterAnchor(body: b, closestSeconds: closestTDBSeconds, offsetKm: Vector3(offsetKm[0], offsetKm[1], offsetKm[2]),
                                   rmsBeforeKm: rmsBeforeKm, rmsAfterKm: rmsAfterKm, fullFrom: fullFrom, fullTo: fullTo, taperFrom: taperFrom, taperTo: taperTo)
        }
    }

    /// A moon moved where the samples say it was (``MoonEncounterFit``).
    public struct Moon: Sendable, Codable, Equatable {
        public let body: String
        /// The anchor's epoch (TDB seconds past J2000) and its offset from the theory, km.
        public let epochTDBSeconds: Double
        public let offsetKm: [Double]
        /// The closest approach to the moved moon (UTC, km from its centre), and the distance
        /// the theory's moon gave.
        public let closestUTC: String
        public let closestKm: Double
        public let theoryClosestKm: Double
        public let rmsBeforeKm: Double
        public let rmsAfterKm: Double

        public init(_ f: MoonEncounterFit) {
            body = f.anchor.body.rawValue
            epochTDBSeconds = f.anchor.epochSeconds
            offsetKm = [f.anchor.offsetKm.x, f.anchor.offsetKm.y, f.anchor.offsetKm.z]
            closestUTC = TimeScale.instant(tdbSecondsPastJ2000: f.closestSeconds).iso8601
            closestKm = f.closestAfterKm
            theoryClosestKm = f.closestBeforeKm
            rmsBeforeKm = f.rmsBeforeKm
            rmsAfterKm = f.rmsAfterKm
        }
    }

    public let vehicle: String
    public let naifID: Int
    /// Source files read, in order.
    public var sources: [String]
    public var excluded: [Excluded] = []
    public var anchors: [Anchor] = []
    /// Moons moved where the samples put them (nil, and absent from the file: none).
    public var moons: [Moon]?

    public init(vehicle: String, naifID: Int, sources: [String]) {
        self.vehicle = vehicle
        self.naifID = naifID
        self.sources = sources
    }

    mutating func exclude(_ seconds: Double, _ reason: String) {
        excluded.append(Excluded(tdbSeconds: seconds, utc: TimeScale.instant(tdbSecondsPastJ2000: seconds).iso8601, reason: reason))
    }
}
