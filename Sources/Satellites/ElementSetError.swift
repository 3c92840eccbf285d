/// A record that could not be read as an element set, or that SGP4 rejects: where it is and why.
///
/// `line` is the 1-based line of the input where the record starts (a TLE's line 1, or its name
/// line; an OMM XML record's opening tag); OMM JSON records have no line and give `record`, their
/// 1-based position in the array.
public struct ElementSetError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int?
    public var record: Int?
    /// The satellite, when it could be told (`25544`, `ISS (ZARYA)`).
    public var satellite: String?
    public var reason: String

    public init(line: Int? = nil, record: Int? = nil, satellite: String? = nil, reason: String) {
        self.line = line; self.record = record; self.satellite = satellite; self.reason = reason
    }

    public var description: String {
        var parts: [String] = []
        if let line { parts.append("line \(line)") }
        if let record { parts.append("record \(record)") }
        if let satellite { parts.append("satellite \(satellite)") }
        return (parts.isEmpty ? "" : parts.joined(separator: ", ") + ": ") + reason
    }
}
