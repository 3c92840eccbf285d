import Ephemeris
import HTTPCore

extension Interrupt {
    /// Stops a computation when the request it runs for should stop (its client gone, its CPU
    /// budget spent): polls the worker's ``WorkBudget/current``; its cause is the problem to
    /// answer with.
    static let request = Interrupt { WorkBudget.currentStopReason() }
}
