import HTTPCore

extension ProblemDetails {
    /// An id that names nothing (404), listing the valid ones.
    ///
    /// ```swift
    /// throw ProblemDetails.unknownId("body", id: "vulcan", parameter: "bodies", valid: BodyID.allCases.map(\.rawValue))
    /// ```
    public static func unknownId(_ what: String, id: String, parameter: String?, valid: [String]) -> ProblemDetails {
        let shown = id.count > 100 ? String(id.prefix(100)) + "…" : id
        var p = ProblemDetails(
            status: .notFound, title: "Unknown \(what)",
            detail: "no \(what) \"\(shown)\"\(parameter.map { " (parameter '\($0)')" } ?? ""); valid ids: \(valid.joined(separator: ", "))"
        )
        if let parameter { p.extensions.append(("parameter", .string(parameter))) }
        p.extensions.append(("value", .string(shown)))
        p.extensions.append(("validIds", .array(valid.map { .string($0) })))
        return p
    }
}
