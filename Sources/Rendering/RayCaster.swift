import Glibc
import Dispatch
import Ephemeris
import Scene

/// Ray-casts a `ViewScene` into an RGB image: a star background, textured spheres oriented by
/// their scene quaternions and lit by the Sun (Lambert with an ambient floor), the Sun itself
/// limb-darkened with an additive corona, Saturn's rings from the colour and alpha strips (with
/// the planet's shadow on them and theirs on the planet), then anti-aliased orbit lines and
/// mission overlays. Rows are split across cores; the image is the only image-sized buffer.
public struct RayCaster: Sendable {
    public let textures: TextureSet
    /// Light on the night side, as a fraction of full sunlight (linear).
    public var ambient: Float = 0.02
    /// Display exposure for sunlit surfaces and rings (linear gain; 1 maps albedo 1 to white).
    public var exposure: Float = 1.5
    /// Linear limb-darkening coefficient of the Sun's visible disc (u ≈ 0.6 in the V band).
    public var limbDarkening: Double = 0.6
    /// The viewer's four additive corona shells: radius in Sun radii and peak intensity.
    public var coronaLayers: [(radius: Double, intensity: Double)] = [(1.3, 0.55), (1.8, 0.3), (2.8, 0.16), (4.0, 0.08)]
    /// Bodies smaller than this on screen are drawn as dots of this radius (pixels).
    public var minimumPlanetRadiusPx = 1.5
    public var minimumMoonRadiusPx = 1.0

    public init(textures: TextureSet = .empty) {
        self.textures = textures
    }

    /// Renders the scene. Allocates the image and nothing per pixel.
    public func render(_ scene: ViewScene) -> RGBImage {
        var image = RGBImage(width: scene.camera.width, height: scene.camera.height)
        render(scene, into: &image)
        return image
    }

    /// Renders into an existing image of the camera's size (lets a caller reuse a buffer).
    public func render(_ scene: ViewScene, into image: inout RGBImage) {
        precondition(image.width == scene.camera.width && image.height == scene.camera.height, "image size must match the camera")
        let frame = Frame(scene: scene, caster: self)
        let width = image.width, height = image.height
        image.pixels.withUnsafeMutableBufferPointer { buf in
            let px = PixelBuffer(base: buf.baseAddress!, width: width, height: height)
            for i in 0..<buf.count { buf[i] = 0 }
            frame.drawStars(px)
            let bands = min(height, max(1, ProcessInfoLite.activeProcessorCount * 8))
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                let y0 = band * height / bands, y1 = (band + 1) * height / bands
                frame.traceRows(y0..<y1, px)
            }
            for o in scene.orbits { frame.drawPolyline(o, px) }
            for o in scene.overlays.polylines { frame.drawPolyline(o, px) }
            frame.drawDots(px)
            for m in scene.overlays.markers { frame.drawMarker(m, px) }
        }
    }
}

/// Processor count without Foundation.
enum ProcessInfoLite {
    static let activeProcessorCount: Int = {
        let n = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        return max(1, n)
    }()
}

/// The image's bytes, shared by the row workers (each writes only its own rows).
struct PixelBuffer: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
    let width: Int
    let height: Int

    /// Calls `body(offset, coverage)` for each pixel an anti-aliased disc of `radius` centred on
    /// (`x`, `y`) covers (offset of the pixel's red byte, coverage in (0, 1]).
    func disc(x cx: Double, y cy: Double, radius: Double, _ body: (Int, Float) -> Void) {
        let x0 = max(0, Int(cx - radius - 1)), x1 = min(width - 1, Int(cx + radius + 1))
        let y0 = max(0, Int(cy - radius - 1)), y1 = min(height - 1, Int(cy + radius + 1))
        guard x0 <= x1, y0 <= y1 else { return }
        for y in y0...y1 {
            for x in x0...x1 {
                let dx = Double(x) + 0.5 - cx, dy = Double(y) + 0.5 - cy
                let cov = Float(max(0, min(1, radius + 0.5 - (dx * dx + dy * dy).squareRoot())))
                guard cov > 0 else { continue }
                body((y * width + x) * 3, cov)
            }
        }
    }
}

/// A surface map's dimensions and bytes, without the owning reference.
struct SurfaceSampler {
    let width: Int
    let height: Int
    let data: UnsafePointer<UInt8>
    let meanLinear: SIMD3<Float>

    init(_ m: SurfaceMap) {
        width = m.width
        height = m.height
        data = UnsafePointer(m.data)
        meanLinear = m.meanLinear
    }
}

/// One body prepared for tracing.
struct TraceBody {
    let id: BodyID
    let center: Vector3
    let radius: Double
    /// Scene → model rotation (the inverse of the body's scene quaternion).
    let toModel: Matrix3
    /// The surface map's bytes (kept alive by the caster's `TextureSet` for the render): a
    /// plain pointer, so copying a TraceBody in the pixel loop costs no reference counting.
    let map: SurfaceSampler?
    let baseLinear: SIMD3<Float>
    let emissive: Bool
    let ring: RingPlane?
    /// Pixel bounds of the sphere (and ring), inclusive, clamped to the image.
    let x0: Int, x1: Int, y0: Int, y1: Int
    /// Screen centre, radius and the depth of its nearest point, for occlusion of lines and dots.
    let screen: ScreenPoint?
    let screenRadius: Double
}

/// Per-render state shared read-only by the row workers.
struct Frame: @unchecked Sendable {
    let scene: ViewScene
    let camera: ViewCamera
    let bodies: [TraceBody]
    let rings: RingProfile?
    let ambient: Float
    let exposure: Float
    let limbDarkening: Double
    let corona: [(radius: Double, intensity: Double)]
    let minPlanetPx: Double
    let minMoonPx: Double
    let sun: Vector3
    /// The Sun's screen centre and radius (nil when behind the camera) and its distance.
    let sunScreen: ScreenPoint?
    let sunScreenRadius: Double
    let sunDistance: Double
    let sunRadius: Double
    let sunLinear: SIMD3<Float>
    let ppu: Double
    let lin: UnsafePointer<Float>
    let enc: UnsafePointer<UInt8>

    init(scene: ViewScene, caster: RayCaster) {
        self.scene = scene
        camera = scene.camera
        rings = caster.textures.rings
        ambient = caster.ambient
        exposure = caster.exposure
        limbDarkening = caster.limbDarkening
        corona = caster.coronaLayers
        minPlanetPx = caster.minimumPlanetRadiusPx
        minMoonPx = caster.minimumMoonRadiusPx
        sun = scene.sunPosition
        ppu = scene.camera.pixelsPerUnit
        lin = ColorSpace.linearTable
        enc = ColorSpace.encodeTable
        let cam = scene.camera
        var bodies: [TraceBody] = []
        var sunBody: ViewBody?
        for b in scene.bodies {
            if b.emissive { sunBody = b }
            let bound = b.ring.map { max(b.radius, $0.outerRadius) } ?? b.radius
            guard let box = Frame.screenBounds(center: b.position, radius: bound, camera: cam) else { continue }
            let c = b.color
            bodies.append(TraceBody(
                id: b.id, center: b.position, radius: b.radius, toModel: b.quaternion.conjugate.matrix,
                map: caster.textures.surfaces[b.id].map { SurfaceSampler($0) },
                baseLinear: SIMD3(ColorSpace.linear(c.r), ColorSpace.linear(c.g), ColorSpace.linear(c.b)),
                emissive: b.emissive, ring: b.ring, x0: box.x0, x1: box.x1, y0: box.y0, y1: box.y1,
                screen: b.screen, screenRadius: b.screenRadius
            ))
        }
        self.bodies = bodies
        let s = sunBody
        sunRadius = s?.radius ?? 0
        sunScreen = s?.screen
        sunScreenRadius = s?.screenRadius ?? 0
        sunDistance = ((s?.position ?? .zero) - cam.eye).length
        let sc = s?.color ?? RGBColor(1, 0.9, 0.6)
        sunLinear = SIMD3(ColorSpace.linear(sc.r), ColorSpace.linear(sc.g), ColorSpace.linear(sc.b))
    }

    /// Exact pixel bounds of a sphere's projection: the tangent planes through the eye that
    /// contain the camera's up (for x) or right (for y) axis; nil when it is wholly behind the
    /// camera or off screen.
    static func screenBounds(center: Vector3, radius: Double, camera cam: ViewCamera) -> (x0: Int, x1: Int, y0: Int, y1: Int)? {
        let v = cam.viewSpace(center)
        func range(_ lateral: Double, scale: Double) -> (Double, Double)? {
            let fwd = -v.z
            let d = (lateral * lateral + fwd * fwd).squareRoot()
            if d <= radius { return fwd + radius > 0 ? (-Double.infinity, .infinity) : nil }
            let phi = atan2(lateral, fwd), alpha = asin(radius / d)
            let lo = phi - alpha, hi = phi + alpha
            if hi <= -Double.pi / 2 || lo >= Double.pi / 2 { return nil }
            let a = lo <= -Double.pi / 2 ? -Double.infinity : scale * tan(lo)
            let b = hi >= Double.pi / 2 ? Double.infinity : scale * tan(hi)
            return (a, b)
        }
        guard let xr = range(v.x, scale: cam.xScale), let yr = range(v.y, scale: cam.yScale) else { return nil }
        let w = Double(cam.width), h = Double(cam.height)
        let margin = 2.0
        let px0 = (xr.0 + 1) * 0.5 * w - margin, px1 = (xr.1 + 1) * 0.5 * w + margin
        let py0 = (1 - yr.1) * 0.5 * h - margin, py1 = (1 - yr.0) * 0.5 * h + margin
        guard px1 >= 0, py1 >= 0, px0 < w, py0 < h else { return nil }
        return (Int(max(0, px0)), Int(min(w - 1, px1)), Int(max(0, py0)), Int(min(h - 1, py1)))
    }

    @inline(__always) func encode(_ v: Float) -> UInt8 {
        let i = Int(max(0, min(1, v)) * Float(ColorSpace.encodeSteps))
        return enc[i]
    }

    // MARK: - Rows

    func traceRows(_ rows: Range<Int>, _ px: PixelBuffer) {
        var candidates: [Int] = []
        candidates.reserveCapacity(bodies.count)
        let cam = camera
        let eye = cam.eye
        let w = px.width
        let fw = Double(cam.width), fh = Double(cam.height)
        let glowReach = (corona.map(\.radius).max() ?? 0) * sunScreenRadius
        for y in rows {
            candidates.removeAll(keepingCapacity: true)
            for (i, b) in bodies.enumerated() where y >= b.y0 && y <= b.y1 { candidates.append(i) }
            let py = Double(y) + 0.5
            let ndcY = 1 - 2 * py / fh
            let rowDir = cam.basisUp * (ndcY / cam.yScale) - cam.basisBack
            var glowRow = false
            var sdy = 0.0
            if let s = sunScreen {
                sdy = py - s.y
                glowRow = abs(sdy) < glowReach
            }
            for x in 0..<w {
                let o = (y * w + x) * 3
                let pxc = Double(x) + 0.5
                var glow: Float = 0
                if glowRow, let s = sunScreen {
                    let dx = pxc - s.x
                    let r = (dx * dx + sdy * sdy).squareRoot() / sunScreenRadius
                    glow = coronaGlow(r)
                }
                var active = false
                for i in candidates where x >= bodies[i].x0 && x <= bodies[i].x1 { active = true; break }
                if !active {
                    if glow > 0 {
                        px.base[o] = encode(lin[Int(px.base[o])] + glow * sunLinear.x)
                        px.base[o + 1] = encode(lin[Int(px.base[o + 1])] + glow * sunLinear.y)
                        px.base[o + 2] = encode(lin[Int(px.base[o + 2])] + glow * sunLinear.z)
                    }
                    continue
                }
                let ndcX = 2 * pxc / fw - 1
                let d = (rowDir + cam.basisRight * (ndcX / cam.xScale)).normalized
                let background = SIMD3(lin[Int(px.base[o])], lin[Int(px.base[o + 1])], lin[Int(px.base[o + 2])])
                let c = shade(eye: eye, dir: d, x: x, candidates: candidates, background: background, glow: glow)
                px.base[o] = encode(c.x)
                px.base[o + 1] = encode(c.y)
                px.base[o + 2] = encode(c.z)
            }
        }
    }

    /// The corona, as the viewer draws it: nested additive radial gradients, bright centre to transparent edge.
    @inline(__always) func coronaGlow(_ r: Double) -> Float {
        var g = 0.0
        for layer in corona where r < layer.radius {
            let f = 1 - r / layer.radius
            g += layer.intensity * f * f
        }
        return Float(g)
    }

    /// Colour (linear) seen along one ray.
    func shade(eye: Vector3, dir d: Vector3, x: Int, candidates: [Int], background: SIMD3<Float>, glow: Float) -> SIMD3<Float> {
        // Nearest sphere, with edge coverage for anti-aliasing.
        var best = -1
        var bestT = Double.infinity, bestCoverage = 0.0
        var bestNormal = Vector3.zero, bestPoint = Vector3.zero
        var ringIndex = -1
        var ringT = Double.infinity, ringR = 0.0, ringFootprint = 0.0
        for i in candidates {
            let b = bodies[i]
            guard x >= b.x0 && x <= b.x1 else { continue }
            let oc = b.center - eye
            let tca = oc.dot(d)
            if let ring = b.ring {
                let denom = d.dot(ring.normal)
                if abs(denom) > 1e-12 {
                    let t = oc.dot(ring.normal) / denom
                    if t > 0, t < ringT {
                        let r = (eye + d * t - b.center).length
                        // A pixel's footprint on the ring plane, stretched as the ring turns edge-on.
                        let footprint = (t / ppu) / max(abs(denom), 0.02)
                        if r >= ring.innerRadius - footprint / 2 && r <= ring.outerRadius + footprint / 2 {
                            ringT = t; ringR = r; ringIndex = i; ringFootprint = footprint
                        }
                    }
                }
            }
            // Spheres behind the eye, or around it (a camera inside a body sees out of it).
            guard tca > 0, oc.lengthSquared > b.radius * b.radius else { continue }
            let d2 = oc.lengthSquared - tca * tca
            let footprint = tca / ppu
            let edge = b.radius + 0.5 * footprint
            guard d2 < edge * edge else { continue }
            let dist = max(0, d2).squareRoot()
            let coverage = max(0, min(1, (b.radius - dist) / footprint + 0.5))
            let r2 = b.radius * b.radius
            let t: Double, p: Vector3
            if d2 < r2 {
                t = tca - (r2 - d2).squareRoot()
                p = eye + d * t
            } else {
                t = tca
                let q = eye + d * tca
                p = b.center + (q - b.center).normalized * b.radius
            }
            if t < bestT {
                bestT = t; best = i; bestCoverage = coverage; bestPoint = p
                bestNormal = (p - b.center) / b.radius
            }
        }
        var behind = background
        let glowVec = sunLinear * glow
        if ringIndex >= 0, ringT > bestT || best < 0 {
            behind = ringOver(behind, ringIndex: ringIndex, point: eye + d * ringT, r: ringR, footprint: ringFootprint)
        }
        guard best >= 0 else {
            return ringT < .infinity ? behind + glowVec * (ringT > sunDistance - sunRadius * 4 ? 1 : 0) : background + glowVec
        }
        let b = bodies[best]
        var c = surface(b, point: bestPoint, normal: bestNormal, viewDir: d)
        c = behind + (c - behind) * Float(bestCoverage)
        if ringIndex >= 0, ringT <= bestT {
            c = ringOver(c, ringIndex: ringIndex, point: eye + d * ringT, r: ringR, footprint: ringFootprint)
        }
        if bestT > sunDistance - sunRadius * 4 { c += glowVec }
        return c
    }

    /// A sphere's colour at a surface point: texture (or catalogue colour) lit by the Sun.
    func surface(_ b: TraceBody, point p: Vector3, normal n: Vector3, viewDir d: Vector3) -> SIMD3<Float> {
        if b.emissive {
            let mu = max(0, -n.dot(d))
            let intensity = 1 - limbDarkening * (1 - mu)
            let core = sunLinear + (RayCaster.Tuning.sunCoreWhite - sunLinear) * Float(RayCaster.Tuning.sunCoreWhitening * mu)
            return core * Float(intensity * RayCaster.Tuning.sunDiscGain)
        }
        var albedo = b.baseLinear
        if let map = b.map {
            let m = b.toModel * n
            // Model frame: north +Y, prime meridian +X, east longitude toward −Z.
            let lon = atan2(-m.z, m.x)
            let lat = asin(max(-1, min(1, m.y)))
            let u = lon / (2 * Double.pi) + 0.5
            let v = 0.5 - lat / Double.pi
            albedo = sample(map, u: u, v: v)
        }
        let toSun = (sun - p).normalized
        var ndl = Float(max(0, n.dot(toSun)))
        // Saturn's rings cast their shadow on the planet.
        if ndl > 0, let ring = b.ring, let rp = rings {
            let denom = toSun.dot(ring.normal)
            if abs(denom) > 1e-9 {
                let t = (b.center - p).dot(ring.normal) / denom
                if t > 0 {
                    let r = (p + toSun * t - b.center).length
                    if r >= ring.innerRadius && r <= ring.outerRadius {
                        let a = ringAlpha(rp, u: (r - ring.innerRadius) / (ring.outerRadius - ring.innerRadius))
                        ndl *= 1 - RayCaster.Tuning.ringShadowDepth * a
                    }
                }
            }
        }
        return albedo * ((ambient + (1 - ambient) * ndl) * exposure)
    }

    @inline(__always) func sample(_ map: SurfaceSampler, u: Double, v: Double) -> SIMD3<Float> {
        let fu = u * Double(map.width) - 0.5
        let fv = max(0, min(Double(map.height - 1), v * Double(map.height) - 0.5))
        let xf = fu.rounded(.down), yf = fv.rounded(.down)
        let tx = Float(fu - xf), ty = Float(fv - yf)
        var x0 = Int(xf) % map.width
        if x0 < 0 { x0 += map.width }
        let x1 = x0 + 1 == map.width ? 0 : x0 + 1
        let y0 = Int(yf), y1 = min(map.height - 1, y0 + 1)
        let data = map.data
        @inline(__always) func texel(_ x: Int, _ y: Int) -> SIMD3<Float> {
            let i = (y * map.width + x) * 3
            return SIMD3(lin[Int(data[i])], lin[Int(data[i + 1])], lin[Int(data[i + 2])])
        }
        let top = texel(x0, y0) * (1 - tx) + texel(x1, y0) * tx
        let bottom = texel(x0, y1) * (1 - tx) + texel(x1, y1) * tx
        return top * (1 - ty) + bottom * ty
    }

    @inline(__always) func ringAlpha(_ rp: RingProfile, u: Double) -> Float {
        let f = max(0, min(Double(rp.count - 1), u * Double(rp.count) - 0.5))
        let i = Int(f), j = min(rp.count - 1, i + 1)
        let t = Float(f - Double(i))
        return rp.alpha[i] * (1 - t) + rp.alpha[j] * t
    }

    /// The ring at radius `r` composited over `under`: strip colour and alpha at radial u,
    /// darker on the face turned from the Sun, in the planet's shadow where it falls.
    func ringOver(_ under: SIMD3<Float>, ringIndex: Int, point p: Vector3, r: Double, footprint: Double) -> SIMD3<Float> {
        let b = bodies[ringIndex]
        guard let ring = b.ring else { return under }
        let span = ring.outerRadius - ring.innerRadius
        var color = RayCaster.Tuning.fallbackRingColor
        var alpha: Float = r >= ring.innerRadius && r <= ring.outerRadius ? RayCaster.Tuning.fallbackRingAlpha : 0
        if let rp = rings {
            let scale = Double(rp.count) / span
            let x0 = (r - footprint / 2 - ring.innerRadius) * scale
            let x1 = (r + footprint / 2 - ring.innerRadius) * scale
            // At least one texel wide: a bilinear-like minimum filter when close up.
            let mid = (x0 + x1) / 2, half = max(0.5, (x1 - x0) / 2)
            let f = rp.boxFiltered(mid - half, mid + half)
            alpha = min(1, f.alpha)
            color = f.alpha > 1e-6 ? f.premultiplied / f.alpha : color
        }
        guard alpha > 0 else { return under }
        let toSun = (sun - p).normalized
        var light: Float = 1
        // The unlit face shows only light scattered through the ring.
        let sunSide = toSun.dot(ring.normal), eyeSide = (camera.eye - p).dot(ring.normal)
        if sunSide * eyeSide < 0 { light = RayCaster.Tuning.ringUnlitFaceLight }
        // The planet's shadow.
        let oc = p - b.center
        let bq = oc.dot(toSun)
        if bq < 0, bq * bq - (oc.lengthSquared - b.radius * b.radius) > 0 { light = ambient * 2 }
        return under * (1 - alpha) + color * (light * exposure * alpha)
    }

    // MARK: - Stars, lines, dots

    /// Stars as anti-aliased discs of the catalogue's point size, B−V coloured, fainter ones dimmer.
    func drawStars(_ px: PixelBuffer) {
        let w = Double(px.width), h = Double(px.height)
        for s in scene.stars {
            guard let p = camera.projectDirection(s.direction), p.x > -4, p.y > -4, p.x < w + 4, p.y < h + 4 else { continue }
            let radius = max(0.5, s.size / 2)
            let brightness = max(0.3, min(1, 1 - (s.magnitude - 1) / 7))
            let color = SIMD3(Float(s.color.r), Float(s.color.g), Float(s.color.b)) * Float(brightness) * 255
            px.disc(x: p.x, y: p.y, radius: radius) { o, cov in
                px.base[o] = UInt8(min(255, Float(px.base[o]) + color.x * cov))
                px.base[o + 1] = UInt8(min(255, Float(px.base[o + 1]) + color.y * cov))
                px.base[o + 2] = UInt8(min(255, Float(px.base[o + 2]) + color.z * cov))
            }
        }
    }

    /// True when a body's surface lies in front of the point at the pixel (for lines and dots
    /// drawn after tracing): the sphere's depth there taken as its centre's less the radius
    /// times √(1 − q²), q the pixel's distance from the disc's centre in disc radii. A line
    /// hugging a planet (an orbiter 300 km up) is hidden only where it passes behind it, not
    /// wherever it crosses the disc beyond the sphere's nearest point.
    @inline(__always) func occluded(x: Double, y: Double, depth: Double, except: BodyID? = nil) -> Bool {
        for b in bodies where b.id != except {
            guard let s = b.screen, s.depth - b.radius < depth, b.screenRadius > 0.5 else { continue }
            let dx = x - s.x, dy = y - s.y
            let q2 = (dx * dx + dy * dy) / (b.screenRadius * b.screenRadius)
            if q2 < 1, depth > s.depth - b.radius * (1 - q2).squareRoot() { return true }
        }
        return false
    }

    /// An anti-aliased polyline (coverage from the distance to each segment), hidden where a
    /// nearer sphere covers it.
    func drawPolyline(_ line: ViewPolyline, _ px: PixelBuffer) {
        let pts = line.points
        guard pts.count >= 2 else { return }
        let count = line.closed ? pts.count : pts.count - 1
        let hw = max(0.5, line.width / 2)
        let color = SIMD3(Float(line.color.r), Float(line.color.g), Float(line.color.b)) * 255
        let opacity = Float(max(0, min(1, line.opacity)))
        let w = Double(px.width), h = Double(px.height)
        for i in 0..<count {
            guard let (a, b) = camera.projectSegment(pts[i], pts[(i + 1) % pts.count]) else { continue }
            // Skip segments wholly off screen (and absurdly long ones from near-plane clipping).
            let minX = min(a.x, b.x) - hw - 1, maxX = max(a.x, b.x) + hw + 1
            let minY = min(a.y, b.y) - hw - 1, maxY = max(a.y, b.y) + hw + 1
            guard maxX >= 0, maxY >= 0, minX < w, minY < h else { continue }
            let dx = b.x - a.x, dy = b.y - a.y
            let len2 = dx * dx + dy * dy
            let steep = abs(dy) > abs(dx)
            // Walk the major axis; cover a few pixels across it.
            let (m0, m1) = steep ? (max(0, minY), min(h - 1, maxY)) : (max(0, minX), min(w - 1, maxX))
            guard m0 <= m1 else { continue }
            let across = Int((hw + 1.5) * (len2 > 0 ? (len2.squareRoot() / max(abs(steep ? dy : dx), 1e-9)) : 1).rounded(.up))
            for m in Int(m0)...Int(m1) {
                let mc = Double(m) + 0.5
                // Point of the segment at this major coordinate.
                let t0 = steep ? (abs(dy) > 1e-12 ? (mc - a.y) / dy : 0) : (abs(dx) > 1e-12 ? (mc - a.x) / dx : 0)
                let tc = max(0, min(1, t0))
                let center = steep ? a.x + dx * tc : a.y + dy * tc
                let lo = Int(center) - across, hi = Int(center) + across
                for n in lo...hi {
                    let x = steep ? n : m, y = steep ? m : n
                    guard x >= 0, y >= 0, x < px.width, y < px.height else { continue }
                    let pxc = Double(x) + 0.5, pyc = Double(y) + 0.5
                    let t = len2 > 0 ? max(0, min(1, ((pxc - a.x) * dx + (pyc - a.y) * dy) / len2)) : 0
                    let qx = a.x + dx * t - pxc, qy = a.y + dy * t - pyc
                    let dist = (qx * qx + qy * qy).squareRoot()
                    let cov = Float(max(0, min(1, hw + 0.5 - dist))) * opacity
                    guard cov > RayCaster.Tuning.minimumLineCoverage else { continue }
                    let depth = a.depth + (b.depth - a.depth) * t
                    if occluded(x: pxc, y: pyc, depth: depth) { continue }
                    let o = (y * px.width + x) * 3
                    px.base[o] = UInt8(Float(px.base[o]) * (1 - cov) + color.x * cov)
                    px.base[o + 1] = UInt8(Float(px.base[o + 1]) * (1 - cov) + color.y * cov)
                    px.base[o + 2] = UInt8(Float(px.base[o + 2]) * (1 - cov) + color.z * cov)
                }
            }
        }
    }

    /// A vehicle's marker: a ring 3.5 px across the middle, 1.5 px wide, hidden behind a nearer body.
    func drawMarker(_ m: OverlayMarker, _ px: PixelBuffer) {
        guard let p = camera.project(m.position), !occluded(x: p.x, y: p.y, depth: p.depth) else { return }
        let color = SIMD3(Float(m.color.r), Float(m.color.g), Float(m.color.b)) * 255
        let x0 = max(0, Int(p.x - 6)), x1 = min(px.width - 1, Int(p.x + 6))
        let y0 = max(0, Int(p.y - 6)), y1 = min(px.height - 1, Int(p.y + 6))
        guard x0 <= x1, y0 <= y1 else { return }
        for y in y0...y1 {
            for x in x0...x1 {
                let d = ((Double(x) + 0.5 - p.x) * (Double(x) + 0.5 - p.x) + (Double(y) + 0.5 - p.y) * (Double(y) + 0.5 - p.y)).squareRoot()
                let cov = Float(max(0, min(1, 0.75 + 0.5 - abs(d - 3.5))))
                guard cov > 0 else { continue }
                let o = (y * px.width + x) * 3
                px.base[o] = UInt8(Float(px.base[o]) * (1 - cov) + color.x * cov)
                px.base[o + 1] = UInt8(Float(px.base[o + 1]) * (1 - cov) + color.y * cov)
                px.base[o + 2] = UInt8(Float(px.base[o + 2]) * (1 - cov) + color.z * cov)
            }
        }
    }

    /// Bodies smaller than a pixel or two become dots in their mean colour, lit by their phase.
    func drawDots(_ px: PixelBuffer) {
        for b in bodies where !b.emissive {
            guard let s = b.screen else { continue }
            let minR = b.id.isSatellite ? minMoonPx : minPlanetPx
            guard b.screenRadius < minR else { continue }
            if occluded(x: s.x, y: s.y, depth: s.depth, except: b.id) { continue }
            let toSun = (sun - b.center).normalized, toEye = (camera.eye - b.center).normalized
            let phase = Float((1 + toSun.dot(toEye)) / 2)
            let albedo = b.map?.meanLinear ?? b.baseLinear
            // Brighten toward the catalogue look: a dot stands for a whole lit disc.
            let c = albedo * (RayCaster.Tuning.dotPhaseFloor + RayCaster.Tuning.dotPhaseGain * phase) * RayCaster.Tuning.dotGain
            let enc = SIMD3(Float(encode(c.x)), Float(encode(c.y)), Float(encode(c.z)))
            px.disc(x: s.x, y: s.y, radius: minR) { o, cov in
                px.base[o] = UInt8(Float(px.base[o]) * (1 - cov) + enc.x * cov)
                px.base[o + 1] = UInt8(Float(px.base[o + 1]) * (1 - cov) + enc.y * cov)
                px.base[o + 2] = UInt8(Float(px.base[o + 2]) * (1 - cov) + enc.z * cov)
            }
        }
    }
}
