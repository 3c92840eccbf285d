import HTTPCore
import Missions

/// A bad request against valid mission data is the client's problem: 404 for an id that names
/// nothing (with the valid ids), 400 for a value out of range. Handlers validate first, so
/// these surface only if an engine call meets input the handler let through.
extension MissionQueryError: HTTPResponseError {
    public var status: HTTPStatus { problem.status }

    public var problem: ProblemDetails {
        switch self {
        case let .unknownMission(id, valid):
            return .unknownId("mission", id: id, parameter: nil, valid: valid)
        case let .unknownVehicle(_, id, valid):
            return .unknownId("vehicle", id: id, parameter: "vehicle", valid: valid)
        case let .sampleCountOutOfRange(count, accepted):
            return .invalidParameter("samples", value: String(count), accepted: "an integer in \(accepted.lowerBound)…\(accepted.upperBound)", reason: "out of range")
        case .invalidTime:
            return ProblemDetails(status: .badRequest, title: "Invalid mission time", detail: description)
        case .notCovered:
            return ProblemDetails(status: .unprocessableContent, title: "Outside the loaded kernels", detail: description)
        }
    }
}
