/// An error that knows the HTTP status it should be answered with. The responder answers with
/// its `problem`: by default its status, the standard title and its description as `detail`;
/// an error that knows more (the parameter at fault, the valid ids) builds its own.
public protocol HTTPResponseError: Error {
    var status: HTTPStatus { get }
    /// The problem document to answer with.
    var problem: ProblemDetails { get }
}

extension HTTPResponseError {
    public var problem: ProblemDetails { ProblemDetails(status: status, detail: String(describing: self)) }
}

/// An RFC 9457 problem: `{type, title, status, detail, instance, …extensions}` served as
/// `application/problem+json`.
///
/// ```swift
/// throw ProblemDetails(status: .notFound, detail: "no body \"vulcan\"")
///     .with("validIds", .array(ids.map { .string($0) }))
/// ```
public struct ProblemDetails: HTTPResponseError, Sendable, CustomStringConvertible {
    public var type: String
    public var title: String
    public var status: HTTPStatus
    public var detail: String?
    /// The request path; the responder fills it in when left nil.
    public var instance: String?
    /// Extension members (`parameter`, `value`, `accepted`, `validIds`, …), serialised in order after the standard ones.
    public var extensions: [(String, JSONValue)]
    /// Extra response headers (`Allow`, `Retry-After`, …).
    public var headers: HTTPHeaders

    public init(
        status: HTTPStatus, title: String? = nil, detail: String? = nil, type: String = "about:blank",
        instance: String? = nil, extensions: [(String, JSONValue)] = [], headers: HTTPHeaders = HTTPHeaders()
    ) {
        self.type = type
        self.title = title ?? status.reasonPhrase
        self.status = status
        self.detail = detail
        self.instance = instance
        self.extensions = extensions
        self.headers = headers
    }

    public var description: String { "\(status.code) \(title)" + (detail.map { ": \($0)" } ?? "") }

    public var problem: ProblemDetails { self }

    /// A copy with one more extension member (replacing one of the same name).
    public func with(_ name: String, _ value: JSONValue) -> ProblemDetails {
        var copy = self
        copy.extensions.removeAll { $0.0 == name }
        copy.extensions.append((name, value))
        return copy
    }

    /// A copy with one more response header.
    public func withHeader(_ name: String, _ value: String) -> ProblemDetails {
        var copy = self
        copy.headers.replaceOrAdd(name: name, value: value)
        return copy
    }

    /// The value of an extension member.
    public subscript(extension name: String) -> JSONValue? {
        extensions.first { $0.0 == name }?.1
    }

    public static let contentType = "application/problem+json"

    /// The JSON document.
    public var jsonBytes: [UInt8] {
        var members: [(String, JSONValue)] = [
            ("type", .string(type)), ("title", .string(title)), ("status", .int(status.code)),
        ]
        if let detail { members.append(("detail", .string(detail))) }
        if let instance { members.append(("instance", .string(instance))) }
        let reserved: Set<String> = ["type", "title", "status", "detail", "instance"]
        for e in extensions where !reserved.contains(e.0) { members.append(e) }
        return JSONValue.object(members).jsonBytes
    }

    // MARK: factories used by the query accessors and the server

    /// A query parameter whose value is not accepted (400), naming it and what is accepted.
    public static func invalidParameter(_ name: String, value: String, accepted: String, reason: String? = nil) -> ProblemDetails {
        let shown = value.count > 200 ? String(value.prefix(200)) + "…" : value
        let because = reason.map { " (\($0))" } ?? ""
        return ProblemDetails(
            status: .badRequest, title: "Invalid query parameter",
            detail: "parameter '\(name)': \"\(shown)\" is not accepted\(because); accepted: \(accepted)",
            extensions: [("parameter", .string(name)), ("value", .string(shown)), ("accepted", .string(accepted))]
        )
    }

    /// A required parameter that is absent (400).
    public static func missingParameter(_ name: String, accepted: String?, location: String = "query") -> ProblemDetails {
        var p = ProblemDetails(
            status: .badRequest, title: "Missing \(location) parameter",
            detail: "\(location) parameter '\(name)' is required" + (accepted.map { "; accepted: \($0)" } ?? ""),
            extensions: [("parameter", .string(name))]
        )
        if let accepted { p.extensions.append(("accepted", .string(accepted))) }
        return p
    }

    /// A parameter given more than once (400).
    public static func repeatedParameter(_ name: String) -> ProblemDetails {
        ProblemDetails(
            status: .badRequest, title: "Repeated query parameter",
            detail: "parameter '\(name)' is given more than once (repeated parameter); give it once",
            extensions: [("parameter", .string(name))]
        )
    }
}
