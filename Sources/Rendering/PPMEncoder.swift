/// Binary PPM (Netpbm P6): `P6\n<width> <height>\n255\n` then the RGB bytes.
public enum PPMEncoder {
    public static func header(width: Int, height: Int) -> [UInt8] {
        Array("P6\n\(width) \(height)\n255\n".utf8)
    }

    public static func encode(_ image: RGBImage) -> [UInt8] {
        var out = header(width: image.width, height: image.height)
        out.reserveCapacity(out.count + image.pixels.count)
        out.append(contentsOf: image.pixels)
        return out
    }
}
