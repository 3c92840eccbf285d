/// The parameters of one Horizons API request as sent (query or form fields), before they mean
/// anything: keyword → value with Horizons' quoting undone. Keywords are matched without regard
/// to case (`format` is the API's own, lower case by the documentation); a value may be wrapped
/// in single or double quotes (`COMMAND='499'`, `CSV_FORMAT="YES"`), which the API needs for a
/// value with spaces in it (`STEP_SIZE='1 d'`): unquoted, such a value is Horizons' "Too many
/// constants" input error.
///
/// What is not a Horizons request at all — no COMMAND, a keyword Horizons does not have, one
/// given twice, `format` other than json or text — is a ``HorizonsRequestError`` (the API
/// answers it with a 400 problem); what Horizons itself would refuse is decided later and
/// answered in Horizons' own words (``HorizonsFailure``).
public struct HorizonsParameters: Sendable {
    public struct Value: Sendable, Hashable {
        /// The value with one pair of enclosing quotes removed.
        public let text: String
        /// The value as sent.
        public let raw: String
        public let quoted: Bool
    }

    /// Keyword (upper case) → value.
    public let values: [String: Value]
    /// The keywords in the order given (upper case).
    public let order: [String]

    /// Every keyword of the Horizons API (the documentation's common, ephemeris-specific, SPK and
    /// close-approach tables) and the batch keywords the API passes on (`TABLE_TYPE`, an older
    /// name of `EPHEM_TYPE`; `ELM_LABELS`).
    public static let keywords: Set<String> = [
        "FORMAT", "COMMAND", "OBJ_DATA", "MAKE_EPHEM", "EPHEM_TYPE", "TABLE_TYPE", "EMAIL_ADDR",
        "CENTER", "REF_PLANE", "COORD_TYPE", "SITE_COORD", "START_TIME", "STOP_TIME", "STEP_SIZE", "TLIST", "TLIST_TYPE",
        "QUANTITIES", "REF_SYSTEM", "OUT_UNITS", "VEC_TABLE", "VEC_CORR", "CAL_FORMAT", "CAL_TYPE", "ANG_FORMAT", "APPARENT",
        "TIME_DIGITS", "TIME_ZONE", "RANGE_UNITS", "SUPPRESS_RANGE_RATE", "ELEV_CUT", "SKIP_DAYLT", "SOLAR_ELONG", "AIRMASS",
        "LHA_CUTOFF", "ANG_RATE_CUTOFF", "EXTRA_PREC", "CSV_FORMAT", "VEC_LABELS", "VEC_DELTA_T", "ELEM_LABELS", "ELM_LABELS",
        "TP_TYPE", "R_T_S_ONLY", "TIME_TYPE", "CA_TABLE_TYPE", "TCA3SG_LIMIT", "CALIM_SB", "CALIM_PL",
    ]

    /// The most characters any one value may have (a TLIST of 10,000 Julian dates fits).
    public static let maxValueLength = 300_000

    public init(_ pairs: [(name: String, value: String)]) throws(HorizonsRequestError) {
        var values: [String: Value] = [:]
        var order: [String] = []
        for (name, raw) in pairs {
            let key = name.uppercased()
            guard Self.keywords.contains(key) else { throw .unknownKeyword(name) }
            guard values[key] == nil else { throw .repeated(name) }
            guard raw.utf8.count <= Self.maxValueLength else { throw .tooLong(name) }
            values[key] = Self.unquote(raw)
            order.append(key)
        }
        guard values["COMMAND"] != nil else { throw .missingCommand }
        if let f = values["FORMAT"], f.text != "json", f.text != "text" { throw .format(f.raw) }
        self.values = values
        self.order = order
    }

    /// One pair of matching quotes around the whole value, removed (surrounding blanks first).
    static func unquote(_ raw: String) -> Value {
        let trimmed = raw.trimmingBlanks()
        if trimmed.count >= 2, let f = trimmed.first, let l = trimmed.last, f == l, f == "'" || f == "\"" {
            return Value(text: String(trimmed.dropFirst().dropLast()), raw: raw, quoted: true)
        }
        return Value(text: trimmed, raw: raw, quoted: false)
    }

    public subscript(_ key: String) -> Value? { values[key] }

    /// `json` (the API's default) or `text`.
    public var wantsText: Bool { values["FORMAT"]?.text == "text" }
}

/// Why a request is not a Horizons request: answered with a 400 problem, not in Horizons' words.
public enum HorizonsRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownKeyword(String)
    case repeated(String)
    case tooLong(String)
    case missingCommand
    case format(String)
    case body(String)

    public var parameter: String? {
        switch self {
        case let .unknownKeyword(n), let .repeated(n), let .tooLong(n): return n
        case .missingCommand: return "COMMAND"
        case .format: return "format"
        case .body: return nil
        }
    }

    public var description: String {
        switch self {
        case let .unknownKeyword(n): return "\(n) is not a Horizons API parameter"
        case let .repeated(n): return "\(n) is given more than once"
        case let .tooLong(n): return "\(n) is longer than \(HorizonsParameters.maxValueLength) characters"
        case .missingCommand: return "a Horizons request names its target in COMMAND"
        case let .format(v): return "format \(v) is neither json nor text"
        case let .body(why): return why
        }
    }

    /// What the problem lists as accepted.
    public var accepted: String {
        switch self {
        case .unknownKeyword: return "the Horizons API's parameters: format, " + HorizonsParameters.keywords.filter { $0 != "FORMAT" }.sorted().joined(separator: ", ")
        case .repeated: return "each parameter once"
        case .tooLong: return "values of at most \(HorizonsParameters.maxValueLength) characters"
        case .missingCommand: return "COMMAND='499' (a NAIF id), 'Mars', 'DES=99942;', 'Ceres;' …"
        case .format: return "json, text"
        case .body: return "a POST body of application/x-www-form-urlencoded (or multipart/form-data) Horizons parameters"
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and line ends.
    func trimmingBlanks() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\n" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\n" || l == "\r" { s = s.dropLast() }
        return String(s)
    }
}
