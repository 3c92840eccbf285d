/// What a long computation asks between its steps: should it stop? Whoever started it answers
/// — the server, when the client has gone or the request has spent its CPU budget — so pure
/// code can be stopped without reading a clock or a socket itself.
///
/// ```swift
/// let interrupt = Interrupt { budget.isSpent ? BudgetSpent() : nil }
/// for day in days {
///     try interrupt.check()      // throws Interruption(cause: BudgetSpent())
///     …
/// }
/// ```
public struct Interrupt: Sendable {
    private let poll: (@Sendable () -> (any Error)?)?

    /// `poll` returns why to stop, or nil to go on. It is called often: keep it cheap.
    public init(_ poll: @escaping @Sendable () -> (any Error)?) {
        self.poll = poll
    }

    private init() {
        poll = nil
    }

    /// Never stops.
    public static let never = Interrupt()

    /// Throws when the computation should stop.
    @inline(__always)
    public func check() throws(Interruption) {
        if let poll, let cause = poll() { throw Interruption(cause: cause) }
    }
}

/// A computation stopped by its ``Interrupt``; `cause` is what the poll returned.
public struct Interruption: Error, Sendable, CustomStringConvertible {
    public let cause: any Error

    public init(cause: any Error) {
        self.cause = cause
    }

    public var description: String { "interrupted: \(cause)" }
}
