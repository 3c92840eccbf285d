import Glibc
import Ephemeris
import HTTPCore
import Missions
import MissionScene
import Scene
import Storage

/// `/v1/missions…`: list, detail, trajectory, telemetry, events, framing (the stream is in
/// `V1API+MissionStream.swift`). Mission data never changes while the process runs, so every
/// answer that does not depend on `now` is immutable.
extension V1API {
    static let defaultTrajectorySamples = 500
    /// Samples (all vehicles together) beyond which a trajectory is computed in the heavy lane.
    static let heavyTrajectorySamples = 10_000

    /// `GET /v1/missions`
    func missionList(_ req: HTTPRequest) throws -> HTTPResponse {
        try req.query.rejectUnknown([])
        return .catalogue(missionListBody)
    }

    static func encodeMissionList(_ services: APIServices) -> [UInt8] {
        var w = JSONWriter(capacity: 8 * 1024)
        w.object { w in
            w.key("missions")
            w.array { w in
                for m in services.missions.missions { MissionEncoding.summary(m, into: &w) }
            }
        }
        return w.bytes
    }

    /// `GET /v1/missions/{id}`
    func missionDetail(_ req: HTTPRequest, _ ctx: RequestContext) throws -> HTTPResponse {
        try req.query.rejectUnknown([])
        let id = try ctx.parameters.require("id")
        let engine = try services.missionEngine(id)
        if let body = missionBodies[id] { return .catalogue(body) }
        // A mission that flies on: its replay ends now.
        var w = JSONWriter(capacity: 8 * 1024)
        MissionEncoding.detail(engine, replayEndHours: services.replayEndHours(engine.mission), dataHash: services.missionDataHash(id), into: &w)
        return .json(w.bytes, freshness: .now)
    }

    /// `GET /v1/missions/{id}/trajectory?vehicle=&samples=&frame=`: parsed and answered from
    /// the memory cache on the loop; on a miss, samples come from SQLite or the engine on the
    /// worker pool, are encoded once, and kept.
    func missionTrajectoryPlan(_ req: HTTPRequest, _ ctx: RequestContext) throws -> Router.Plan {
        let q = req.query
        try q.rejectUnknown(["vehicle", "samples", "frame"])
        let count = try q.int("samples", in: MissionEngine.sampleCountRange, default: Self.defaultTrajectorySamples)
        let frame = try q.oneOf("frame", default: TrajectoryFrame.native)
        let id = try ctx.parameters.require("id")
        let scene = try services.missionScene(id)
        let vehicle = try q.string("vehicle")
        let vehicles = try Self.vehicles(scene.engine, vehicle)
        let key = TrajectoryBodyKey(mission: id, vehicle: vehicle, count: count, frame: frame)
        // Tens of thousands of samples take a worker for a while: the heavy lane.
        let cost: Router.Cost = count * vehicles.count > Self.heavyTrajectorySamples ? .heavy : .compute
        return encodedPlan(.trajectory(key), freshness: .fixed, cost: cost) { [self] in
            try trajectoryJSON(scene, vehicles: vehicles, count: count, frame: frame)
        }
    }

    /// The vehicles a `vehicle` parameter selects (all when absent), or a 404 listing them.
    static func vehicles(_ engine: MissionEngine, _ vehicle: String?) throws(ProblemDetails) -> [VehicleTrack] {
        guard let vehicle else { return engine.tracks }
        guard let v = engine.tracks.first(where: { $0.vehicle.id == vehicle }) else {
            throw ProblemDetails.unknownId("vehicle", id: vehicle, parameter: "vehicle", valid: engine.vehicleIDs)
        }
        return [v]
    }

    /// The `/trajectory` body: every vehicle's line (or one), samples from SQLite when there.
    /// Off the event loop only (it may touch SQLite and computes thousands of samples).
    func trajectoryJSON(_ scene: MissionScene, vehicles: [VehicleTrack], count: Int, frame: TrajectoryFrame) throws -> [UInt8] {
        let lines = try vehicles.map { try cachedSamples(scene, $0, count: count, frame: frame) }
        var w = JSONWriter(capacity: count * vehicles.count * 90 + 1024)
        MissionEncoding.trajectory(scene, vehicles: vehicles, lines: lines, count: count, frame: frame, into: &w)
        return w.bytes
    }

    /// The `/trajectory` body as the CLI's benchmark measures it (through both cache tiers).
    public func trajectoryBody(mission id: String, vehicle: String?, count: Int, frame: TrajectoryFrame) throws -> EncodedBody {
        let scene = try services.missionScene(id)
        let key = ResponseKey.trajectory(TrajectoryBodyKey(mission: id, vehicle: vehicle, count: count, frame: frame))
        if let hit = services.responses[key] { return hit }
        let body = EncodedBody(bytes: try trajectoryJSON(scene, vehicles: try Self.vehicles(scene.engine, vehicle), count: count, frame: frame),
                               contentType: HTTPResponse.jsonContentType)
        services.responses.insert(body, for: key)
        return body
    }

    /// The samples of one line: from the SQLite cache when there, computed and queued for storing
    /// otherwise. The cache never makes this wait: a read that meets a lock is a miss (computed),
    /// writes are queued to the cache's background writer. A cache failure is logged and treated
    /// as a miss; a sampling failure is an error, never an empty line.
    func cachedSamples(_ scene: MissionScene, _ v: VehicleTrack, count: Int, frame: TrajectoryFrame) throws -> [TrajectorySample] {
        let engine = scene.engine
        let key = SampleCacheKey(
            mission: engine.mission.id, vehicle: v.vehicle.id, samples: count, frame: frame.rawValue,
            dataHash: services.missionDataHash(engine.mission.id), engineVersion: MissionEngine.engineVersion)
        if let cache = services.sampleCache {
            do {
                if let packed = try cache.get(key), let samples = TrajectoryPacking.unpack(packed, count: count) { return samples }
            } catch {
                services.logger.warning("sample cache read failed; computing", metadata: ["error": "\(error)", "mission": "\(key.mission)"])
            }
        }
        let samples = try scene.sample(v, count: count, frame: frame).samples
        services.sampleCache?.put(key, values: TrajectoryPacking.pack(samples))
        return samples
    }

    /// The mission time of a request: `date` (an instant) when given, else `t` (hours from
    /// launch), else `defaultHours` (nil: `t` is required). Both are read in the same range,
    /// ``MissionCatalogue/missionTimeRange`` (a date before launch is a negative `t`), or in
    /// `range` where a parameter allows less (a replay's `from` starts at launch or later). A
    /// `t` given with `date` is validated, then `date` decides.
    func missionTime(_ q: QueryParameters, _ engine: MissionEngine, parameter: String = "t", defaultHours: Double?,
                     range: ClosedRange<Double>? = nil) throws -> Double {
        let span = range ?? services.missions.missionTimeRange
        let accepted = "hours from launch in \(JSONWriter.plain(span.lowerBound))…\(JSONWriter.plain(span.upperBound)) (this mission's replay ends at \(JSONWriter.plain(services.replayEndHours(engine.mission))))"
        var hours: Double?
        if let tText = try q.string(parameter) {
            guard let t = DecimalNumber.double(tText) else { throw ProblemDetails.invalidParameter(parameter, value: tText, accepted: accepted) }
            guard span.contains(t) else { throw ProblemDetails.invalidParameter(parameter, value: tText, accepted: accepted, reason: "out of range") }
            hours = t
        }
        if let dateText = try q.string("date") {
            let t = engine.mission.hours(at: try QueryParsing.instant(dateText, now: services.clock))
            guard span.contains(t) else {
                let m = engine.mission
                let first = m.instant(atHours: span.lowerBound).iso8601, last = m.instant(atHours: span.upperBound).iso8601
                throw ProblemDetails.invalidParameter("date", value: dateText, accepted: "an instant from \(first) to \(last): mission times in \(JSONWriter.plain(span.lowerBound))…\(JSONWriter.plain(span.upperBound)) hours from launch, the limits of `\(parameter)`", reason: "out of range")
            }
            return t
        }
        if let hours { return hours }
        guard let defaultHours else { throw ProblemDetails.missingParameter(parameter, accepted: accepted) }
        return defaultHours
    }

    /// `GET /v1/missions/{id}/telemetry?t=` or `?date=`
    func missionTelemetry(_ req: HTTPRequest, _ ctx: RequestContext) throws -> HTTPResponse {
        let q = req.query
        try q.rejectUnknown(["t", "date"])
        let scene = try services.missionScene(try ctx.parameters.require("id"))
        let t = try missionTime(q, scene.engine, defaultHours: 0)
        let fresh: Freshness = (try q.string("date")) == "now" ? .now : .fixed
        var w = JSONWriter(capacity: 2048)
        MissionEncoding.telemetry(try scene.engine.telemetry(at: t), scene: scene, into: &w)
        return .json(w.bytes, freshness: fresh)
    }

    /// `GET /v1/missions/{id}/revolution?vehicle=&t=` or `?date=`: the revolution a vehicle in
    /// orbit about a planet flew up to `t` (``MissionScene/flownRevolution(_:atHours:)``), in
    /// absolute scene coordinates, as the pictures draw it: what a drawing puts in place of the
    /// line's chords there (`/trajectory`'s `orbits`). Empty where the vehicle is not in orbit.
    /// Up to 121 states of the kernels (integrations between a Mars orbiter's daily samples):
    /// on the worker pool, never cached in memory (every `t` is its own answer).
    func missionRevolutionPlan(_ req: HTTPRequest, _ ctx: RequestContext) throws -> Router.Plan {
        let q = req.query
        try q.rejectUnknown(["vehicle", "t", "date"])
        let scene = try services.missionScene(try ctx.parameters.require("id"))
        let engine = scene.engine
        let track: VehicleTrack
        if let id = try q.string("vehicle") {
            track = try Self.vehicles(engine, id)[0]
        } else {
            track = engine.tracks.first { $0.vehicle.primary } ?? engine.tracks[0]
        }
        let t = try missionTime(q, engine, defaultHours: nil)
        let fresh: Freshness = (try q.string("date")) == "now" ? .now : .fixed
        return .offload {
            let points = try scene.flownRevolution(track, atHours: t)
            let body = points == nil ? nil : engine.orbitSpans(track).first { $0.hours.contains(t) }?.body
            var w = JSONWriter(capacity: 8 * 1024)
            w.object { w in
                w.key("mission"); w.string(engine.mission.id)
                w.key("vehicle"); w.string(track.vehicle.id)
                w.key("t"); w.number(t)
                w.key("body"); w.optionalString(body?.rawValue)
                w.key("positions"); w.array { w in for p in points ?? [] { w.fixed(p, decimals: 6) } }
            }
            return .json(w.bytes, freshness: fresh)
        }
    }

    /// `GET /v1/missions/{id}/events?from=&to=` or `?at=`
    func missionEvents(_ req: HTTPRequest, _ ctx: RequestContext) throws -> HTTPResponse {
        let q = req.query
        try q.rejectUnknown(["from", "to", "at"])
        let engine = try services.missionEngine(try ctx.parameters.require("id"))
        let m = engine.mission
        var w = JSONWriter(capacity: 4096)
        // `at` takes precedence over a window; both are validated.
        let from = try q.double("from"), to = try q.double("to")
        if try q.string("at") != nil {
            let t = try missionTime(q, engine, parameter: "at", defaultHours: nil)
            let status = m.eventStatus(at: t)
            w.object { w in
                w.key("mission"); w.string(m.id)
                w.key("at"); w.number(t)
                w.key("met"); w.string(MissionClock.met(hours: t))
                w.key("lastEvent"); MissionEncoding.optionalEvent(status.lastEvent, into: &w)
                w.key("nextEvent"); MissionEncoding.optionalEvent(status.nextEvent, into: &w)
                w.key("visibleLabels"); w.array { w in for e in status.visibleLabels { MissionEncoding.event(e, into: &w) } }
            }
            return HTTPResponse.json(w.bytes).immutable()
        }
        // A window whose `to` is before its `from` holds no event.
        let events = m.events(from: from, to: to)
        w.object { w in
            w.key("mission"); w.string(m.id)
            w.key("from"); if let from { w.number(from) } else { w.null() }
            w.key("to"); if let to { w.number(to) } else { w.null() }
            w.key("events"); w.array { w in for e in events { MissionEncoding.event(e, into: &w) } }
        }
        return HTTPResponse.json(w.bytes).immutable()
    }

    /// `GET /v1/missions/{id}/framing?aspect=&t=`: the mission camera (``MissionFraming``). For viewports
    /// narrower than tall the distance grows so the radius fits the horizontal field of view
    /// (tan(hFOV/2) = aspect · tan(vFOV/2)).
    func missionFraming(_ req: HTTPRequest, _ ctx: RequestContext) throws -> HTTPResponse {
        let q = req.query
        try q.rejectUnknown(["aspect", "t"])
        let scene = try services.missionScene(try ctx.parameters.require("id"))
        let engine = scene.engine
        let aspect = try q.double("aspect", in: 0.1...10, default: 16.0 / 9.0)
        let t = try missionTime(q, engine, defaultHours: 0)
        let f = scene.framing(atHours: t)
        var w = JSONWriter(capacity: 1024)
        w.object { w in
            w.key("mission"); w.string(engine.mission.id)
            w.key("t"); w.number(t)
            w.key("aspect"); w.number(aspect)
            w.key("mode"); w.string(f.mode.rawValue)
            w.key("referenceFrame"); w.string(engine.mission.referenceFrame.rawValue)
            if let pose = f.pose, let radius = f.radius {
                let distance = CameraFraming.missionDistance(radius: radius, aspect: aspect)
                w.key("target"); w.numbers(pose.target.array)
                w.key("distance"); w.number(distance)
                w.key("azimuthRad"); w.number(pose.azimuthRad)
                w.key("elevationRad"); w.number(pose.elevationRad)
                w.key("fieldOfViewDeg"); w.number(pose.fieldOfViewDeg)
                w.key("radius"); w.number(radius)
                w.key("localCenter"); w.numbers((f.localCenter ?? .zero).array)
                w.key("followLerp"); w.number(MissionFraming.followLerp)
            } else {
                w.key("target"); w.null()
                w.key("distance"); w.null()
                w.key("azimuthRad"); w.null()
                w.key("elevationRad"); w.null()
                w.key("fieldOfViewDeg"); w.number(ViewCamera.defaultFieldOfViewDeg)
                w.key("radius"); w.null()
                w.key("localCenter"); w.null()
                w.key("followLerp"); w.null()
            }
        }
        return HTTPResponse.json(w.bytes).immutable()
    }
}

/// What a `/trajectory` body depends on (mission data is fixed for the process's life).
public struct TrajectoryBodyKey: Hashable, Sendable {
    public init(mission: String, vehicle: String?, count: Int, frame: TrajectoryFrame) {
        self.mission = mission
        self.vehicle = vehicle
        self.count = count
        self.frame = frame
    }

    let mission: String
    let vehicle: String?
    let count: Int
    let frame: TrajectoryFrame
}

/// Trajectory samples as packed doubles for the cache: 7 per sample (t, x, y, z, r, g, b).
enum TrajectoryPacking {
    static let stride = 7

    static func pack(_ samples: [TrajectorySample]) -> [Double] {
        var out: [Double] = []
        out.reserveCapacity(samples.count * stride)
        for s in samples {
            out += [s.timeHours, s.position.x, s.position.y, s.position.z, s.color.r, s.color.g, s.color.b]
        }
        return out
    }

    /// Nil when the payload does not hold `count` samples (a stale or damaged row: recompute).
    static func unpack(_ v: [Double], count: Int) -> [TrajectorySample]? {
        guard v.count == count * stride else { return nil }
        return (0..<count).map { k in
            let i = k * stride
            return TrajectorySample(timeHours: v[i], position: Vector3(v[i + 1], v[i + 2], v[i + 3]), color: RGB(v[i + 4], v[i + 5], v[i + 6]))
        }
    }
}

extension JSONWriter {
    /// A number as text for problem messages (`195.3`, `0`).
    static func plain(_ v: Double) -> String {
        var w = JSONWriter(capacity: 32)
        w.number(v)
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
