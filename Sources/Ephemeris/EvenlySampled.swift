/// Values sampled at evenly spaced abscissae, read between the samples with a 4-point Lagrange
/// polynomial (the two samples either side; the end intervals use the four nearest). How ΔT and
/// the pole's coordinates are tabulated every few days by the IERS.
///
/// ```swift
/// let cubes = EvenlySampled(first: 0, step: 2, values: [0, 8, 64, 216, 512, 1000])
/// cubes.value(at: 7)    // 343: a cubic is read exactly
/// cubes.value(at: 16)   // nil: past the last sample (x = 10)
/// ```
public struct EvenlySampled: Sendable, Equatable {
    /// Abscissa of the first sample and the spacing.
    public let first: Double
    public let step: Double
    public let values: [Double]

    /// At least four values and a positive step (the caller's table guarantees both).
    public init(first: Double, step: Double, values: [Double]) {
        precondition(values.count >= 4 && step > 0, "4-point interpolation needs 4 samples and a positive step")
        self.first = first
        self.step = step
        self.values = values
    }

    /// Abscissa of the last sample.
    public var last: Double { first + Double(values.count - 1) * step }

    /// The interpolated value at `x`, or nil outside `first...last`.
    public func value(at x: Double) -> Double? {
        guard x >= first, x <= last else { return nil }
        let position = (x - first) / step
        let i = min(max(Int(position) - 1, 0), values.count - 4)
        let u = position - Double(i)
        // Lagrange weights at nodes 0, 1, 2, 3 for abscissa u.
        let w0 = -(u - 1) * (u - 2) * (u - 3) / 6
        let w1 = u * (u - 2) * (u - 3) / 2
        let w2 = -u * (u - 1) * (u - 3) / 2
        let w3 = u * (u - 1) * (u - 2) / 6
        return w0 * values[i] + w1 * values[i + 1] + w2 * values[i + 2] + w3 * values[i + 3]
    }
}
