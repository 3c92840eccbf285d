/// Which theory serves a body and how far it can be trusted: what `/v1/bodies` reports.
public struct EphemerisModelInfo: Sendable, Hashable {
    /// Short name of the theory, e.g. "Standish (1992) Keplerian elements".
    public let theory: String
    /// The accuracy bound the test suite holds it to, in words with units.
    public let accuracy: String
    /// The years it is meant for.
    public let validity: String
    /// The rotation model.
    public let rotation: RotationModelKind
}
