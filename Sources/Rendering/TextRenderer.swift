/// Text on raster images with the 6×13 fixed font: the labels and the caption the SVG draws as
/// `<text>`, so PNG and PPM views carry them too. Each glyph gets a dark 1-pixel shadow so it
/// reads over stars, orbits and lit discs.
enum TextRenderer {
    /// Draws `text` centred on `centerX` with its baseline at `baseline` (pixels, top-left origin).
    static func draw(_ text: String, centerX: Double, baseline: Double, color: RGBColor, opacity: Double, into image: inout RGBImage) {
        let width = Double(text.utf8.count * FixedFont6x13.width)
        draw(text, left: Int((centerX - width / 2).rounded()), baseline: Int(baseline.rounded()), color: color, opacity: opacity, into: &image)
    }

    /// Draws `text` with its left edge at `left` and its baseline at `baseline`.
    static func draw(_ text: String, left: Int, baseline: Int, color: RGBColor, opacity: Double, into image: inout RGBImage) {
        let top = baseline - FixedFont6x13.ascent
        let shadow = RGBColor(0, 0, 0)
        for (dx, dy, c, a) in [(1, 1, shadow, opacity * 0.7), (0, 0, color, opacity)] {
            var x = left + dx
            for byte in text.utf8 {
                let code = (FixedFont6x13.firstCharacter...FixedFont6x13.lastCharacter).contains(byte) ? byte : UInt8(ascii: "?")
                let base = Int(code - FixedFont6x13.firstCharacter) * FixedFont6x13.height
                for row in 0..<FixedFont6x13.height {
                    let bits = FixedFont6x13.rows[base + row]
                    guard bits != 0 else { continue }
                    let y = top + dy + row
                    guard y >= 0, y < image.height else { continue }
                    for col in 0..<FixedFont6x13.width where bits & (0x80 >> UInt8(col)) != 0 {
                        blend(&image, x: x + col, y: y, color: c, alpha: a)
                    }
                }
                x += FixedFont6x13.width
            }
        }
    }

    @inline(__always) static func blend(_ image: inout RGBImage, x: Int, y: Int, color: RGBColor, alpha: Double) {
        guard x >= 0, x < image.width, y >= 0, y < image.height else { return }
        let i = (y * image.width + x) * 3
        let a = min(max(alpha, 0), 1)
        for (k, v) in [color.r, color.g, color.b].enumerated() {
            let old = Double(image.pixels[i + k]) / 255
            let new = old * (1 - a) + min(max(v, 0), 1) * a
            image.pixels[i + k] = UInt8((new * 255).rounded())
        }
    }

    /// The labels placed for `scene` and its caption, in the SVG's colours.
    static func drawLabels(of scene: ViewScene, into image: inout RGBImage) {
        for l in scene.labels {
            let (color, opacity): (RGBColor, Double)
            switch l.kind {
            case .planet: (color, opacity) = (.white, 0.92)
            case .moon: (color, opacity) = (RGBColor(0.78, 0.82, 0.85), 0.8)
            case .star: (color, opacity) = (RGBColor(0.56, 0.65, 0.78), 0.75)
            case .event: (color, opacity) = (scene.overlays.labels.first { $0.text == l.text }?.color ?? RGBColor(1, 0.67, 0.2), 0.95)
            }
            draw(l.text, centerX: l.x, baseline: l.y, color: color, opacity: opacity, into: &image)
        }
        draw(scene.caption, left: 12, baseline: image.height - 12, color: RGBColor(0.82, 0.85, 0.88), opacity: 1, into: &image)
    }
}
