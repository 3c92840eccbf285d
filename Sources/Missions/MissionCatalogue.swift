#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Ephemeris

/// Every mission of `missions.json`, decoded and validated. Built from bytes handed in by the
/// caller; nothing here opens files.
///
/// ```swift
/// let missions = try MissionCatalogue(json: bytes)   // throws MissionDataError
/// for w in missions.warnings { logger.warning("\(w)") }
/// missions["apollo11"]?.replayEndHours                // 195.3
/// ```
public struct MissionCatalogue: Sendable {
    /// In file order.
    public let missions: [Mission]
    /// Suspicious but usable data (e.g. an event after `durationHours`).
    public let warnings: [MissionWarning]

    public subscript(_ id: String) -> Mission? { missions.first { $0.id == id } }

    /// The mission ids in file order, for "valid ids" messages.
    public var ids: [String] { missions.map(\.id) }

    /// The longest replay span (Voyager 2's, 105,000 h): the range mission times `t` are read in
    /// for every mission, past a shorter mission's end (when no vehicle flies any more) included.
    public var missionHoursRange: ClosedRange<Double> { 0...(missions.map(\.replayEndHours).max() ?? 0) }

    /// The mission or ``MissionQueryError/unknownMission(id:valid:)``.
    public func mission(_ id: String) throws(MissionQueryError) -> Mission {
        guard let m = self[id] else { throw .unknownMission(id: id, valid: ids) }
        return m
    }

    public init(missions: [Mission], warnings: [MissionWarning] = []) {
        self.missions = missions
        self.warnings = warnings
    }

    /// Decodes and validates `missions.json` (a JSON array of missions).
    public init(json: [UInt8]) throws(MissionDataError) {
        let data = Data(json)
        let dtos: [MissionDTO]
        do {
            dtos = try JSONDecoder().decode([MissionDTO].self, from: data)
        } catch let error as DecodingError {
            let ids = (try? JSONDecoder().decode([MissionIDProbe].self, from: data))?.map(\.id)
            throw Self.describe(error, ids: ids)
        } catch {
            throw MissionDataError(mission: nil, field: "(file)", problem: "\(error)")
        }
        var missions: [Mission] = []
        var warnings: [MissionWarning] = []
        var seen = Set<String>()
        for (i, dto) in dtos.enumerated() {
            let label = dto.id.isEmpty ? "#\(i)" : dto.id
            guard !dto.id.isEmpty else { throw MissionDataError(mission: label, field: "id", problem: "must not be empty") }
            guard seen.insert(dto.id).inserted else {
                throw MissionDataError(mission: label, field: "id", problem: "listed twice")
            }
            let (mission, w) = try MissionValidator.mission(dto)
            missions.append(mission)
            warnings += w
        }
        guard !missions.isEmpty else { throw MissionDataError(mission: nil, field: "(file)", problem: "holds no missions") }
        self.missions = missions
        self.warnings = warnings
    }

    /// Turns a `DecodingError` into mission + field + problem.
    static func describe(_ error: DecodingError, ids: [String?]?) -> MissionDataError {
        let path: [any CodingKey]
        let problem: String
        switch error {
        case let .keyNotFound(key, context):
            path = context.codingPath + [key]
            problem = "missing (required)"
        case let .typeMismatch(type, context):
            path = context.codingPath
            problem = "wrong type: expected \(expectedName(type))"
        case let .valueNotFound(type, context):
            path = context.codingPath
            problem = "is null: expected \(expectedName(type))"
        case let .dataCorrupted(context):
            path = context.codingPath
            problem = path.isEmpty ? "not valid JSON (\(context.debugDescription))" : context.debugDescription
        @unknown default:
            return MissionDataError(mission: nil, field: "(file)", problem: "\(error)")
        }
        guard let first = path.first, let index = first.intValue else {
            return MissionDataError(mission: nil, field: path.isEmpty ? "(file)" : fieldPath(path), problem: path.isEmpty && problem.hasPrefix("wrong type") ? "must be a JSON array of missions" : problem)
        }
        let mission: String
        if let ids, index < ids.count, let id = ids[index], !id.isEmpty { mission = id } else { mission = "#\(index)" }
        let rest = Array(path.dropFirst())
        return MissionDataError(mission: mission, field: rest.isEmpty ? "(mission)" : fieldPath(rest), problem: problem)
    }

    /// `vehicles[1].waypoints[3].t`.
    static func fieldPath(_ path: [any CodingKey]) -> String {
        var out = ""
        for key in path {
            if let i = key.intValue {
                out += "[\(i)]"
            } else {
                out += out.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return out
    }

    static func expectedName(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Float.Type, is Int.Type: return "a number"
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        default:
            let name = "\(type)"
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") || name.hasSuffix("DTO") { return "an object" }
            return name
        }
    }
}

/// DTO → domain, with the semantic checks JSON typing cannot express.
enum MissionValidator {
    static func mission(_ d: MissionDTO) throws(MissionDataError) -> (Mission, [MissionWarning]) {
        let mid = d.id
        func fail(_ field: String, _ problem: String) -> MissionDataError { MissionDataError(mission: mid, field: field, problem: problem) }
        var warnings: [MissionWarning] = []
        func warn(_ field: String, _ problem: String) { warnings.append(MissionWarning(mission: mid, field: field, problem: problem)) }

        guard let frame = ReferenceFrame(rawValue: d.referenceFrame) else {
            throw fail("referenceFrame", "unknown frame \"\(d.referenceFrame)\"; expected geocentric or heliocentric")
        }
        let launch: Instant
        do { launch = try TimeScale.parse(d.launchDate) } catch {
            throw fail("launchDate", "\"\(d.launchDate)\" is not a date: \(error)")
        }
        guard d.durationHours.isFinite, d.durationHours > 0 else { throw fail("durationHours", "must be a positive number of hours") }
        if let f = d.flybyTimeHours, !f.isFinite { throw fail("flybyTimeHours", "must be a finite number of hours") }
        if frame == .geocentric, d.flybyTimeHours == nil {
            throw fail("flybyTimeHours", "required for a geocentric mission (its waypoints are written in the Moon-aligned frame of that hour)")
        }
        let missionAuto = try autoTrajectory(d.autoTrajectory, field: "autoTrajectory", fail: fail)

        var events: [MissionEvent] = []
        for (i, e) in d.events.enumerated() {
            guard e.t.isFinite else { throw fail("events[\(i)].t", "must be a finite number of hours") }
            guard !e.name.isEmpty else { throw fail("events[\(i)].name", "must not be empty") }
            if e.t < 0 { warn("events[\(i)].t", "event \"\(e.name)\" at \(e.t) h is before launch") }
            if e.t > d.durationHours {
                warn("events[\(i)].t", "event \"\(e.name)\" at \(e.t) h lies after durationHours \(d.durationHours); the replay runs to \(e.t) h so it is not skipped")
            }
            events.append(MissionEvent(index: i, timeHours: e.t, name: e.name, detail: e.detail ?? "", showLabel: e.showLabel ?? false))
        }
        if !zip(events, events.dropFirst()).allSatisfy({ $0.timeHours <= $1.timeHours }) {
            warn("events", "not in time order; sorted")
        }
        events = events.enumerated().sorted { ($0.element.timeHours, $0.offset) < ($1.element.timeHours, $1.offset) }
            .enumerated().map { MissionEvent(index: $0.offset, timeHours: $0.element.element.timeHours, name: $0.element.element.name, detail: $0.element.element.detail, showLabel: $0.element.element.showLabel) }

        guard !d.vehicles.isEmpty else { throw fail("vehicles", "must list at least one vehicle") }
        var vehicles: [Vehicle] = []
        var vehicleIDs = Set<String>()
        for (vi, v) in d.vehicles.enumerated() {
            let vf = "vehicles[\(vi)]"
            guard !v.id.isEmpty else { throw fail("\(vf).id", "must not be empty") }
            guard vehicleIDs.insert(v.id).inserted else { throw fail("\(vf).id", "vehicle \"\(v.id)\" listed twice") }
            guard v.color.count == 3, v.color.allSatisfy({ $0.isFinite && (0...1).contains($0) }) else {
                throw fail("\(vf).color", "must be three numbers in 0...1")
            }
            let auto = try autoTrajectory(v.autoTrajectory, field: "\(vf).autoTrajectory", fail: fail) ?? missionAuto
            guard v.waypoints.count >= 2 else { throw fail("\(vf).waypoints", "vehicle \"\(v.id)\" needs at least two waypoints, has \(v.waypoints.count)") }
            var waypoints: [Waypoint] = []
            for (wi, w) in v.waypoints.enumerated() {
                let wf = "\(vf).waypoints[\(wi)]"
                for (name, value) in [("t", w.t), ("x", w.x), ("y", w.y), ("z", w.z)] where !value.isFinite {
                    throw fail("\(wf).\(name)", "must be a finite number")
                }
                if let previous = waypoints.last, w.t <= previous.timeHours {
                    throw fail("\(wf).t", "waypoint times must increase strictly (\(w.t) h follows \(previous.timeHours) h)")
                }
                var body: BodyID?
                if let name = w.anchorBody {
                    guard let id = BodyID(rawValue: name) else {
                        throw fail("\(wf).anchorBody", "unknown body \"\(name)\"; valid: \(BodyID.validList)")
                    }
                    guard frame == .heliocentric else { throw fail("\(wf).anchorBody", "anchorBody is for heliocentric missions") }
                    body = id
                }
                let moon = w.anchorMoon ?? false
                if moon, frame != .geocentric { throw fail("\(wf).anchorMoon", "anchorMoon is for geocentric missions") }
                if moon, body != nil { throw fail("\(wf).anchorBody", "a waypoint anchors to the Moon or to a body, not both") }
                waypoints.append(Waypoint(timeHours: w.t, position: Vector3(w.x, w.y, w.z), anchorMoon: moon, anchorBody: body))
            }
            if let last = waypoints.last, last.timeHours > d.durationHours {
                warn("\(vf).waypoints[\(waypoints.count - 1)].t", "vehicle \"\(v.id)\" flies to \(last.timeHours) h, after durationHours \(d.durationHours)")
            }
            let orbit = try moonOrbit(v.moonOrbit, field: "\(vf).moonOrbit", frame: frame, fail: fail)
            let orbitReturn = try moonOrbit(v.moonOrbitReturn, field: "\(vf).moonOrbitReturn", frame: frame, fail: fail)
            var landing: MoonLandingPhase?
            if let l = v.moonLanding {
                guard frame == .geocentric else { throw fail("\(vf).moonLanding", "moon phases are for geocentric missions") }
                guard l.startTime.isFinite, l.endTime.isFinite, l.startTime < l.endTime else {
                    throw fail("\(vf).moonLanding", "startTime must be before endTime")
                }
                landing = MoonLandingPhase(startHours: l.startTime, endHours: l.endTime)
            }
            let span = waypoints[0].timeHours...waypoints[waypoints.count - 1].timeHours
            for (name, window) in [("moonOrbit", orbit.map { $0.startHours...$0.endHours }), ("moonLanding", landing.map { $0.startHours...$0.endHours }), ("moonOrbitReturn", orbitReturn.map { $0.startHours...$0.endHours })] {
                guard let window else { continue }
                if !(span.contains(window.lowerBound) && span.contains(window.upperBound)) {
                    warn("\(vf).\(name)", "window \(window.lowerBound)...\(window.upperBound) h reaches outside the vehicle's waypoints \(span.lowerBound)...\(span.upperBound) h; it applies only inside them")
                }
            }
            vehicles.append(Vehicle(
                id: v.id, name: v.name, color: RGB(v.color[0], v.color[1], v.color[2]), primary: v.primary ?? false,
                autoTrajectory: auto, moonOrbit: orbit, moonLanding: landing, moonOrbitReturn: orbitReturn, waypoints: waypoints
            ))
        }
        if !vehicles.contains(where: \.primary) { warn("vehicles", "no vehicle is primary; \"\(vehicles[0].id)\" is used") }
        if let f = d.flybyTimeHours, frame == .geocentric, !(0...max(d.durationHours, events.last?.timeHours ?? 0)).contains(f) {
            warn("flybyTimeHours", "\(f) h lies outside the mission")
        }
        let physics = try lunarPhysics(d.physics, frame: frame, vehicles: vehicles, fail: fail)
        if physics == nil, frame == .geocentric, vehicles.contains(where: { $0.moonOrbit != nil || $0.moonLanding != nil }) {
            warn("physics", "moon phases without physics: telemetry near the Moon follows the decorative marker")
        }
        let mission = Mission(
            id: mid, name: d.name, subtitle: d.subtitle ?? "", launchDate: d.launchDate, launch: launch,
            durationHours: d.durationHours, flybyTimeHours: d.flybyTimeHours, referenceFrame: frame,
            autoTrajectory: missionAuto, events: events, vehicles: vehicles, physics: physics
        )
        return (mission, warnings)
    }

    static func lunarPhysics(_ p: PhysicsDTO?, frame: ReferenceFrame, vehicles: [Vehicle], fail: (String, String) -> MissionDataError) throws(MissionDataError) -> LunarPhysics? {
        guard let p else { return nil }
        guard frame == .geocentric else { throw fail("physics", "lunar physics is for geocentric missions") }
        guard !p.source.isEmpty else { throw fail("physics.source", "must say where the figures come from") }
        func altitude(_ km: Double, _ field: String) throws(MissionDataError) {
            guard km.isFinite, km > 0 else { throw fail(field, "must be a positive number of km") }
        }
        func window(_ a: Double, _ b: Double, _ field: String) throws(MissionDataError) {
            guard a.isFinite, b.isFinite, a < b else { throw fail(field, "startTime must be before endTime") }
        }
        var orbit: LunarPhysics.Orbit?
        if let o = p.lunarOrbit {
            try window(o.startTime, o.endTime, "physics.lunarOrbit")
            try altitude(o.altitudeKm, "physics.lunarOrbit.altitudeKm")
            orbit = LunarPhysics.Orbit(startHours: o.startTime, endHours: o.endTime, altitudeKm: o.altitudeKm)
        }
        var flyby: LunarPhysics.Flyby?
        if let f = p.lunarFlyby {
            guard f.time.isFinite else { throw fail("physics.lunarFlyby.time", "must be a finite number of hours") }
            try altitude(f.altitudeKm, "physics.lunarFlyby.altitudeKm")
            guard orbit == nil else { throw fail("physics.lunarFlyby", "a mission either orbits the Moon or flies by it, not both") }
            flyby = LunarPhysics.Flyby(timeHours: f.time, altitudeKm: f.altitudeKm)
        }
        guard orbit != nil || flyby != nil else { throw fail("physics", "needs a lunarOrbit or a lunarFlyby") }
        var landing: LunarPhysics.Landing?
        if let l = p.lunarLanding {
            let field = "physics.lunarLanding"
            guard let orbit else { throw fail(field, "a landing needs the lunarOrbit it descends from") }
            guard let v = vehicles.first(where: { $0.id == l.vehicle }) else {
                throw fail("\(field).vehicle", "unknown vehicle \"\(l.vehicle)\"; valid: \(vehicles.map(\.id).joined(separator: ", "))")
            }
            try window(l.startTime, l.endTime, field)
            guard (-90...90).contains(l.latitudeDeg), l.longitudeDeg.isFinite else {
                throw fail(field, "latitudeDeg must be in -90...90 and longitudeDeg finite")
            }
            guard l.descentMinutes.isFinite, l.descentMinutes > 0, l.ascentMinutes.isFinite, l.ascentMinutes > 0 else {
                throw fail(field, "descentMinutes and ascentMinutes must be positive")
            }
            let descent = l.descentMinutes / 60, ascent = l.ascentMinutes / 60
            guard orbit.startHours <= l.startTime - descent, l.endTime + ascent <= orbit.endHours else {
                throw fail(field, "the descent, stay and ascent must lie inside the lunarOrbit window")
            }
            guard v.spanHours.lowerBound <= l.startTime - descent, l.endTime + ascent <= v.spanHours.upperBound else {
                throw fail(field, "vehicle \"\(v.id)\" must exist from the descent to the end of the ascent")
            }
            landing = LunarPhysics.Landing(vehicleID: l.vehicle, startHours: l.startTime, endHours: l.endTime, latitudeDeg: l.latitudeDeg,
                                           longitudeDeg: l.longitudeDeg, descentHours: descent, ascentHours: ascent)
        }
        return LunarPhysics(source: p.source, orbit: orbit, flyby: flyby, landing: landing)
    }

    static func autoTrajectory(_ s: String?, field: String, fail: (String, String) -> MissionDataError) throws(MissionDataError) -> AutoTrajectory? {
        guard let s else { return nil }
        guard let a = AutoTrajectory(rawValue: s) else {
            throw fail(field, "unknown autoTrajectory \"\(s)\"; expected transfer or null")
        }
        return a
    }

    static func moonOrbit(_ o: MoonOrbitDTO?, field: String, frame: ReferenceFrame, fail: (String, String) -> MissionDataError) throws(MissionDataError) -> MoonOrbitPhase? {
        guard let o else { return nil }
        guard frame == .geocentric else { throw fail(field, "moon phases are for geocentric missions") }
        guard o.startTime.isFinite, o.endTime.isFinite, o.startTime < o.endTime else { throw fail(field, "startTime must be before endTime") }
        guard o.periodHours.isFinite, o.periodHours > 0 else { throw fail("\(field).periodHours", "must be a positive number of hours") }
        guard o.radiusKm.isFinite, o.radiusKm > 0 else { throw fail("\(field).radiusKm", "must be a positive number of km") }
        return MoonOrbitPhase(startHours: o.startTime, endHours: o.endTime, periodHours: o.periodHours, radiusKm: o.radiusKm)
    }
}
