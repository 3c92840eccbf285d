import Glibc
import Ephemeris
import Synchronization

/// Saturn's ring strips collapsed to one radial profile (u = 0 inner edge … 1 outer edge):
/// colour (linear light) and opacity per texel column.
public struct RingProfile: Sendable {
    public let count: Int
    /// Interleaved r, g, b in linear light, 0…1.
    public let rgb: [Float]
    public let alpha: [Float]

    /// Averages every column of the colour strip (P6) and the alpha strip (P5, resampled to
    /// the colour strip's width when they differ).
    public init(color: Texture, alpha a: Texture) {
        let n = color.width
        var rgb = [Float](repeating: 0, count: n * 3)
        let lut = ColorSpace.linearFromSRGB
        var alpha = [Float](repeating: 0, count: n)
        for x in 0..<n {
            var s = SIMD3<Float>(0, 0, 0)
            for y in 0..<color.height {
                let i = (y * color.width + x) * color.channels
                if color.channels >= 3 {
                    s += SIMD3(lut[Int(color.pixels[i])], lut[Int(color.pixels[i + 1])], lut[Int(color.pixels[i + 2])])
                } else {
                    s += SIMD3(repeating: lut[Int(color.pixels[i])])
                }
            }
            s /= Float(color.height)
            rgb[x * 3] = s.x; rgb[x * 3 + 1] = s.y; rgb[x * 3 + 2] = s.z
            let ax = min(a.width - 1, x * a.width / n)
            var t: Float = 0
            for y in 0..<a.height { t += Float(a.pixels[(y * a.width + ax) * a.channels]) }
            alpha[x] = t / (Float(a.height) * 255)
        }
        count = n
        self.rgb = rgb
        self.alpha = alpha
        var ca = [Double](repeating: 0, count: n + 1)
        var cp = [Double](repeating: 0, count: 3 * (n + 1))
        for x in 0..<n {
            let a = Double(alpha[x])
            ca[x + 1] = ca[x] + a
            for k in 0..<3 { cp[3 * (x + 1) + k] = cp[3 * x + k] + a * Double(rgb[3 * x + k]) }
        }
        cumulativeAlpha = ca
        cumulativePremultiplied = cp
    }

    /// Running sums of alpha and of alpha × colour, for box-filtered lookups.
    let cumulativeAlpha: [Double]
    let cumulativePremultiplied: [Double]

    /// The profile averaged over texel coordinates [x0, x1] (in 0…count; outside is empty
    /// ring): premultiplied colour and coverage, so a footprint wider than a texel (an
    /// edge-on ring far away) does not alias, and the edges fade out smoothly.
    @inline(__always) func boxFiltered(_ x0: Double, _ x1: Double) -> (premultiplied: SIMD3<Float>, alpha: Float) {
        let width = max(x1 - x0, 1e-9)
        let n = Double(count)
        let a = max(0, min(n, x0)), b = max(0, min(n, x1))
        guard b > a else { return (SIMD3(0, 0, 0), 0) }
        @inline(__always) func integral(_ x: Double) -> (Double, SIMD3<Double>) {
            let i = min(count - 1, Int(x))
            let f = x - Double(i)
            let al = cumulativeAlpha[i] + f * Double(alpha[i])
            let pa = Double(alpha[i]) * f
            let c = SIMD3(
                cumulativePremultiplied[3 * i] + pa * Double(rgb[3 * i]),
                cumulativePremultiplied[3 * i + 1] + pa * Double(rgb[3 * i + 1]),
                cumulativePremultiplied[3 * i + 2] + pa * Double(rgb[3 * i + 2])
            )
            return (al, c)
        }
        let (a1, c1) = integral(b), (a0, c0) = integral(a)
        let c = (c1 - c0) / width
        return (SIMD3(Float(c.x), Float(c.y), Float(c.z)), Float((a1 - a0) / width))
    }
}

/// An equirectangular RGB surface map whose pixels sit in one immutable heap block, so the ray
/// caster can sample it through a raw pointer from every thread (u: longitude −180°…+180° east
/// from the left edge, v: latitude +90° at the top … −90°).
///
/// A map made from its file's bytes (``init(_:encoded:)``, as ``TextureSet/decode(files:)``
/// makes them) keeps only those bytes and its mean colour until a picture first needs the
/// pixels: a 1024 × 512 map is 1.5 MiB decoded and about half that as the gzip'd file, and a
/// server that never draws a view or a texture never holds the fourteen decoded maps (21 MiB).
/// The first ``data`` decodes them again (the bytes decoded once already, so it cannot fail)
/// and keeps them for the map's lifetime.
public final class SurfaceMap: @unchecked Sendable {
    public let width: Int
    public let height: Int
    /// Mean colour in linear light (for bodies too small to show their texture).
    public let meanLinear: SIMD3<Float>
    /// The file's bytes, until the pixels are first needed (nil for a map made from pixels).
    private let encoded: [UInt8]?
    private let pixels: Mutex<UnsafeMutablePointer<UInt8>?>

    /// A map of `t`. Without `encoded` it holds `t`'s pixels from the start; with the bytes `t`
    /// was decoded from, it lets `t`'s pixels go and decodes `encoded` again when they are first
    /// needed.
    public init(_ t: Texture, encoded: [UInt8]? = nil) {
        precondition(t.channels == 3, "surface maps are RGB")
        width = t.width
        height = t.height
        meanLinear = Self.mean(t)
        self.encoded = encoded
        pixels = Mutex(encoded == nil ? Self.copy(t.pixels) : nil)
    }

    /// Whether the pixels are decoded and held now.
    public var isDecoded: Bool { pixels.withLock { $0 != nil } }

    /// The pixels, row by row from the top, 3 bytes a texel; decoded on first use. Valid for
    /// the map's lifetime: read it once per picture, not per texel (it takes a lock).
    var data: UnsafePointer<UInt8> {
        pixels.withLock { held in
            if let p = held { return UnsafePointer(p) }
            let count = width * height * 3
            let decoded = encoded.flatMap { try? TextureDecoder.decode($0) }
            let p: UnsafeMutablePointer<UInt8>
            if let decoded, decoded.width == width, decoded.height == height, decoded.channels == 3 {
                p = Self.copy(decoded.pixels)
            } else {
                // Unreachable (the same bytes decoded at init); the mean colour, never a trap.
                let c = (0..<3).map { ColorSpace.srgbFromLinear[Int(max(0, min(1, meanLinear[$0])) * Float(ColorSpace.encodeSteps))] }
                p = .allocate(capacity: count)
                for i in 0..<count { p[i] = c[i % 3] }
            }
            held = p
            return UnsafePointer(p)
        }
    }

    private static func copy(_ bytes: [UInt8]) -> UnsafeMutablePointer<UInt8> {
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
        p.initialize(from: bytes, count: bytes.count)
        return p
    }

    /// The equal-area mean of the sphere's colour, linear light.
    private static func mean(_ t: Texture) -> SIMD3<Float> {
        var sum = SIMD3<Double>(0, 0, 0)
        var weight = 0.0
        let lut = ColorSpace.linearFromSRGB
        for y in 0..<t.height {
            // Weight rows by cos(latitude): equal-area mean of the sphere.
            let lat = (0.5 - (Double(y) + 0.5) / Double(t.height)) * Double.pi
            let wgt = cos(lat)
            var row = SIMD3<Double>(0, 0, 0)
            for x in 0..<t.width {
                let i = (y * t.width + x) * 3
                row += SIMD3(Double(lut[Int(t.pixels[i])]), Double(lut[Int(t.pixels[i + 1])]), Double(lut[Int(t.pixels[i + 2])]))
            }
            sum += row * wgt
            weight += wgt * Double(t.width)
        }
        let m = sum / max(weight, 1)
        return SIMD3(Float(m.x), Float(m.y), Float(m.z))
    }

    deinit { pixels.withLock { $0?.deallocate() } }
}

/// The textures a ray-cast view uses, decoded once and shared by every render.
public struct TextureSet: Sendable {
    public let surfaces: [BodyID: SurfaceMap]
    public let rings: RingProfile?
    /// Saturn's ring strips as one RGBA image (colour with the opacity strip as alpha), kept for
    /// clients that draw the rings themselves (`/v1/textures/saturn-rings.png`).
    public let ringStrip: Texture?

    public init(surfaces: [BodyID: SurfaceMap] = [:], rings: RingProfile? = nil, ringStrip: Texture? = nil) {
        self.surfaces = surfaces
        self.rings = rings
        self.ringStrip = ringStrip
    }

    public static let empty = TextureSet()

    /// File names under `Resources/textures/` and the bodies they cover.
    public static let surfaceFiles: [(body: BodyID, file: String)] = [
        (.mercury, "mercury.ppm.gz"), (.venus, "venus.ppm.gz"), (.earth, "earth.ppm.gz"), (.mars, "mars.ppm.gz"),
        (.jupiter, "jupiter.ppm.gz"), (.saturn, "saturn.ppm.gz"), (.uranus, "uranus.ppm.gz"), (.neptune, "neptune.ppm.gz"),
        (.pluto, "pluto.ppm.gz"), (.moon, "moon.ppm.gz"), (.io, "io.ppm.gz"), (.europa, "europa.ppm.gz"),
        (.ganymede, "ganymede.ppm.gz"), (.callisto, "callisto.ppm.gz"),
    ]
    public static let ringColorFile = "saturn_rings.ppm.gz"
    public static let ringAlphaFile = "saturn_rings_alpha.pgm.gz"

    /// Decodes the files it knows from `files` (file name → bytes, e.g. read from
    /// `Resources/textures/`). Missing files leave those bodies in their catalogue colour; a
    /// file that is present but undecodable throws, naming it.
    public static func decode(files: [String: [UInt8]]) throws(TextureSetError) -> TextureSet {
        var surfaces: [BodyID: SurfaceMap] = [:]
        for (body, file) in surfaceFiles {
            guard let bytes = files[file] else { continue }
            let t: Texture
            do { t = try TextureDecoder.decode(bytes) } catch { throw TextureSetError(file: file, underlying: error) }
            guard t.channels == 3 else { throw TextureSetError(file: file, underlying: .unsupportedFormat("surface maps must be RGB (P6)")) }
            surfaces[body] = SurfaceMap(t, encoded: bytes)
        }
        var rings: RingProfile?
        var strip: Texture?
        if let c = files[ringColorFile], let a = files[ringAlphaFile] {
            let color: Texture, alpha: Texture
            do { color = try TextureDecoder.decode(c) } catch { throw TextureSetError(file: ringColorFile, underlying: error) }
            do { alpha = try TextureDecoder.decode(a) } catch { throw TextureSetError(file: ringAlphaFile, underlying: error) }
            rings = RingProfile(color: color, alpha: alpha)
            strip = Self.rgba(color: color, alpha: alpha)
        }
        return TextureSet(surfaces: surfaces, rings: rings, ringStrip: strip)
    }

    /// The colour strip with the opacity strip as its alpha channel (nearest texel where the two
    /// sizes differ; a grey colour strip is spread to RGB).
    static func rgba(color: Texture, alpha: Texture) -> Texture {
        let (w, h) = (color.width, color.height)
        var px = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            let ay = min(alpha.height - 1, y * alpha.height / h)
            for x in 0..<w {
                let ax = min(alpha.width - 1, x * alpha.width / w)
                let ci = (y * w + x) * color.channels, o = (y * w + x) * 4
                for k in 0..<3 { px[o + k] = color.pixels[ci + (color.channels >= 3 ? k : 0)] }
                px[o + 3] = alpha.pixels[(ay * alpha.width + ax) * alpha.channels]
            }
        }
        return Texture(width: w, height: h, channels: 4, pixels: px)
    }

    /// Every file name `decode(files:)` looks for.
    public static var fileNames: [String] { surfaceFiles.map(\.file) + [ringColorFile, ringAlphaFile] }
}

public struct TextureSetError: Error, Sendable, CustomStringConvertible {
    public let file: String
    public let underlying: TextureError
    public var description: String { "texture \(file): \(underlying)" }
}
