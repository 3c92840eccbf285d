import Ephemeris
import HTTPCore
import Rendering
import Scene
import SmallBodies

/// Small bodies in the 3D scene and in the pictures: their places (scene frame, log-scaled as
/// the planets') and their paths, drawn from the integration itself.
extension V1API {
    /// The most small bodies one scene or picture draws.
    static let maxSceneSmallBodies = 20

    /// `smallBodies=`: a comma list of asteroids and comets (at most 20), resolved now.
    func smallBodyList(_ q: QueryParameters) throws(ProblemDetails) -> [(id: String, name: String)] {
        guard let raw = try q.string("smallBodies") else { return [] }
        let accepted = "a comma list of at most \(Self.maxSceneSmallBodies) asteroids and comets: sb:<number>, sb:<designation> or a name"
        let parts = raw.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !parts.isEmpty, parts.count <= Self.maxSceneSmallBodies, !parts.contains("") else {
            throw .invalidParameter("smallBodies", value: raw, accepted: accepted)
        }
        var out: [(id: String, name: String)] = []
        for name in parts {
            guard case let .smallBody(id, _, _) = try services.bodyDirectory.resolve(name, parameter: "smallBodies") else {
                throw .invalidParameter("smallBodies", value: raw, accepted: accepted, reason: "\(name) is not an asteroid or comet")
            }
            if !out.contains(where: { $0.id == id }) { out.append((id, name)) }
        }
        return out
    }

    /// `smallBodies: [{id, name, type, position (scene), heliocentricAU, distanceAU}]` and
    /// `smallBodiesUnavailable: [{id, reason}]` for those the integration cannot place then.
    func writeSmallBodies(_ list: [(id: String, name: String)], at t: Instant, into w: inout JSONWriter) {
        let current = services.smallBodies?.current
        var unavailable: [(String, String)] = []
        w.key("smallBodies")
        w.array { w in
            for (id, name) in list {
                do throws(ProblemDetails) {
                    let (state, theory) = try services.engine.smallBodyState(id, name: name, model: .nbody, at: t, current: current)
                    let body = current.flatMap { c in c.catalogue.resolve(id).map { c.catalogue.body($0) } }
                    w.object { w in
                        w.key("id"); w.string(name)
                        w.key("name"); w.string(body?.fullName ?? name)
                        w.key("type"); w.string(body?.kind.rawValue ?? "asteroid")
                        w.key("position"); w.numbers(SceneLayout.scenePosition(heliocentricAU: state.positionAU).array)
                        w.key("heliocentricAU"); w.numbers(state.positionAU)
                        w.key("distanceAU"); w.number(state.positionAU.length)
                        w.key("theory"); w.string(theory.name)
                    }
                } catch {
                    unavailable.append((name, error.detail ?? error.title))
                }
            }
        }
        if !unavailable.isEmpty {
            w.key("smallBodiesUnavailable")
            w.array { w in
                for (id, reason) in unavailable { w.object { w in w.key("id"); w.string(id); w.key("reason"); w.string(reason) } }
            }
        }
    }

    /// The path of a small body drawn in a picture: one orbital period either side of `t` (at
    /// most two years each way, clamped to the trusted span), 256 points of the integration in
    /// scene units, and its name where it is.
    static func smallBodyOverlays(_ list: [(id: String, name: String)], at t: Instant, services: APIServices) -> ViewOverlays {
        guard let current = services.smallBodies?.current else { return .none }
        var overlays = ViewOverlays()
        for (id, name) in list {
            guard let h = current.catalogue.resolve(id) else { continue }
            let body = current.catalogue.body(h)
            let seconds = t.daysSinceJ2000TDB * Constants.secondsPerDay
            let half = min((body.elements.periodDays ?? 730) / 2, 730) * Constants.secondsPerDay
            guard let span = current.propagator.trustedSpan(body), span.contains(seconds) else { continue }
            let a = max(span.lowerBound, seconds - half), b = min(span.upperBound, seconds + half)
            let n = 256
            var points: [Vector3] = []
            points.reserveCapacity(n + 1)
            for k in 0...n {
                let s = a + (b - a) * Double(k) / Double(n)
                guard let state = try? current.propagator.heliocentricState(body, atSeconds: s) else { continue }
                points.append(SceneLayout.scenePosition(heliocentricAU: state.positionKm / Constants.auKm))
            }
            let color = body.kind == .comet ? RGBColor(0.55, 0.85, 1.0) : RGBColor(0.85, 0.75, 0.55)
            overlays.polylines.append(ViewPolyline(points: points, color: color, opacity: 0.8, width: 1.2))
            if let now = try? current.propagator.heliocentricState(body, atSeconds: seconds) {
                overlays.labels.append(OverlayLabel(text: body.name ?? name, position: SceneLayout.scenePosition(heliocentricAU: now.positionKm / Constants.auKm), color: color))
            }
        }
        return overlays
    }
}
