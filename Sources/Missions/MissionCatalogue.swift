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
/// missions["apollo11"]?.endHours                      // 195.31 (splashdown)
/// ```
public struct MissionCatalogue: Sendable {
    /// In file order.
    public let missions: [Mission]
    /// Suspicious but usable data (e.g. an event after `durationHours`).
    public let warnings: [MissionWarning]

    public subscript(_ id: String) -> Mission? { missions.first { $0.id == id } }

    /// The mission ids in file order, for "valid ids" messages.
    public var ids: [String] { missions.map(\.id) }

    /// The range mission times `t` are read in for every mission: from launch to a century
    /// after the earliest launch (past a mission's end no vehicle flies; a mission that flies
    /// on is carried that far).
    public var missionHoursRange: ClosedRange<Double> {
        let earliest = missions.map(\.launch).min() ?? TimeScale.instant(tdbSecondsPastJ2000: 0)
        let latest = missions.map(\.launch).max() ?? earliest
        return 0...(100 * 365.25 * 24 + latest.seconds(since: earliest) / 3600).rounded(.up)
    }

    /// The range every mission time is read in, whether given as hours (`t`, `at`) or as an
    /// instant (`date`): ``missionHoursRange`` mirrored before launch, so `t` and `date` share
    /// their limits (a date before launch is a negative `t`; neither reaches the year 2999).
    public var missionTimeRange: ClosedRange<Double> {
        let limit = missionHoursRange.upperBound
        return -limit...limit
    }

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
        func date(_ text: String, _ field: String) throws(MissionDataError) -> Instant {
            do { return try TimeScale.parse(text) } catch { throw fail(field, "\"\(text)\" is not a date: \(error)") }
        }

        guard let frame = ReferenceFrame(rawValue: d.referenceFrame) else {
            throw fail("referenceFrame", "unknown frame \"\(d.referenceFrame)\"; expected geocentric or heliocentric")
        }
        let launch = try date(d.launchDate, "launchDate")
        func hours(_ t: Instant) -> Double { t.seconds(since: launch) / 3600 }
        let end: Instant? = d.end == "ongoing" ? nil : try date(d.end, "end")
        if let end { guard hours(end) > 0 else { throw fail("end", "must be after launchDate (or \"ongoing\")") } }
        guard !d.kernels.isEmpty else { throw fail("kernels", "must list the SPK files the vehicles come from") }
        for (i, k) in d.kernels.enumerated() {
            guard !k.isEmpty, !k.hasPrefix("/"), !k.split(separator: "/").contains(".."), k.hasSuffix(".bsp") else {
                throw fail("kernels[\(i)]", "\"\(k)\" must be a .bsp file inside the missions' kernel directory")
            }
        }

        var events: [MissionEvent] = []
        var keys = Set<String>()
        for (i, e) in d.events.enumerated() {
            let field = "events[\(i)]"
            guard !e.name.isEmpty else { throw fail("\(field).name", "must not be empty") }
            let at = try date(e.date, "\(field).date")
            if let key = e.key {
                guard !key.isEmpty, keys.insert(key).inserted else { throw fail("\(field).key", "\"\(key)\" must be non-empty and unique in the mission") }
            }
            var closest = false
            if let from = e.timeFrom {
                guard from == "closest-approach" else { throw fail("\(field).timeFrom", "unknown \"\(from)\"; expected closest-approach") }
                guard e.fact?.body != nil else { throw fail("\(field).timeFrom", "a closest approach needs the fact's body") }
                closest = true
            }
            let t = hours(at)
            if t < 0 { warn("\(field).date", "event \"\(e.name)\" is before launch") }
            if let end, at > end { warn("\(field).date", "event \"\(e.name)\" lies after the mission's end; the replay runs to it so it is not skipped") }
            events.append(MissionEvent(index: i, key: e.key, timeHours: t, date: at, name: e.name, detail: e.detail ?? "", showLabel: e.showLabel ?? false,
                                       fact: try fact(e.fact, field: "\(field).fact", fail: fail), timeFromClosestApproach: closest))
        }
        if !zip(events, events.dropFirst()).allSatisfy({ $0.timeHours <= $1.timeHours }) {
            warn("events", "not in time order; sorted")
        }
        events = events.enumerated().sorted { ($0.element.timeHours, $0.offset) < ($1.element.timeHours, $1.offset) }
            .enumerated().map { n, pair in pair.element.with(index: n, timeHours: pair.element.timeHours, date: pair.element.date) }

        guard !d.vehicles.isEmpty else { throw fail("vehicles", "must list at least one vehicle") }
        var vehicles: [Vehicle] = []
        var vehicleIDs = Set<String>()
        for (vi, v) in d.vehicles.enumerated() {
            let vf = "vehicles[\(vi)]"
            guard !v.id.isEmpty, v.id.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }) else {
                throw fail("\(vf).id", "must be lowercase letters, digits and underscores")
            }
            guard vehicleIDs.insert(v.id).inserted else { throw fail("\(vf).id", "vehicle \"\(v.id)\" listed twice") }
            guard v.color.count == 3, v.color.allSatisfy({ $0.isFinite && (0...1).contains($0) }) else {
                throw fail("\(vf).color", "must be three numbers in 0...1")
            }
            guard NAIFBody.known(v.naifId) == nil, v.naifId != 0 else {
                throw fail("\(vf).naifId", "\(v.naifId) is a body the server places itself; a vehicle needs its own id (NAIF's, or the server's own)")
            }
            let start = try v.from.map { s throws(MissionDataError) in hours(try date(s, "\(vf).from")) } ?? 0
            let stop = try v.to.map { s throws(MissionDataError) in hours(try date(s, "\(vf).to")) } ?? end.map(hours)
            if let stop { guard stop > start else { throw fail("\(vf).to", "must be after the vehicle's start") } }
            if end != nil, stop == nil { throw fail("\(vf).to", "a vehicle of a mission that ends must end") }
            var phases: [VehiclePhase] = []
            for (pi, p) in (v.phases ?? []).enumerated() {
                let pf = "\(vf).phases[\(pi)]"
                guard !p.name.isEmpty else { throw fail("\(pf).name", "must not be empty") }
                guard let kind = VehiclePhase.Kind(rawValue: p.kind) else {
                    throw fail("\(pf).kind", "unknown kind \"\(p.kind)\"; expected \(VehiclePhase.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                let a = hours(try date(p.from, "\(pf).from")), b = hours(try date(p.to, "\(pf).to"))
                guard b > a else { throw fail("\(pf).to", "must be after from") }
                if let last = phases.last, a < last.endHours { throw fail("\(pf).from", "phases must be in time order without overlapping") }
                var body: BodyID?
                if let name = p.body {
                    guard let id = BodyID(rawValue: name) else { throw fail("\(pf).body", "unknown body \"\(name)\"; valid: \(BodyID.validList)") }
                    body = id
                }
                if kind == .landed, body == nil { throw fail("\(pf).body", "a landed phase names the body it rests on") }
                phases.append(VehiclePhase(name: p.name, kind: kind, startHours: a, endHours: b, body: body, source: p.source))
            }
            var extrapolation: ExtrapolationCenter?
            if let about = v.extrapolateAbout {
                if about == "ssb" {
                    extrapolation = .solarSystemBarycenter
                } else if let b = BodyID(rawValue: about) {
                    extrapolation = .body(b)
                } else {
                    throw fail("\(vf).extrapolateAbout", "unknown centre \"\(about)\"; expected ssb or a body id (\(BodyID.validList))")
                }
            }
            let planned = try v.plannedFrom.map { s throws(MissionDataError) in hours(try date(s, "\(vf).plannedFrom")) }
            if let planned, planned < start || stop.map({ planned >= $0 }) ?? false {
                throw fail("\(vf).plannedFrom", "must lie within the vehicle's span")
            }
            if stop == nil, extrapolation == nil {
                throw fail("\(vf).extrapolateAbout", "a vehicle that flies on needs the centre its path is carried about beyond its data (ssb or a body)")
            }
            vehicles.append(Vehicle(id: v.id, name: v.name, naifID: v.naifId, color: RGB(v.color[0], v.color[1], v.color[2]), primary: v.primary ?? false,
                                    startHours: start, endHours: stop, phases: phases, extrapolation: extrapolation, plannedFromHours: planned))
        }
        if Set(vehicles.map(\.naifID)).count != vehicles.count { throw fail("vehicles", "two vehicles share a naifId") }
        if !vehicles.contains(where: \.primary) { warn("vehicles", "no vehicle is primary; \"\(vehicles[0].id)\" is used") }
        let mission = Mission(
            id: mid, name: d.name, subtitle: d.subtitle ?? "", launchDate: d.launchDate, launch: launch, end: end, referenceFrame: frame,
            kernels: d.kernels, trajectorySummary: d.trajectorySummary ?? "", events: events, vehicles: vehicles
        )
        return (mission, warnings)
    }

    static func fact(_ f: FactDTO?, field: String, fail: (String, String) -> MissionDataError) throws(MissionDataError) -> MissionFact? {
        guard let f else { return nil }
        guard !f.source.isEmpty else { throw fail("\(field).source", "must say where the figures come from") }
        var body: BodyID?
        if let name = f.body {
            guard let b = BodyID(rawValue: name) else { throw fail("\(field).body", "unknown body \"\(name)\"; valid: \(BodyID.validList)") }
            body = b
        }
        for (name, v) in [("distanceKm", f.distanceKm), ("altitudeKm", f.altitudeKm), ("speedKmS", f.speedKmS)] {
            if let v, !(v.isFinite && v >= 0) { throw fail("\(field).\(name)", "must be a non-negative number") }
        }
        if (f.distanceKm != nil || f.altitudeKm != nil), body == nil { throw fail("\(field).body", "a distance or altitude needs the body it is measured from") }
        return MissionFact(body: body, distanceKm: f.distanceKm, altitudeKm: f.altitudeKm, speedKmS: f.speedKmS, source: f.source, note: f.note ?? "")
    }
}
