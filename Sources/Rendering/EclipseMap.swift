import Glibc

/// A solar eclipse drawn on a world map (equirectangular: longitude −180°…180° left to right,
/// latitude 90°…−90° top to bottom): the Earth's surface map, the curves of the path, the point
/// of greatest eclipse and the central line's times. The geometry comes in as plain numbers, so
/// this layer knows nothing about eclipses beyond what to draw.
public struct EclipseMap: Sendable {
    public struct Curve: Sendable {
        public let name: String
        public let color: RGBColor
        public let width: Double
        /// Segments of (latitude, longitude) in degrees.
        public let segments: [[(latitudeDeg: Double, longitudeDeg: Double)]]
        public init(name: String, color: RGBColor, width: Double, segments: [[(latitudeDeg: Double, longitudeDeg: Double)]]) {
            self.name = name; self.color = color; self.width = width; self.segments = segments
        }
    }

    public struct Label: Sendable {
        public let latitudeDeg: Double
        public let longitudeDeg: Double
        public let text: String
        public init(latitudeDeg: Double, longitudeDeg: Double, text: String) {
            self.latitudeDeg = latitudeDeg; self.longitudeDeg = longitudeDeg; self.text = text
        }
    }

    public let title: String
    public let curves: [Curve]
    public let greatest: Label
    public let timeLabels: [Label]
    public let width: Int
    public let height: Int

    public init(title: String, curves: [Curve], greatest: Label, timeLabels: [Label], width: Int, height: Int) {
        self.title = title; self.curves = curves; self.greatest = greatest; self.timeLabels = timeLabels
        self.width = width; self.height = height
    }

    /// Sizes a map may be drawn at (pixels).
    public static let widthRange = 256...4096

    @inline(__always) func x(_ lon: Double) -> Double { (lon + 180) / 360 * Double(width) }
    @inline(__always) func y(_ lat: Double) -> Double { (90 - lat) / 180 * Double(height) }

    /// The segments as pixel polylines, broken where a segment crosses the date line.
    func polylines(_ curve: Curve) -> [[(x: Double, y: Double)]] {
        var out: [[(x: Double, y: Double)]] = []
        for segment in curve.segments {
            var line: [(x: Double, y: Double)] = []
            var last: Double?
            for p in segment {
                if let l = last, abs(p.longitudeDeg - l) > 180 { if line.count > 1 { out.append(line) }; line = [] }
                line.append((x(p.longitudeDeg), y(p.latitudeDeg)))
                last = p.longitudeDeg
            }
            if line.count > 1 { out.append(line) } else if line.count == 1 { out.append(line + line) }
        }
        return out
    }

    /// The time labels that fit: each at least 48 pixels from the last one kept and from the
    /// point of greatest eclipse (where the shadow is slowest they would overprint).
    func placedLabels() -> [Label] {
        var kept: [Label] = []
        var last = (x(greatest.longitudeDeg), y(greatest.latitudeDeg))
        let g = last
        for l in timeLabels {
            let p = (x(l.longitudeDeg), y(l.latitudeDeg))
            guard hypot(p.0 - last.0, p.1 - last.1) >= 48, hypot(p.0 - g.0, p.1 - g.1) >= 48 else { continue }
            kept.append(l)
            last = p
        }
        return kept
    }

    // MARK: - Raster

    /// The map as an image over `earth` (the server's Earth surface map; nil: a plain ocean
    /// blue), dimmed so the curves read.
    public func raster(earth: SurfaceMap?) -> RGBImage {
        var image = RGBImage(width: width, height: height)
        let texels = earth?.data
        for py in 0..<height {
            for px in 0..<width {
                var c = (r: UInt8(20), g: UInt8(40), b: UInt8(70))
                if let earth, let texels {
                    let sx = min(earth.width - 1, px * earth.width / width), sy = min(earth.height - 1, py * earth.height / height)
                    let i = (sy * earth.width + sx) * 3
                    c = (texels[i], texels[i + 1], texels[i + 2])
                }
                let o = (py * width + px) * 3
                image.pixels[o] = UInt8(Double(c.r) * 0.62); image.pixels[o + 1] = UInt8(Double(c.g) * 0.62); image.pixels[o + 2] = UInt8(Double(c.b) * 0.62)
            }
        }
        // The graticule every 30°.
        let grid = RGBColor(0.75, 0.78, 0.82)
        for lon in stride(from: -180.0, through: 180, by: 30) { line(&image, (x(lon), 0), (x(lon), Double(height)), grid, 1, 0.18) }
        for lat in stride(from: -60.0, through: 60, by: 30) { line(&image, (0, y(lat)), (Double(width), y(lat)), grid, 1, 0.18) }
        for curve in curves {
            for poly in polylines(curve) {
                for (a, b) in zip(poly, poly.dropFirst()) { line(&image, a, b, curve.color, curve.width, 0.95) }
            }
        }
        let g = (x(greatest.longitudeDeg), y(greatest.latitudeDeg))
        for r in [5.0, 6.0] { circle(&image, g, r, RGBColor(1, 1, 1)) }
        TextRenderer.draw(greatest.text, left: Int(g.0) + 9, baseline: Int(g.1) - 6, color: .white, opacity: 1, into: &image)
        for l in placedLabels() {
            let p = (x(l.longitudeDeg), y(l.latitudeDeg))
            circle(&image, p, 2, RGBColor(1, 0.85, 0.3))
            TextRenderer.draw(l.text, left: Int(p.0) + 5, baseline: Int(p.1) + 14, color: RGBColor(1, 0.9, 0.55), opacity: 1, into: &image)
        }
        TextRenderer.draw(title, left: 12, baseline: 20, color: .white, opacity: 1, into: &image)
        var legendY = height - 12 - 15 * (curves.count - 1)
        for curve in curves {
            line(&image, (12, Double(legendY - 4)), (36, Double(legendY - 4)), curve.color, 2, 1)
            TextRenderer.draw(curve.name, left: 42, baseline: legendY, color: RGBColor(0.9, 0.92, 0.95), opacity: 1, into: &image)
            legendY += 15
        }
        return image
    }

    /// A line of `width` pixels, drawn as overlapping discs every half pixel.
    func line(_ image: inout RGBImage, _ a: (Double, Double), _ b: (Double, Double), _ color: RGBColor, _ width: Double, _ alpha: Double) {
        let length = hypot(b.0 - a.0, b.1 - a.1)
        let n = max(1, Int(length * 2))
        let r = width / 2
        for k in 0...n {
            let f = Double(k) / Double(n)
            let cx = a.0 + (b.0 - a.0) * f, cy = a.1 + (b.1 - a.1) * f
            for py in Int((cy - r).rounded(.down))...Int((cy + r).rounded(.up)) {
                for px in Int((cx - r).rounded(.down))...Int((cx + r).rounded(.up)) where hypot(Double(px) + 0.5 - cx, Double(py) + 0.5 - cy) <= r + 0.5 {
                    TextRenderer.blend(&image, x: px, y: py, color: color, alpha: alpha)
                }
            }
        }
    }

    func circle(_ image: inout RGBImage, _ c: (Double, Double), _ r: Double, _ color: RGBColor) {
        let n = max(16, Int(r * 8))
        for k in 0..<n {
            let a0 = 2 * Double.pi * Double(k) / Double(n), a1 = 2 * Double.pi * Double(k + 1) / Double(n)
            line(&image, (c.0 + r * cos(a0), c.1 + r * sin(a0)), (c.0 + r * cos(a1), c.1 + r * sin(a1)), color, 1.5, 1)
        }
    }

    // MARK: - SVG

    /// The map as SVG over the Earth's surface map at `earthHref` (the server's
    /// `/v1/textures/earth.png`).
    public func svg(earthHref: String?) -> String {
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">\n"
        s += "<rect width=\"\(width)\" height=\"\(height)\" fill=\"#142846\"/>\n"
        if let earthHref {
            s += "<image href=\"\(Self.escaped(earthHref))\" x=\"0\" y=\"0\" width=\"\(width)\" height=\"\(height)\" preserveAspectRatio=\"none\" opacity=\"0.62\"/>\n"
        }
        s += "<g stroke=\"#c0c8d0\" stroke-opacity=\"0.2\" stroke-width=\"1\">"
        for lon in stride(from: -180.0, through: 180, by: 30) { s += "<line x1=\"\(Self.f(x(lon)))\" y1=\"0\" x2=\"\(Self.f(x(lon)))\" y2=\"\(height)\"/>" }
        for lat in stride(from: -60.0, through: 60, by: 30) { s += "<line x1=\"0\" y1=\"\(Self.f(y(lat)))\" x2=\"\(width)\" y2=\"\(Self.f(y(lat)))\"/>" }
        s += "</g>\n"
        for curve in curves {
            s += "<g class=\"\(Self.escaped(curve.name))\" fill=\"none\" stroke=\"\(curve.color.hex)\" stroke-width=\"\(Self.f(curve.width))\" stroke-linejoin=\"round\">"
            for poly in polylines(curve) {
                s += "<polyline points=\"" + poly.map { "\(Self.f($0.x)),\(Self.f($0.y))" }.joined(separator: " ") + "\"/>"
            }
            s += "</g>\n"
        }
        for l in placedLabels() {
            s += "<circle cx=\"\(Self.f(x(l.longitudeDeg)))\" cy=\"\(Self.f(y(l.latitudeDeg)))\" r=\"2\" fill=\"#ffd84d\"/>"
            s += "<text x=\"\(Self.f(x(l.longitudeDeg) + 5))\" y=\"\(Self.f(y(l.latitudeDeg) + 14))\" font-family=\"monospace\" font-size=\"11\" fill=\"#ffe68c\">\(Self.escaped(l.text))</text>\n"
        }
        let gx = Self.f(x(greatest.longitudeDeg)), gy = Self.f(y(greatest.latitudeDeg))
        s += "<circle cx=\"\(gx)\" cy=\"\(gy)\" r=\"6\" fill=\"none\" stroke=\"#ffffff\" stroke-width=\"2\"/>"
        s += "<text x=\"\(Self.f(x(greatest.longitudeDeg) + 9))\" y=\"\(Self.f(y(greatest.latitudeDeg) - 6))\" font-family=\"monospace\" font-size=\"12\" fill=\"#ffffff\">\(Self.escaped(greatest.text))</text>\n"
        s += "<text x=\"12\" y=\"20\" font-family=\"monospace\" font-size=\"13\" fill=\"#ffffff\">\(Self.escaped(title))</text>\n"
        var legendY = height - 12 - 15 * (curves.count - 1)
        for curve in curves {
            s += "<line x1=\"12\" y1=\"\(legendY - 4)\" x2=\"36\" y2=\"\(legendY - 4)\" stroke=\"\(curve.color.hex)\" stroke-width=\"2\"/>"
            s += "<text x=\"42\" y=\"\(legendY)\" font-family=\"monospace\" font-size=\"11\" fill=\"#e6ebf2\">\(Self.escaped(curve.name))</text>\n"
            legendY += 15
        }
        return s + "</svg>\n"
    }

    static func f(_ v: Double) -> String { String(Double((v * 10).rounded()) / 10) }

    static func escaped(_ s: String) -> String { SVGWriter.escape(s) }
}
