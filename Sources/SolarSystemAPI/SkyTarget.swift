import Ephemeris
import HTTPCore
import Satellites
import Sky

/// One thing the sky routes look at: an engine body, or an Earth satellite of the loaded
/// element sets (`iss`, `norad:<n>`, a name slug), as the request named it.
enum SkyTarget: Sendable, Hashable {
    case body(BodyID)
    case satellite(noradID: Int, name: String)
    /// An asteroid or comet: its canonical `sb:` id and the name as asked.
    case smallBody(id: String, name: String)

    var satelliteNorad: Int? {
        if case let .satellite(n, _) = self { return n }
        return nil
    }

    /// `bodies` (default `defaults`): observable engine bodies (all but the Earth, and the
    /// catalogue's ISS when no element set is loaded for it) and satellites, in the order given.
    static func list(_ q: QueryParameters, defaults: [BodyID], directory: BodyDirectory) throws(ProblemDetails) -> [SkyTarget] {
        guard let raw = try q.string("bodies") else { return defaults.map { .body($0) } }
        let engineAccepted = "body ids seen from the Earth: \(SkyEngine.observable.map(\.rawValue).joined(separator: ", ")), a satellite of the loaded element sets (iss, norad:<n>, a name slug), or an asteroid or comet (sb:<number>, sb:<designation>, a name slug)"
        guard raw.utf8.count <= 2048 else { throw .invalidParameter("bodies", value: raw, accepted: "a comma-separated list of at most 100 body ids") }
        var out: [SkyTarget] = []
        for part in raw.split(separator: ",", omittingEmptySubsequences: false) {
            let name = String(part)
            let target: SkyTarget
            if let b = BodyID(rawValue: name), name != "iss" || directory.issFromElementSets == nil {
                guard SkyEngine.observable.contains(b) else {
                    throw .invalidParameter("bodies", value: raw, accepted: engineAccepted,
                                            reason: b == .earth ? "the observer stands on the Earth" : "the ISS's catalogue orbit is too coarse for a place on the Earth and no element set for it is loaded")
                }
                target = .body(b)
            } else {
                switch try directory.resolve(name, parameter: "bodies") {
                case let .satellite(n, name): target = .satellite(noradID: n, name: name)
                case let .smallBody(id, name, _): target = .smallBody(id: id, name: name)
                case let .engine(b): target = .body(b)
                case .kernel:
                    throw .invalidParameter("bodies", value: raw, accepted: engineAccepted, reason: "\(name) is a spacecraft kernel, not served in the observer's sky")
                }
            }
            if !out.contains(target) { out.append(target) }
            guard out.count <= 100 else { throw .invalidParameter("bodies", value: raw, accepted: "a comma-separated list of at most 100 body ids") }
        }
        return out
    }
}
