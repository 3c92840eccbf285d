import Ephemeris

/// A Horizons request's settings, read from its parameters with Horizons' defaults (the API
/// documentation's "Default" column): what table, from where, when, in which frame, units and
/// layout. A value Horizons would not take is a ``HorizonsFailure`` in Horizons' words.
public struct HorizonsSettings: Sendable {
    public enum EphemType: String, Sendable { case observer = "OBSERVER", vectors = "VECTORS", elements = "ELEMENTS", spk = "SPK", approach = "APPROACH" }
    public enum RefPlane: String, Sendable { case ecliptic = "ECLIPTIC", frame = "FRAME", bodyEquator = "BODY EQUATOR" }
    /// `REF_SYSTEM`: the ICRF, or the FK4 equator and equinox of B1950.
    public enum RefSystem: String, Sendable { case icrf = "ICRF", b1950 = "B1950" }
    public enum Units: String, Sendable { case kmS = "KM-S", auD = "AU-D", kmD = "KM-D" }
    public enum Correction: String, Sendable { case none = "NONE", lightTime = "LT", lightTimeStellar = "LT+S" }
    public enum CalFormat: String, Sendable { case cal = "CAL", jd = "JD", both = "BOTH" }
    public enum TimeDigits: String, Sendable { case minutes = "MINUTES", seconds = "SECONDS", fractionalSeconds = "FRACSEC" }

    public var textFormat: Bool
    public var command: String
    public var objectData: Bool
    public var makeEphemeris: Bool
    public var type: EphemType
    public var center: String
    public var coordType: String
    public var siteCoord: String?
    public var refPlane: RefPlane
    public var refSystem: RefSystem
    public var units: Units
    public var vecTable: Int
    public var vecUncertainties: Bool
    public var correction: Correction
    public var calFormat: CalFormat
    public var gregorianOnly: Bool
    public var degrees: Bool
    public var refracted: Bool
    public var timeDigits: TimeDigits
    public var timeDigitsGiven: Bool
    public var rangeKm: Bool
    public var suppressRangeRate: Bool
    public var elevationCutDeg: Double
    public var skipDaylight: Bool
    public var solarElongation: ClosedRange<Double>
    public var airmassLimit: Double
    public var hourAngleCutoffHours: Double
    public var angularRateCutoff: Double
    public var extraPrecision: Bool
    public var csv: Bool
    public var vecLabels: Bool
    public var vecDeltaT: Bool
    public var elementLabels: Bool
    public var tpRelative: Bool
    public var timeScale: HorizonsTimeScale
    public var timeZone: HorizonsTimeZone
    public var quantities: [Int]
    public var start: String?
    public var stop: String?
    public var step: String?
    public var tlist: [String]?
    public var tlistType: String

    /// The parameters read (`Too many constants` for an unquoted value with a blank in it, and
    /// every keyword's allowed values checked).
    public init(_ p: HorizonsParameters) throws(HorizonsFailure) {
        // Horizons' batch reader sees `KEY = value`: a value with a blank needs quotes.
        for key in p.order where key != "FORMAT" && key != "TLIST" {
            if let v = p[key], !v.quoted, v.text.contains(where: { $0 == " " || $0 == "\t" }) {
                throw HorizonsFailure.tooManyConstants(key, v.text)
            }
        }
        func text(_ key: String) -> String? { p[key].map { $0.text.trimmingBlanks() } }
        func yesNo(_ key: String, _ def: Bool) throws(HorizonsFailure) -> Bool {
            guard let v = text(key) else { return def }
            switch v.uppercased() {
            case "YES", "Y", "TRUE", "T", "1": return true
            case "NO", "N", "FALSE", "F", "0": return false
            default: throw HorizonsFailure.badValue(key, v, accepted: "YES, NO")
            }
        }
        func choice<T: RawRepresentable>(_ key: String, _ def: T, _ all: [T]) throws(HorizonsFailure) -> T where T.RawValue == String {
            guard let v = text(key) else { return def }
            let u = v.uppercased()
            if let hit = all.first(where: { $0.rawValue == u || $0.rawValue.hasPrefix(u) && u.count >= 2 }) { return hit }
            throw HorizonsFailure.badValue(key, v, accepted: all.map(\.rawValue).joined(separator: ", "))
        }
        func number(_ key: String, _ def: Double) throws(HorizonsFailure) -> Double {
            guard let v = text(key) else { return def }
            guard let d = Double(v), d.isFinite else { throw HorizonsFailure.badValue(key, v, accepted: "a number") }
            return d
        }

        textFormat = p.wantsText
        command = p["COMMAND"]?.text ?? ""
        objectData = try yesNo("OBJ_DATA", true)
        makeEphemeris = try yesNo("MAKE_EPHEM", true)
        type = try choice(p["EPHEM_TYPE"] != nil ? "EPHEM_TYPE" : "TABLE_TYPE", .observer, [.observer, .vectors, .elements, .spk, .approach])
        center = text("CENTER") ?? "Geocentric"
        coordType = (text("COORD_TYPE") ?? "GEODETIC").uppercased()
        guard coordType == "GEODETIC" || coordType == "CYLINDRICAL" else { throw HorizonsFailure.badValue("COORD_TYPE", coordType, accepted: "GEODETIC, CYLINDRICAL") }
        siteCoord = text("SITE_COORD")
        let plane = (text("REF_PLANE") ?? "ECLIPTIC").uppercased()
        switch plane {
        case "ECLIPTIC", "E", "ECLIP": refPlane = .ecliptic
        case "FRAME", "F", "EARTH": refPlane = .frame
        case "BODY EQUATOR", "B", "BODY": refPlane = .bodyEquator
        default: throw HorizonsFailure.badValue("REF_PLANE", plane, accepted: "ECLIPTIC, FRAME, 'BODY EQUATOR'")
        }
        units = try choice("OUT_UNITS", .kmS, [.kmS, .auD, .kmD])
        let table = (text("VEC_TABLE") ?? "3").lowercased()
        guard let first = table.first, let n = Int(String(first)), (1...6).contains(n), table.dropFirst().allSatisfy({ "xap".contains($0) }) else {
            throw HorizonsFailure.badValue("VEC_TABLE", table, accepted: "1 to 6, optionally followed by x (uncertainties)")
        }
        vecTable = n
        vecUncertainties = table.contains("x")
        correction = try choice("VEC_CORR", .none, [.none, .lightTimeStellar, .lightTime])
        calFormat = try choice("CAL_FORMAT", .cal, [.cal, .jd, .both])
        let calType = (text("CAL_TYPE") ?? "MIXED").uppercased()
        guard ["M", "MIXED", "G", "GREGORIAN"].contains(calType) else { throw HorizonsFailure.badValue("CAL_TYPE", calType, accepted: "MIXED, GREGORIAN") }
        gregorianOnly = calType.hasPrefix("G")
        let ang = (text("ANG_FORMAT") ?? "HMS").uppercased()
        guard ang == "HMS" || ang == "DEG" else { throw HorizonsFailure.badValue("ANG_FORMAT", ang, accepted: "HMS, DEG") }
        degrees = ang == "DEG"
        let apparent = (text("APPARENT") ?? "AIRLESS").uppercased()
        guard apparent == "AIRLESS" || apparent == "REFRACTED" else { throw HorizonsFailure.badValue("APPARENT", apparent, accepted: "AIRLESS, REFRACTED") }
        refracted = apparent == "REFRACTED"
        timeDigitsGiven = p["TIME_DIGITS"] != nil
        timeDigits = try choice("TIME_DIGITS", .minutes, [.minutes, .seconds, .fractionalSeconds])
        let rangeUnits = (text("RANGE_UNITS") ?? "AU").uppercased()
        guard rangeUnits == "AU" || rangeUnits == "KM" else { throw HorizonsFailure.badValue("RANGE_UNITS", rangeUnits, accepted: "AU, KM") }
        rangeKm = rangeUnits == "KM"
        suppressRangeRate = try yesNo("SUPPRESS_RANGE_RATE", false)
        elevationCutDeg = try number("ELEV_CUT", -90)
        skipDaylight = try yesNo("SKIP_DAYLT", false)
        if let e = text("SOLAR_ELONG") {
            let parts = e.split(separator: ",").compactMap { Double($0.trimmingBlanks()) }
            guard parts.count == 2, parts[0] <= parts[1] else { throw HorizonsFailure.badValue("SOLAR_ELONG", e, accepted: "'min,max' degrees") }
            solarElongation = parts[0]...parts[1]
        } else {
            solarElongation = 0...180
        }
        airmassLimit = try number("AIRMASS", 38)
        hourAngleCutoffHours = try number("LHA_CUTOFF", 0)
        angularRateCutoff = try number("ANG_RATE_CUTOFF", 0)
        extraPrecision = try yesNo("EXTRA_PREC", false)
        csv = try yesNo("CSV_FORMAT", false)
        vecLabels = try yesNo("VEC_LABELS", true)
        vecDeltaT = try yesNo("VEC_DELTA_T", false)
        elementLabels = try yesNo(p["ELEM_LABELS"] != nil ? "ELEM_LABELS" : "ELM_LABELS", true)
        let tp = (text("TP_TYPE") ?? "ABSOLUTE").uppercased()
        guard tp.hasPrefix("ABS") || tp.hasPrefix("REL") else { throw HorizonsFailure.badValue("TP_TYPE", tp, accepted: "ABSOLUTE, RELATIVE") }
        tpRelative = tp.hasPrefix("REL")
        if let tt = text("TIME_TYPE") {
            switch tt.uppercased() {
            case "UT", "UTC": timeScale = .ut
            case "TT": timeScale = .tt
            case "TDB", "CT", "ET": timeScale = .tdb
            default: throw HorizonsFailure.badValue("TIME_TYPE", tt, accepted: "UT, TT, TDB")
            }
        } else {
            timeScale = type == .observer ? .ut : .tdb
        }
        if let zone = text("TIME_ZONE") {
            guard let z = HorizonsTimeZone(zone) else {
                throw HorizonsFailure.badValue("TIME_ZONE", zone, accepted: "'+HH:MM' or '-HH:MM', a local civil time's offset from UT, -12:00 to +14:00")
            }
            // Local civil time is an offset of UT: Horizons takes it for observer tables in UT.
            if z != .ut, type != .observer || timeScale != .ut {
                throw HorizonsFailure.badValue("TIME_ZONE", zone, accepted: "'+00:00' unless EPHEM_TYPE=OBSERVER with TIME_TYPE=UT (local civil time is an offset of UT)")
            }
            timeZone = z
        } else {
            timeZone = .ut
        }
        switch (text("REF_SYSTEM") ?? "ICRF").uppercased() {
        case "ICRF", "J2000": refSystem = .icrf
        case "B1950", "FK4": refSystem = .b1950
        default: throw HorizonsFailure.badValue("REF_SYSTEM", text("REF_SYSTEM") ?? "", accepted: "ICRF, B1950")
        }
        quantities = try Self.quantities(text("QUANTITIES") ?? "A")
        start = text("START_TIME")
        stop = text("STOP_TIME")
        step = text("STEP_SIZE")
        tlistType = (text("TLIST_TYPE") ?? "JD").uppercased()
        guard ["JD", "MJD", "CAL"].contains(tlistType) else { throw HorizonsFailure.badValue("TLIST_TYPE", tlistType, accepted: "JD, MJD, CAL") }
        if let raw = p["TLIST"] {
            tlist = Self.tlistItems(raw.text)
            guard tlist?.isEmpty == false else { throw HorizonsFailure.noTList }
        } else {
            tlist = nil
        }
        if tlist != nil, start != nil { throw HorizonsFailure.badValue("TLIST", "(with START_TIME)", accepted: "TLIST or START_TIME/STOP_TIME/STEP_SIZE, not both") }
    }

    /// `QUANTITIES`: numbers and ranges (`'1,9,20-24'`), `A` for all of Horizons' defaults, `B`
    /// (the quantities of "B"asic: 1–9, 19–24 …), or the codes as Horizons lists them.
    static func quantities(_ raw: String) throws(HorizonsFailure) -> [Int] {
        let text = raw.uppercased().trimmingBlanks()
        switch text {
        case "A", "": return Array(1...43)
        case "B": return [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43]
        default: break
        }
        var out: [Int] = []
        for part in text.split(whereSeparator: { $0 == "," || $0 == " " }) {
            let bounds = part.split(separator: "-").map { Int($0) }
            if bounds.count == 1, let n = bounds[0], (1...48).contains(n) {
                if !out.contains(n) { out.append(n) }
            } else if bounds.count == 2, let a = bounds[0], let b = bounds[1], (1...48).contains(a), (1...48).contains(b), a <= b {
                for n in a...b where !out.contains(n) { out.append(n) }
            } else {
                throw HorizonsFailure.badValue("QUANTITIES", raw, accepted: "numbers 1 to 48, ranges such as 20-24, or A")
            }
        }
        guard !out.isEmpty else { throw HorizonsFailure.badValue("QUANTITIES", raw, accepted: "numbers 1 to 48, ranges such as 20-24, or A") }
        return out.sorted()
    }

    /// TLIST's times: separated by blanks, commas or line ends, each possibly quoted (a quoted
    /// calendar date keeps its blank).
    static func tlistItems(_ raw: String) -> [String] {
        var out: [String] = []
        var current = ""
        var quote: Character?
        for ch in raw {
            if let q = quote {
                if ch == q { quote = nil; if !current.isEmpty { out.append(current); current = "" } } else { current.append(ch) }
                continue
            }
            switch ch {
            case "'", "\"":
                quote = ch
            case " ", "\t", "\n", "\r", ",", "[", "]":
                if !current.isEmpty { out.append(current); current = "" }
            default:
                current.append(ch)
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }
}
