import Ephemeris
import HTTPCore
import Satellites
import SmallBodies

/// A body a positions request names: one of the engine's 25, or a body of the loaded SPK
/// kernels — by `naif:<id>`, or by the id of the mission vehicle it is (`voyager2`).
public enum BodyRef: Sendable, Hashable, CustomStringConvertible {
    case engine(BodyID)
    /// `name` is how the request spelled it, and how the answer names it.
    case kernel(naifID: Int, name: String)
    /// An Earth satellite from the loaded element sets (SGP4): `iss`, `norad:NNNNN` or a slug.
    case satellite(noradID: Int, name: String)
    /// An asteroid or comet of the loaded element files: `id` its canonical `sb:` id, `name`
    /// how the request spelled it (`sb:99942`, `apophis`), `model` how it is computed
    /// (`model=kepler` asks for two-body motion, for comparison).
    case smallBody(id: String, name: String, model: SmallBodyModel)

    public var description: String {
        switch self {
        case let .engine(b): b.rawValue
        case let .kernel(_, name): name
        case let .satellite(_, name): name
        case let .smallBody(_, name, _): name
        }
    }

    var isSatellite: Bool {
        if case .satellite = self { return true }
        return false
    }

    var isSmallBody: Bool {
        if case .smallBody = self { return true }
        return false
    }

    /// This body computed by `model` (small bodies; the others are what they are).
    func computed(by model: SmallBodyModel) -> BodyRef {
        if case let .smallBody(id, name, _) = self { return .smallBody(id: id, name: name, model: model) }
        return self
    }
}

/// Resolves body names against the engine's bodies, the kernels' NAIF ids and the mission
/// vehicles' ids.
public struct BodyDirectory: Sendable {
    /// NAIF ids the loaded kernels have segments for.
    let kernelTargets: Set<Int>
    /// Mission vehicle ids → their NAIF ids.
    let aliases: [String: Int]
    /// The loaded element sets (nil: none; `iss` is then the catalogue's circular orbit, ``ISSOrbit``).
    let satellites: SatelliteFeed?
    /// The loaded asteroids and comets (nil: none).
    let smallBodies: SmallBodyFeed?

    /// The engine's 25 bodies only (no kernels loaded).
    public static let engineOnly = BodyDirectory(kernelTargets: [], aliases: [:])

    public init(kernelTargets: Set<Int>, aliases: [String: Int], satellites: SatelliteFeed? = nil, smallBodies: SmallBodyFeed? = nil) {
        self.kernelTargets = kernelTargets
        self.satellites = satellites
        self.smallBodies = smallBodies
        self.aliases = aliases.filter { kernelTargets.contains($0.value) && BodyID(rawValue: $0.key) == nil }
    }

    /// Every name it accepts, for "valid ids" lists: the engine's bodies, the vehicles, and the
    /// `naif:` ids (the first 50, then a count).
    public var validNames: [String] {
        let naif = kernelTargets.sorted().map { "naif:\($0)" }
        let shown = naif.count > 50 ? Array(naif.prefix(50)) + ["… \(naif.count - 50) more naif: ids"] : naif
        let sats = (satellites?.current.catalogue.satellites ?? []).filter { $0.id != "iss" }.map(\.id)
        let shownSats = sats.count > 50 ? Array(sats.prefix(50)) + ["… \(sats.count - 50) more norad: ids"] : sats
        var small: [String] = []
        if let c = smallBodies?.current.catalogue {
            let (handles, total) = c.search("", offset: 0, limit: 50)
            small = handles.map { c.id($0) }
            if total > 50 { small.append("… \(total - 50) more sb: ids (GET /v1/bodies?kind=small-body)") }
        }
        var names: [String] = BodyID.allCases.map(\.rawValue)
        names += aliases.keys.sorted()
        names += shown
        names += shownSats
        return names + small
    }

    /// A small body by `sb:` id or unique name slug (nil: not one).
    func smallBody(_ text: String) -> BodyRef? {
        guard let feed = smallBodies else { return nil }
        let c = feed.current.catalogue
        guard let h = c.resolve(text) else { return nil }
        return .smallBody(id: c.id(h), name: text, model: .nbody)
    }

    /// The ISS as an element-set satellite when one is loaded for NORAD 25544.
    var issFromElementSets: BodyRef? {
        guard let feed = satellites, feed.current.catalogue.satellite(norad: SatelliteCatalogue.issNoradID) != nil else { return nil }
        return .satellite(noradID: SatelliteCatalogue.issNoradID, name: "iss")
    }

    /// One body name, or a 404 problem listing the valid ones.
    public func resolve(_ text: String, parameter: String?) throws(ProblemDetails) -> BodyRef {
        if text.isEmpty, let parameter {
            throw .invalidParameter(parameter, value: text, accepted: "a body id: \(BodyID.validList), naif:<id> or a mission vehicle id", reason: "empty")
        }
        if text == "iss", let iss = issFromElementSets { return iss }
        if let b = BodyID(rawValue: text) { return .engine(b) }
        if let id = aliases[text] { return .kernel(naifID: id, name: text) }
        if text.hasPrefix("norad:") {
            let digits = text.dropFirst(6)
            guard let n = Int(digits), String(n) == digits, n > 0 else {
                throw ProblemDetails.unknownId("body", id: text, parameter: parameter, valid: validNames)
                    .adding("reason", "norad: takes a NORAD catalogue number without leading zeros, e.g. norad:25544")
            }
            guard let s = satellites?.current.catalogue.satellite(norad: n) else {
                throw ProblemDetails.unknownId("body", id: text, parameter: parameter, valid: validNames)
                    .adding("reason", "no element set for NORAD \(n) is loaded (see --tle)")
            }
            return .satellite(noradID: n, name: s.id == "iss" ? text : s.id)
        }
        if let s = satellites?.current.catalogue.satellite(named: text) { return .satellite(noradID: s.noradID, name: text) }
        if let b = smallBody(text) { return b }
        if text.hasPrefix("sb:") {
            throw ProblemDetails.unknownId("body", id: text, parameter: parameter, valid: validNames)
                .adding("reason", "no loaded element file has \(text) (see --elements; GET /v1/bodies?kind=small-body&q= searches them)")
        }
        if text.hasPrefix("naif:"), let id = Int(text.dropFirst(5)), String(id) == text.dropFirst(5) {
            guard kernelTargets.contains(id) else {
                throw ProblemDetails.unknownId("body", id: text, parameter: parameter, valid: validNames)
                    .adding("reason", "no loaded kernel has a segment for NAIF \(id)")
            }
            return .kernel(naifID: id, name: text)
        }
        throw .unknownId("body", id: text, parameter: parameter, valid: validNames)
    }

    /// A comma-separated list (duplicates collapse, order kept); absent → the engine's 25.
    public func resolveList(_ text: String?, parameter: String = "bodies") throws(ProblemDetails) -> [BodyRef] {
        guard let text else {
            let iss = issFromElementSets
            return BodyID.allCases.map { $0 == .iss ? iss ?? .engine($0) : .engine($0) }
        }
        guard text.utf8.count <= 2048 else {
            throw .invalidParameter(parameter, value: text, accepted: "a comma-separated list of at most 100 body ids")
        }
        var out: [BodyRef] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard !part.isEmpty else {
                throw .invalidParameter(parameter, value: text, accepted: "a comma-separated list of body ids without empty items")
            }
            let ref = try resolve(String(part), parameter: parameter)
            if !out.contains(ref) { out.append(ref) }
            guard out.count <= 100 else {
                throw .invalidParameter(parameter, value: text, accepted: "a comma-separated list of at most 100 body ids")
            }
        }
        return out
    }
}

extension ProblemDetails {
    /// The problem with one more member.
    func adding(_ name: String, _ value: String) -> ProblemDetails {
        var p = self
        p.extensions.append((name, .string(value)))
        return p
    }
}
