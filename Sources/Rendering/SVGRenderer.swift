import Glibc
import Ephemeris
import Scene

/// Draws a `ViewScene` as a self-contained SVG document: stars, orbits, the Sun's glow, bodies
/// as discs shaded toward the Sun (far to near), Saturn's ring split into the halves behind
/// and in front of the planet, mission overlays, labels and a date caption. No external
/// references; every text is escaped.
public enum SVGRenderer {
    /// Smallest drawn disc radius in pixels, so distant planets stay visible as dots.
    public static let minimumPlanetRadiusPx = 1.5
    public static let minimumMoonRadiusPx = 1.0
    /// Stars fainter than this are left out of the SVG (the raster draws them all).
    public static let faintestStarMagnitude = 4.5
    /// Saturn's main rings, km from the centre (NASA Saturn fact sheet): C, B, A ring; the
    /// Cassini division lies between B and A.
    public static let ringBandsKm: [(inner: Double, outer: Double, opacity: Double)] = [
        (74_658, 92_000, 0.3), (92_000, 117_580, 0.85), (122_170, 136_775, 0.6),
    ]
    static let ringColor = RGBColor(0.82, 0.74, 0.6)

    public static func render(_ scene: ViewScene) -> String {
        var svg = SVGWriter()
        let cam = scene.camera
        let w = cam.width, h = cam.height
        svg.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        svg.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\">\n")
        svg.raw("<title>")
        svg.text("Solar System, \(scene.caption)")
        svg.raw("</title>\n")

        // Bodies far to near (painter's algorithm), with their gradients.
        let visible = scene.bodies.filter { $0.screen != nil }.sorted { $0.screen!.depth > $1.screen!.depth }
        svg.raw("<defs>\n")
        for b in visible { gradient(&svg, body: b, scene: scene) }
        svg.raw("</defs>\n")
        svg.raw("<rect width=\"\(w)\" height=\"\(h)\" fill=\"#000000\"/>\n")

        svg.raw("<g id=\"stars\">\n")
        for s in scene.stars where s.magnitude <= faintestStarMagnitude {
            guard let p = cam.projectDirection(s.direction), p.x > -4, p.y > -4, p.x < Double(w) + 4, p.y < Double(h) + 4 else { continue }
            let brightness = max(0.35, min(1, 1 - (s.magnitude - 1) / 7))
            svg.raw("<circle cx=\"\(f(p.x))\" cy=\"\(f(p.y))\" r=\"\(f(max(0.4, s.size / 2)))\" fill=\"\(s.color.hex)\" fill-opacity=\"\(f2(brightness))\"/>\n")
        }
        svg.raw("</g>\n")

        svg.raw("<g id=\"orbits\" fill=\"none\" stroke-linejoin=\"round\">\n")
        for o in scene.orbits { polyline(&svg, o, camera: cam) }
        svg.raw("</g>\n")

        svg.raw("<g id=\"bodies\">\n")
        for b in visible { body(&svg, b, camera: cam) }
        svg.raw("</g>\n")

        // Hook: mission trajectories and their event labels (filled by the API layer).
        svg.raw("<g id=\"overlays\" fill=\"none\" stroke-linejoin=\"round\">\n")
        for o in scene.overlays.polylines { polyline(&svg, o, camera: cam) }
        for m in scene.overlays.markers {
            guard let p = cam.project(m.position), !scene.hidesBehindBody(p) else { continue }
            svg.raw("<circle class=\"marker\" cx=\"\(f(p.x))\" cy=\"\(f(p.y))\" r=\"3.5\" stroke=\"\(m.color.hex)\" stroke-width=\"1.5\"/>\n")
        }
        svg.raw("</g>\n")

        svg.raw("<g id=\"labels\" font-family=\"Helvetica, Arial, sans-serif\" text-anchor=\"middle\">\n")
        for l in scene.labels {
            let (fill, weight, opacity): (String, String, Double)
            switch l.kind {
            case .planet: (fill, weight, opacity) = ("#ffffff", "500", 0.92)
            case .moon: (fill, weight, opacity) = ("#c8d0d8", "400", 0.8)
            case .star: (fill, weight, opacity) = ("#8fa6c8", "400", 0.75)
            case .event: (fill, weight, opacity) = ((scene.overlays.labels.first { $0.text == l.text }?.color ?? RGBColor(1, 0.67, 0.2)).hex, "600", 0.95)
            }
            svg.raw("<text x=\"\(f(l.x))\" y=\"\(f(l.y))\" font-size=\"\(f(l.fontSize))\" font-weight=\"\(weight)\" fill=\"\(fill)\" fill-opacity=\"\(f2(opacity))\">")
            svg.text(l.text)
            svg.raw("</text>\n")
        }
        svg.raw("</g>\n")

        svg.raw("<text id=\"caption\" x=\"12\" y=\"\(h - 12)\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"13\" fill=\"#d0d8e0\">")
        svg.text(scene.caption)
        svg.raw("</text>\n</svg>\n")
        return svg.out
    }

    /// The shading gradient of a body: a radial gradient whose bright focus sits toward the
    /// Sun's direction on screen, dimmer as the lit hemisphere turns away from the camera.
    static func gradient(_ svg: inout SVGWriter, body b: ViewBody, scene: ViewScene) {
        let id = b.id.rawValue
        if b.emissive {
            svg.raw("<radialGradient id=\"g-\(id)\"><stop offset=\"0\" stop-color=\"#fffbe8\"/><stop offset=\"0.75\" stop-color=\"\(b.color.hex)\"/><stop offset=\"1\" stop-color=\"\((b.color * 0.8).hex)\"/></radialGradient>\n")
            svg.raw("<radialGradient id=\"glow-\(id)\"><stop offset=\"0.2\" stop-color=\"\(b.color.hex)\" stop-opacity=\"0.6\"/><stop offset=\"0.45\" stop-color=\"\(b.color.hex)\" stop-opacity=\"0.22\"/><stop offset=\"0.7\" stop-color=\"\(b.color.hex)\" stop-opacity=\"0.07\"/><stop offset=\"1\" stop-color=\"\(b.color.hex)\" stop-opacity=\"0\"/></radialGradient>\n")
            return
        }
        let cam = scene.camera
        let toSun = (scene.sunPosition - b.position).normalized
        let toEye = (cam.eye - b.position).normalized
        // Light direction in the camera basis (screen y points down).
        let lx = toSun.dot(cam.basisRight), ly = -toSun.dot(cam.basisUp)
        let lit = (1 + toSun.dot(toEye)) / 2 // 1 full phase, 0 new
        let fx = 0.5 + 0.45 * lx, fy = 0.5 + 0.45 * ly
        let bright = b.color * min(1.15, 0.3 + 0.85 * lit)
        svg.raw("<radialGradient id=\"g-\(id)\" cx=\"\(f2(fx))\" cy=\"\(f2(fy))\" r=\"0.85\" fx=\"\(f2(fx))\" fy=\"\(f2(fy))\">")
        svg.raw("<stop offset=\"0\" stop-color=\"\(bright.hex)\"/><stop offset=\"0.55\" stop-color=\"\((b.color * (0.2 + 0.6 * lit)).hex)\"/><stop offset=\"1\" stop-color=\"\((b.color * 0.06).hex)\"/></radialGradient>\n")
    }

    static func body(_ svg: inout SVGWriter, _ b: ViewBody, camera cam: ViewCamera) {
        guard let s = b.screen else { return }
        let minR = b.id.isSatellite ? minimumMoonRadiusPx : minimumPlanetRadiusPx
        let r = max(minR, b.screenRadius)
        let margin = b.emissive ? 4 * r : r
        if let ring = b.ring {
            let outerPx = cam.screenRadius(worldRadius: ring.outerRadius, depth: s.depth)
            guard s.x + outerPx > 0, s.y + outerPx > 0, s.x - outerPx < Double(cam.width), s.y - outerPx < Double(cam.height) else { return }
        } else {
            guard s.x + margin > 0, s.y + margin > 0, s.x - margin < Double(cam.width), s.y - margin < Double(cam.height) else { return }
        }
        let id = b.id.rawValue
        if b.emissive {
            svg.raw("<circle cx=\"\(f(s.x))\" cy=\"\(f(s.y))\" r=\"\(f(4 * r))\" fill=\"url(#glow-\(id))\"/>\n")
        }
        let halves = b.ring.map { ringHalves(b, ring: $0, camera: cam) }
        if let back = halves?.back { svg.raw(back) }
        svg.raw("<circle id=\"body-\(id)\" cx=\"\(f(s.x))\" cy=\"\(f(s.y))\" r=\"\(f(r))\" fill=\"url(#g-\(id))\"/>\n")
        if let front = halves?.front { svg.raw(front) }
    }

    /// Saturn's ring bands as two sets of annulus sectors in the ring's real plane: the half
    /// beyond the planet's centre (drawn before the disc) and the half nearer the camera.
    static func ringHalves(_ b: ViewBody, ring: RingPlane, camera cam: ViewCamera) -> (back: String, front: String) {
        let e1 = ring.quaternion.rotate(Vector3(1, 0, 0)), e2 = ring.quaternion.rotate(Vector3(0, 0, 1))
        let toEye = cam.eye - b.position
        let phi = atan2(toEye.dot(e2), toEye.dot(e1))
        let kmPerUnit = ring.outerRadius > 0 ? 140_220 / ring.outerRadius : 1
        func sector(from a0: Double, to a1: Double) -> String {
            var out = ""
            let n = 48
            for band in ringBandsKm {
                let rIn = band.inner / kmPerUnit, rOut = band.outer / kmPerUnit
                var d = ""
                var ok = true
                for k in 0...n {
                    let a = a0 + (a1 - a0) * Double(k) / Double(n)
                    guard let p = cam.project(b.position + (e1 * cos(a) + e2 * sin(a)) * rOut) else { ok = false; break }
                    d += (k == 0 ? "M" : "L") + "\(f(p.x)),\(f(p.y))"
                }
                for k in stride(from: n, through: 0, by: -1) where ok {
                    let a = a0 + (a1 - a0) * Double(k) / Double(n)
                    guard let p = cam.project(b.position + (e1 * cos(a) + e2 * sin(a)) * rIn) else { ok = false; break }
                    d += "L\(f(p.x)),\(f(p.y))"
                }
                guard ok else { continue }
                out += "<path d=\"\(d)Z\" fill=\"\(ringColor.hex)\" fill-opacity=\"\(f2(band.opacity))\"/>\n"
            }
            return out
        }
        let back = sector(from: phi + Double.pi / 2, to: phi + 3 * Double.pi / 2)
        let front = sector(from: phi - Double.pi / 2, to: phi + Double.pi / 2)
        return ("<g class=\"ring-back\">\n" + back + "</g>\n", "<g class=\"ring-front\">\n" + front + "</g>\n")
    }

    /// A scene polyline projected and split where it leaves the space in front of the camera.
    static func polyline(_ svg: inout SVGWriter, _ line: ViewPolyline, camera cam: ViewCamera) {
        let pts = line.points
        guard pts.count >= 2 else { return }
        let limit = 1e5
        var run: [ScreenPoint] = []
        func flush() {
            if run.count >= 2 {
                var d = ""
                for (i, p) in run.enumerated() { d += (i == 0 ? "" : " ") + "\(f(p.x)),\(f(p.y))" }
                svg.raw("<polyline points=\"\(d)\" stroke=\"\(line.color.hex)\" stroke-opacity=\"\(f2(line.opacity))\" stroke-width=\"\(f(line.width))\"/>\n")
            }
            run.removeAll(keepingCapacity: true)
        }
        let count = line.closed ? pts.count : pts.count - 1
        for i in 0..<count {
            guard let (a, b) = cam.projectSegment(pts[i], pts[(i + 1) % pts.count]),
                  abs(a.x) < limit, abs(a.y) < limit, abs(b.x) < limit, abs(b.y) < limit else { flush(); continue }
            if let last = run.last, abs(last.x - a.x) > 0.01 || abs(last.y - a.y) > 0.01 { flush() }
            if run.isEmpty { run.append(a) }
            run.append(b)
        }
        flush()
    }

    /// One decimal place, no exponent: `12.3`, `-0.5`.
    static func f(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        let t = Int((v * 10).rounded())
        let sign = t < 0 ? "-" : ""
        let a = abs(t)
        return "\(sign)\(a / 10).\(a % 10)"
    }

    /// Two decimal places for opacities and gradient fractions.
    static func f2(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        let t = Int((v * 100).rounded())
        let sign = t < 0 ? "-" : ""
        let a = abs(t)
        let frac = a % 100
        return "\(sign)\(a / 100).\(frac < 10 ? "0" : "")\(frac)"
    }
}

/// Accumulates SVG text; `text` escapes character data.
struct SVGWriter {
    var out = ""

    init() { out.reserveCapacity(64 * 1024) }

    mutating func raw(_ s: String) { out += s }

    mutating func text(_ s: String) { out += Self.escape(s) }

    /// XML escaping for text and attribute values; control characters XML 1.0 forbids are dropped.
    static func escape(_ s: String) -> String {
        var r = ""
        r.reserveCapacity(s.utf8.count)
        for ch in s.unicodeScalars {
            switch ch {
            case "&": r += "&amp;"
            case "<": r += "&lt;"
            case ">": r += "&gt;"
            case "\"": r += "&quot;"
            case "'": r += "&apos;"
            default:
                if ch.value < 0x20, ch != "\n", ch != "\t", ch != "\r" { continue }
                if ch.value == 0xFFFE || ch.value == 0xFFFF { continue }
                r.unicodeScalars.append(ch)
            }
        }
        return r
    }
}
