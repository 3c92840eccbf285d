/// The decoded query of a request: ordered (name, value) pairs, plus accessors that throw a 400
/// `ProblemDetails` naming the parameter and what is accepted.
///
/// ```swift
/// let samples = try request.query.int("samples", in: 16...4096, default: 256)
/// let frame = try request.query.oneOf("frame", ["ecliptic-j2000", "equatorial-j2000"], default: "ecliptic-j2000")
/// ```
public struct QueryParameters: Sendable, Sequence {
    public typealias Pair = (name: String, value: String)
    public let pairs: [Pair]

    public init() { pairs = [] }
    public init(_ pairs: [Pair]) { self.pairs = pairs }

    public func makeIterator() -> IndexingIterator<[Pair]> { pairs.makeIterator() }
    public var isEmpty: Bool { pairs.isEmpty }
    public var count: Int { pairs.count }
    public var names: [String] { pairs.map(\.name) }

    /// Every value given for `name`.
    public func values(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }

    /// The first value of `name`, without validation.
    public subscript(name: String) -> String? { pairs.first { $0.name == name }?.value }

    public func contains(_ name: String) -> Bool { pairs.contains { $0.name == name } }

    /// The value of `name`, nil when absent; throws when it is repeated.
    public func string(_ name: String) throws(ProblemDetails) -> String? {
        var found: String?
        for p in pairs where p.name == name {
            if found != nil { throw ProblemDetails.repeatedParameter(name) }
            found = p.value
        }
        return found
    }

    public func string(_ name: String, default value: String) throws(ProblemDetails) -> String {
        try string(name) ?? value
    }

    /// The value of `name`; throws a 400 when absent or repeated.
    public func require(_ name: String, accepted: String? = nil) throws(ProblemDetails) -> String {
        guard let v = try string(name) else { throw ProblemDetails.missingParameter(name, accepted: accepted) }
        return v
    }

    /// An integer, optionally within `range`; nil when absent.
    public func int(_ name: String, in range: ClosedRange<Int>? = nil) throws(ProblemDetails) -> Int? {
        guard let raw = try string(name) else { return nil }
        let accepted = range.map { "an integer from \($0.lowerBound) to \($0.upperBound)" } ?? "an integer"
        guard let v = DecimalNumber.int(raw) else { throw ProblemDetails.invalidParameter(name, value: raw, accepted: accepted, reason: "not an integer") }
        if let range, !range.contains(v) { throw ProblemDetails.invalidParameter(name, value: raw, accepted: accepted, reason: "out of range") }
        return v
    }

    public func int(_ name: String, in range: ClosedRange<Int>? = nil, default value: Int) throws(ProblemDetails) -> Int {
        try int(name, in: range) ?? value
    }

    /// A finite number, optionally within `range`; nil when absent.
    public func double(_ name: String, in range: ClosedRange<Double>? = nil) throws(ProblemDetails) -> Double? {
        guard let raw = try string(name) else { return nil }
        let accepted = range.map { "a number from \(format($0.lowerBound)) to \(format($0.upperBound))" } ?? "a finite number"
        guard let v = DecimalNumber.double(raw) else { throw ProblemDetails.invalidParameter(name, value: raw, accepted: accepted, reason: "not a finite decimal number") }
        if let range, !range.contains(v) { throw ProblemDetails.invalidParameter(name, value: raw, accepted: accepted, reason: "out of range") }
        return v
    }

    public func double(_ name: String, in range: ClosedRange<Double>? = nil, default value: Double) throws(ProblemDetails) -> Double {
        try double(name, in: range) ?? value
    }

    /// `true`/`false`/`1`/`0`/`yes`/`no`; nil when absent.
    public func bool(_ name: String) throws(ProblemDetails) -> Bool? {
        guard let raw = try string(name) else { return nil }
        switch asciiLowercased(raw) {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw ProblemDetails.invalidParameter(name, value: raw, accepted: "true or false")
        }
    }

    public func bool(_ name: String, default value: Bool) throws(ProblemDetails) -> Bool {
        try bool(name) ?? value
    }

    /// A comma-separated list (`bodies=earth,moon`), items trimmed; nil when absent. Empty items
    /// are rejected; `maxCount` bounds the list.
    public func list(_ name: String, maxCount: Int? = nil) throws(ProblemDetails) -> [String]? {
        guard let raw = try string(name) else { return nil }
        let items = raw.split(separator: ",", omittingEmptySubsequences: false).map { String(trimOWS($0)) }
        if items.contains(where: \.isEmpty) {
            throw ProblemDetails.invalidParameter(name, value: raw, accepted: "a comma-separated list of non-empty items", reason: "empty item")
        }
        if let maxCount, items.count > maxCount {
            throw ProblemDetails.invalidParameter(name, value: raw, accepted: "at most \(maxCount) comma-separated items", reason: "too many items")
        }
        return items
    }

    /// One of `allowed` (exact match); nil when absent.
    public func oneOf(_ name: String, _ allowed: [String]) throws(ProblemDetails) -> String? {
        guard let raw = try string(name) else { return nil }
        guard allowed.contains(raw) else {
            throw ProblemDetails.invalidParameter(name, value: raw, accepted: allowed.joined(separator: ", "))
                .with("accepted", .array(allowed.map { .string($0) }))
        }
        return raw
    }

    public func oneOf(_ name: String, _ allowed: [String], default value: String) throws(ProblemDetails) -> String {
        try oneOf(name, allowed) ?? value
    }

    /// One case of a string-backed enum; nil when absent.
    public func oneOf<T: CaseIterable & RawRepresentable>(_ name: String, as type: T.Type) throws(ProblemDetails) -> T? where T.RawValue == String {
        guard let raw = try string(name) else { return nil }
        if let value = T(rawValue: raw) { return value }
        // Only a refusal lists the cases (building the list on every request cost more than the lookup).
        _ = try oneOf(name, T.allCases.map(\.rawValue))
        return nil
    }

    public func oneOf<T: CaseIterable & RawRepresentable>(_ name: String, default value: T) throws(ProblemDetails) -> T where T.RawValue == String {
        try oneOf(name, as: T.self) ?? value
    }

    /// Throws a 400 naming the first parameter not in `known` (for endpoints that reject typos).
    public func rejectUnknown(_ known: Set<String>) throws(ProblemDetails) {
        if let bad = pairs.first(where: { !known.contains($0.name) }) {
            throw ProblemDetails(
                status: .badRequest, title: "Unknown query parameter",
                detail: "parameter '\(bad.name)' is not known here; accepted parameters: \(known.sorted().joined(separator: ", "))",
                extensions: [("parameter", .string(bad.name)), ("accepted", .array(known.sorted().map { .string($0) }))]
            )
        }
    }

    private func format(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : "\(d)"
    }
}

extension QueryParameters {
    /// An `application/x-www-form-urlencoded` body (a POSTed HTML form), decoded as a query is:
    /// `+` is a space, malformed encoding a 400 naming the parameter.
    public init(formURLEncoded body: [UInt8]) throws(HTTPParseError) {
        self = try RequestTarget.decodeQuery(body[...])
    }
}
