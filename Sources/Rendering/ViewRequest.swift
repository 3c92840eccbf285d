import Ephemeris
import Scene

/// Which label groups a view draws.
public struct LabelOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let planets = LabelOptions(rawValue: 1 << 0)
    public static let moons = LabelOptions(rawValue: 1 << 1)
    public static let stars = LabelOptions(rawValue: 1 << 2)
    public static let events = LabelOptions(rawValue: 1 << 3)

    public static let all: LabelOptions = [.planets, .moons, .stars, .events]
    public static let standard: LabelOptions = [.planets, .moons, .events]

    /// Parses `planets,moons,stars,events`, `all` or `none`; nil names the first unknown word.
    public static func parse(_ text: String) -> Result<LabelOptions, ViewRequestError> {
        var out: LabelOptions = []
        for word in text.split(separator: ",").map({ $0.trimmingCharacters() }) where !word.isEmpty {
            switch word {
            case "planets": out.insert(.planets)
            case "moons": out.insert(.moons)
            case "stars": out.insert(.stars)
            case "events": out.insert(.events)
            case "all": out.formUnion(.all)
            case "none": break
            default: return .failure(.badLabels(word))
            }
        }
        return .success(out)
    }
}

extension Substring {
    func trimmingCharacters() -> String {
        var s = self
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s).lowercased()
    }
}

public enum ViewRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    case badSize(width: Int, height: Int)
    case badLabels(String)
    case badCamera(String)

    public var description: String {
        switch self {
        case let .badSize(w, h): return "image size \(w)×\(h) is outside \(ViewRequest.sizeRange.lowerBound)…\(ViewRequest.sizeRange.upperBound) in each direction"
        case let .badLabels(w): return "unknown label group \"\(w)\"; accepted: planets, moons, stars, events, all, none"
        case let .badCamera(d): return d
        }
    }
}

/// Everything that determines a rendered view, Hashable so the API can key a cache on it.
/// Mission overlays are passed to the renderer separately; `mission` and `missionHours` are
/// here only so the cache key covers them.
public struct ViewRequest: Sendable, Hashable {
    public static let sizeRange = 16...4096

    public let instant: Instant
    public let width: Int
    public let height: Int
    public let camera: CameraChoice
    public let labels: LabelOptions
    public let mission: String?
    public let missionHours: Double?

    public init(
        instant: Instant, width: Int = 1280, height: Int = 720, camera: CameraChoice = .overview,
        labels: LabelOptions = .standard, mission: String? = nil, missionHours: Double? = nil
    ) throws(ViewRequestError) {
        guard Self.sizeRange.contains(width), Self.sizeRange.contains(height) else { throw .badSize(width: width, height: height) }
        try Self.validate(camera)
        self.instant = instant
        self.width = width
        self.height = height
        self.camera = camera
        self.labels = labels
        self.mission = mission
        self.missionHours = missionHours
    }

    /// The most a pan may move the camera's target along each axis (the camera's own distance
    /// limit: farther than that, nothing of the system is left in view).
    public static let panLimit = 1e4

    private static func validate(_ camera: CameraChoice) throws(ViewRequestError) {
        switch camera {
        case let .orbit(_, az, el, d):
            if let az, !az.isFinite { throw .badCamera("azimuth must be a finite number of radians") }
            if let el, !(el.isFinite && abs(el) <= Double.pi / 2) { throw .badCamera("elevation must be within −π/2…π/2 radians") }
            if let d, !(d.isFinite && d > 0 && d <= 1e4) { throw .badCamera("distance must be in (0, 10000] scene units") }
        case let .panned(inner, offset):
            guard [offset.x, offset.y, offset.z].allSatisfy({ $0.isFinite && abs($0) <= panLimit }) else {
                throw .badCamera("pan must be three finite scene-unit offsets within ±\(Int(panLimit))")
            }
            try validate(inner)
        case .overview, .focus, .pose:
            break
        }
    }
}
