/// Why a kernel cannot be used. `description` names the file and what is wrong with it, the
/// way start-up reports it.
public struct SPKError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Shorter than its own records say it is.
        case truncated
        /// Not a DAF file at all (wrong identification word).
        case notDAF
        /// A DAF this reader does not handle: another DAF type, VAX numbers, segment types or
        /// frames other than the ones the engine needs.
        case unsupported
        /// Numbers in the file contradict each other (record numbers, addresses, sizes).
        case corrupt
        /// A valid SPK without the segments the engine needs.
        case missingSegments
    }

    public let kind: Kind
    /// The name the file was loaded under (its path).
    public let file: String
    public let problem: String

    public init(_ kind: Kind, file: String, _ problem: String) {
        self.kind = kind
        self.file = file
        self.problem = problem
    }

    public var description: String { "ephemeris kernel \(file): \(problem)" }
}
