/// One body as the catalogue keeps it: 96 bytes of numbers, its designation and name in the
/// file's shared text, anything rarer (non-gravitational parameters, the source's orbit class
/// and solution) in a side table. The MPC's whole asteroid file is 1.4 million of these.
struct CompactBody: Sendable {
    var epoch: Double
    var q: Double
    var e: Double
    var i: Double
    var node: Double
    var peri: Double
    var tp: Double
    /// Mean anomaly at the epoch, degrees (NaN: not given).
    var m: Double
    /// H and G for asteroids, M1 and K1 for comets (NaN: not given).
    var magnitude: Float
    var slope: Float
    /// The asteroid number (0: none).
    var number: Int32
    var textOffset: UInt32
    var designationLength: UInt8
    var nameLength: UInt8
    var isComet: Bool
    var line: UInt32
    /// Index into the file's extras (-1: none).
    var extras: Int32

    var elements: OrbitalElements {
        OrbitalElements(epochJDTDB: epoch, perihelionAU: q, eccentricity: e, inclinationDeg: i, ascendingNodeDeg: node,
                        argumentOfPerihelionDeg: peri, perihelionJDTDB: tp, meanAnomalyDeg: m.isNaN ? nil : m)
    }
}

/// What only some bodies have.
struct BodyExtras: Sendable {
    var nonGravitational: NonGravitationalParameters?
    var orbitClass: OrbitClass?
    var solution: String?
    var physical: PhysicalParameters?
}
