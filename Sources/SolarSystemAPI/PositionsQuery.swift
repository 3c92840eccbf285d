import Ephemeris
import HTTPCore

/// Output frames of the position endpoints (docs/http.md and openapi.yaml say what each is).
public enum OutputFrame: String, CaseIterable, Sendable {
    case eclipticJ2000 = "ecliptic-j2000"
    case equatorialJ2000 = "equatorial-j2000"
    case scene

    public static let acceptedList = allCases.map(\.rawValue).joined(separator: ", ")

    /// Reads the API spelling, and for the CLI the short ones (`ecliptic`, `equatorial`).
    public init(parsing text: String, parameter: String = "frame") throws(ProblemDetails) {
        switch text {
        case "ecliptic-j2000", "ecliptic": self = .eclipticJ2000
        case "equatorial-j2000", "equatorial", "icrf": self = .equatorialJ2000
        case "scene": self = .scene
        default: throw .invalidParameter(parameter, value: text, accepted: Self.acceptedList)
        }
    }
}

/// Distance units: AU (velocity AU/day), km (velocity km/s), or scene units (velocity scene units/day).
public enum DistanceUnit: String, CaseIterable, Sendable {
    case au, km, scene
}

/// Parsing helpers every endpoint shares.
public enum QueryParsing {
    /// The date parameter: ISO 8601 UTC, `jd:…` or `now` (the default when absent).
    public static func instant(_ text: String?, parameter: String = "date", now: () -> Double) throws(ProblemDetails) -> Instant {
        let value = text ?? "now"
        do {
            return try TimeScale.parse(value, now: now)
        } catch {
            throw .invalidParameter(parameter, value: value, accepted: TimeScale.acceptedFormats, reason: reason(error))
        }
    }

    static func reason(_ e: TimeError) -> String? {
        switch e {
        case .unparseable: return nil
        case let .outOfRange(_, accepted): return "outside the supported range: \(accepted)"
        case let .invalidField(field, value, accepted): return "\(field) \(value) is not valid: \(accepted)"
        }
    }

    /// One body id, or a 404 problem listing the valid ones.
    public static func body(_ text: String, parameter: String?) throws(ProblemDetails) -> BodyID {
        if text.isEmpty, let parameter {
            throw .invalidParameter(parameter, value: text, accepted: "a body id: \(BodyID.allCases.map(\.rawValue).joined(separator: ", "))", reason: "empty")
        }
        guard let id = BodyID(rawValue: text) else {
            throw .unknownId("body", id: text, parameter: parameter, valid: BodyID.allCases.map(\.rawValue))
        }
        return id
    }

    /// A comma-separated list of body ids (duplicates collapse, order kept); absent → all 25.
    public static func bodies(_ text: String?, parameter: String = "bodies") throws(ProblemDetails) -> [BodyID] {
        guard let text else { return BodyID.allCases }
        // Bounded before splitting: 25 ids of at most 9 characters fit in 300 bytes.
        guard text.utf8.count <= 512 else {
            throw .invalidParameter(parameter, value: text, accepted: "a comma-separated list of at most 25 body ids")
        }
        var out: [BodyID] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard !part.isEmpty else {
                throw .invalidParameter(parameter, value: text, accepted: "a comma-separated list of body ids without empty items")
            }
            let id = try body(String(part), parameter: parameter)
            if !out.contains(id) { out.append(id) }
        }
        return out
    }
}

/// The frame, centre and units of a positions answer.
public struct FrameSelection: Sendable, Hashable {
    public var frame: OutputFrame
    /// The centre body; `.sun` when ``barycentric``.
    public var center: BodyID
    public var units: DistanceUnit
    /// Centred on the solar-system barycentre (`center=ssb`): every state is computed about the
    /// Sun, then moved by the Sun's barycentric state (``EphemerisService/origin(_:at:)``).
    public var barycentric: Bool

    public init(frame: OutputFrame = .eclipticJ2000, center: BodyID = .sun, units: DistanceUnit? = nil, barycentric: Bool = false) {
        self.frame = frame
        self.barycentric = barycentric && frame != .scene
        self.center = self.barycentric ? .sun : center
        self.units = frame == .scene ? .scene : (units ?? (center == .sun ? .au : .km))
    }

    /// What `center` is called in answers: a body id, or `ssb`.
    public var centerName: String { barycentric ? "ssb" : center.rawValue }

    public var velocityUnits: String {
        switch units {
        case .au: return "au/day"
        case .km: return "km/s"
        case .scene: return "scene/day"
        }
    }

    /// Validates `frame`, `center` and `units`. Units default to AU around the Sun and km around
    /// any other centre. `scene` in either `frame` or `units` selects the scene frame in scene
    /// units (scene coordinates are log-scaled: no other unit exists there), so no combination of
    /// valid values is refused.
    public static func parse(frame: String?, center: String?, units: String?) throws(ProblemDetails) -> FrameSelection {
        var f = try frame.map { t throws(ProblemDetails) in try OutputFrame(parsing: t) } ?? .eclipticJ2000
        var c = BodyID.sun
        var barycentric = false
        if let center {
            if center == "ssb" {
                barycentric = true
            } else {
                c = try QueryParsing.body(center, parameter: "center")
            }
        }
        var u: DistanceUnit?
        if let units {
            guard let parsed = DistanceUnit(rawValue: units) else {
                throw .invalidParameter("units", value: units, accepted: DistanceUnit.allCases.map(\.rawValue).joined(separator: ", "))
            }
            if parsed == .scene { f = .scene } else { u = parsed }
        }
        if barycentric, f == .scene {
            throw .invalidParameter("center", value: "ssb", accepted: "a body id (\(BodyID.validList)) with the scene frame",
                                    reason: "the scene frame is drawn about the Sun; ssb is a centre of ecliptic-j2000 and equatorial-j2000")
        }
        return FrameSelection(frame: f, center: c, units: u, barycentric: barycentric)
    }
}

/// A validated `/v1/positions` request (also what `solarsystem positions` builds).
public struct PositionsQuery: Sendable {
    public var instant: Instant
    public var bodies: [BodyRef]
    public var selection: FrameSelection
    /// Whether the request listed its bodies: a listed satellite SGP4 cannot place is a 422; one
    /// of the default list is left out and named under `unavailable`.
    public var bodiesListed: Bool

    public init(instant: Instant, bodies: [BodyRef] = BodyID.allCases.map { .engine($0) }, selection: FrameSelection = FrameSelection(),
                bodiesListed: Bool = true) {
        self.instant = instant
        self.bodies = bodies
        self.selection = selection
        self.bodiesListed = bodiesListed
    }

    /// `directory` resolves `naif:` ids and mission vehicle ids (the engine's 25 bodies only by
    /// default).
    public static func parse(date: String?, bodies: String?, frame: String?, center: String?, units: String?, now: () -> Double,
                             directory: BodyDirectory = .engineOnly) throws(ProblemDetails) -> PositionsQuery {
        let instant = try QueryParsing.instant(date, now: now)
        let list = try directory.resolveList(bodies)
        return PositionsQuery(instant: instant, bodies: list, selection: try FrameSelection.parse(frame: frame, center: center, units: units),
                              bodiesListed: bodies != nil)
    }
}
