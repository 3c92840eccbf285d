extension RayCaster {
    /// The renderer's hand-set looks. None is a physical constant: each was set by eye, and is
    /// named here so that changing one is a decision, not an edit of an anonymous literal.
    enum Tuning {
        /// The colour the Sun's disc whitens toward at its centre: a slightly warm white, so the
        /// disc reads white-hot inside and keeps the catalogue's colour at the limb.
        static let sunCoreWhite = SIMD3<Float>(1, 0.97, 0.9)
        /// How far the disc is mixed toward `sunCoreWhite`, times μ (1 at the centre, 0 at the
        /// limb): short of 1 so the centre keeps a trace of the Sun's colour.
        static let sunCoreWhitening = 0.7
        /// Gain on the (limb-darkened) disc: above 1 so its centre clips to white in sRGB.
        static let sunDiscGain = 1.25
        /// Share of the sunlight an opaque part of the rings (alpha 1) keeps off Saturn: short of
        /// 1 so the shadow reads as a shadow on the globe, not as a black band.
        static let ringShadowDepth: Float = 0.85
        /// Ring colour and opacity when no ring profile was loaded: a tan and a middle opacity,
        /// so Saturn still shows its rings.
        static let fallbackRingColor = SIMD3<Float>(0.5, 0.42, 0.32)
        static let fallbackRingAlpha: Float = 0.6
        /// Light on the ring face turned from the Sun (sunlight scattered through the ring): the
        /// unlit face shows darker, not black.
        static let ringUnlitFaceLight: Float = 0.3
        /// Coverage below which a line's pixel is left alone: about 1/255, under which the 8-bit
        /// blend changes no byte by a whole step, so the occlusion test would be for nothing.
        static let minimumLineCoverage: Float = 0.004
        /// A dot (a body under a pixel or two) stands for a whole disc: its colour is the mean
        /// albedo × (floor + gain × phase) × `dotGain`. The floor keeps a body near new phase
        /// visible; the gain brightens the dot toward what a resolved, lit disc would show.
        static let dotPhaseFloor: Float = 0.25
        static let dotPhaseGain: Float = 0.95
        static let dotGain: Float = 1.6
    }
}
