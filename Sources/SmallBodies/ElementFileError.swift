/// A record of an element file that was not used, or a whole file that cannot be: where and why.
/// `line` is the 1-based line of a one-line format; SBDB JSON answers give `record`, their
/// 1-based position in the array.
public struct ElementFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int?
    public var record: Int?
    /// The body, when it could be told (`00001`, `99942`, `C/1995 O1`).
    public var body: String?
    public var reason: String

    public init(line: Int? = nil, record: Int? = nil, body: String? = nil, reason: String) {
        self.line = line
        self.record = record
        self.body = body
        self.reason = reason
    }

    public var description: String {
        var parts: [String] = []
        if let line { parts.append("line \(line)") }
        if let record { parts.append("record \(record)") }
        if let body { parts.append("body \(body)") }
        return (parts.isEmpty ? "" : parts.joined(separator: ", ") + ": ") + reason
    }
}

/// The element formats, told apart by their content.
public enum ElementFormat: String, Sendable, Hashable {
    /// JPL's Small-Body Database API answer (`sbdb.api?sstr=…&full-prec=1`), one object or an array.
    case sbdbJSON = "sbdb-json"
    /// The MPC's `MPCORB.DAT` one-line asteroid format.
    case mpcorb
    /// The MPC's one-line comet format (`CometEls.txt`).
    case mpcComets = "mpc-comets"
}
