extension HTTPRequest {
    /// The representation to answer with among `offered` (the server's preference first), by the
    /// request's `Accept` fields; a 406 problem naming what is offered when none is acceptable.
    /// The problem itself is still sent as `application/problem+json` (RFC 9457 practice: an
    /// error body is better than none).
    public func negotiate(_ offered: [String]) throws(ProblemDetails) -> String {
        let accept = AcceptHeader(headers.values(for: "accept"))
        if let type = accept.preferred(offered) { return type }
        throw ProblemDetails(
            status: .notAcceptable,
            detail: "none of the representations offered here is acceptable (Accept: \(headers.values(for: "accept").joined(separator: ", "))); offered: \(offered.joined(separator: ", "))",
            extensions: [("offered", .array(offered.map { .string($0) }))]
        )
    }
}
