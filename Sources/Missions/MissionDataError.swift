/// Why `missions.json` cannot be used: stops start-up. Names the mission (its id, or its position
/// when it has none), the field (a path such as `vehicles[1].waypoints[3].t`) and the problem.
public struct MissionDataError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The mission's id, `#3` when it has no readable id, nil for file-level problems.
    public let mission: String?
    /// Path of the offending field inside the mission (or the file).
    public let field: String
    public let problem: String

    public init(mission: String?, field: String, problem: String) {
        self.mission = mission
        self.field = field
        self.problem = problem
    }

    public var description: String {
        if let mission { return "missions.json, mission \"\(mission)\", field \(field): \(problem)" }
        return "missions.json, \(field): \(problem)"
    }
}

/// Suspicious but usable data, reported at load (and logged by the caller).
public struct MissionWarning: Sendable, Hashable, CustomStringConvertible {
    public let mission: String
    public let field: String
    public let problem: String

    public init(mission: String, field: String, problem: String) {
        self.mission = mission
        self.field = field
        self.problem = problem
    }

    public var description: String { "missions.json, mission \"\(mission)\", field \(field): \(problem)" }
}

/// A bad request against valid mission data (the HTTP layer maps these to 400/404).
public enum MissionQueryError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownMission(id: String, valid: [String])
    case unknownVehicle(mission: String, id: String, valid: [String])
    case sampleCountOutOfRange(count: Int, accepted: ClosedRange<Int>)
    case invalidTime(hours: Double)
    /// The kernels do not place the vehicle then (a gap a loaded kernel left).
    case notCovered(mission: String, vehicle: String, detail: String)

    public var description: String {
        switch self {
        case let .unknownMission(id, valid):
            return "unknown mission \"\(id)\"; valid ids: \(valid.joined(separator: ", "))"
        case let .unknownVehicle(mission, id, valid):
            return "mission \"\(mission)\" has no vehicle \"\(id)\"; valid vehicles: \(valid.joined(separator: ", "))"
        case let .sampleCountOutOfRange(count, accepted):
            return "samples must be \(accepted.lowerBound)...\(accepted.upperBound), got \(count)"
        case let .invalidTime(hours):
            return "mission time must be a finite number of hours, got \(hours)"
        case let .notCovered(mission, vehicle, detail):
            return "mission \"\(mission)\": vehicle \"\(vehicle)\" cannot be placed then: \(detail)"
        }
    }
}
