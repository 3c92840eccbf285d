import Ephemeris

extension SurfaceMap {
    /// The map as an 8-bit RGB PNG, pixels exactly as decoded (sRGB; equirectangular, longitude
    /// −180°…+180° from the left edge, latitude +90° at the top).
    public func png(level: Int32 = PNGEncoder.defaultLevel) -> [UInt8] {
        let pixels = [UInt8](UnsafeBufferPointer(start: data, count: width * height * 3))
        return PNGEncoder.encode(RGBImage(width: width, height: height, pixels: pixels), level: level)
    }
}

extension TextureSet {
    /// The id of Saturn's ring strip among the texture images (the others are body ids).
    public static let ringsImageID = "saturn-rings"

    /// Every image `png(for:)` can make, in catalogue order, the rings last.
    public var imageIDs: [String] {
        var ids = BodyID.allCases.filter { surfaces[$0] != nil }.map(\.rawValue)
        if ringStrip != nil { ids.append(Self.ringsImageID) }
        return ids
    }

    /// The PNG of a body's surface map (RGB) or of the ring strip (RGBA: u from the inner to the
    /// outer edge, alpha the opacity); nil for an id without one. Encoding a 1024 × 512 map takes
    /// tens of milliseconds: call it off the event loop.
    public func png(for id: String, level: Int32 = PNGEncoder.defaultLevel) -> [UInt8]? {
        if id == Self.ringsImageID {
            guard let strip = ringStrip else { return nil }
            return PNGEncoder.encode(rgba: strip.pixels, width: strip.width, height: strip.height, level: level)
        }
        guard let body = BodyID(rawValue: id), let map = surfaces[body] else { return nil }
        return map.png(level: level)
    }
}
