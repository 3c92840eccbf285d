import Ephemeris
import HTTPCore
import SmallBodies

extension EphemerisService {
    /// How small bodies are computed, for the `model` of answers that include one.
    static func smallBodyModel(_ model: SmallBodyModel, perturbers: [Int], kernel: String) -> String {
        switch model {
        case .kepler: return "two-body Kepler orbits from the osculating elements, for comparison only (model=kepler)"
        case .nbody:
            let asteroids = perturbers.isEmpty ? "no asteroid perturbers loaded" : "asteroids " + perturbers.map(String.init).joined(separator: ", ") + " (SB441-N16 GMs)"
            return "small bodies integrated from their elements (DOP853, barycentric) under \(kernel): the Sun, planet systems, the Earth and the Moon, Pluto; \(asteroids); the Sun's Schwarzschild term; non-gravitational A1–A3, DT"
        }
    }

    /// A small body's heliocentric state (AU, AU/day, ecliptic J2000) at `t`, with the span the
    /// model serves it over; a 404 problem when the body left the catalogue, a 422 naming the
    /// trusted span when the date is beyond it. The integration stops between steps when the
    /// request it runs for should (its CPU budget spent, its client gone: `WorkBudget`), with that
    /// request's problem.
    func smallBodyState(_ id: String, name: String, model: SmallBodyModel, at t: Instant, current: SmallBodyFeed.Current? = nil,
                        shouldStop: () -> Bool = { WorkBudget.current?.stopProblem() != nil }) throws(ProblemDetails) -> (StateVector, TheorySpan) {
        guard let feed = smallBodies else { throw ProblemDetails.unknownId("body", id: name, parameter: nil, valid: []) }
        let current = current ?? feed.current
        guard let h = current.catalogue.resolve(id) else {
            throw ProblemDetails.unknownId("body", id: name, parameter: nil, valid: []).adding("reason", "the element files were reloaded without \(id)")
        }
        let body = current.catalogue.body(h)
        let seconds = t.daysSinceJ2000TDB * Constants.secondsPerDay
        do {
            let s = try current.propagator.heliocentricState(body, atSeconds: seconds, model: model, shouldStop: shouldStop)
            let perDay = Constants.secondsPerDay / Constants.auKm
            let state = StateVector(positionAU: s.positionKm / Constants.auKm, velocityAUPerDay: s.velocityKmS * perDay)
            return (state, Self.smallBodyTheory(body, model: model, propagator: current.propagator))
        } catch {
            if error == .stopped, let stop = WorkBudget.current?.stopProblem() { throw stop }
            throw Self.smallBodyProblem(error, name: name)
        }
    }

    /// The theory name and span of a small body's answers.
    static func smallBodyTheory(_ body: SmallBody, model: SmallBodyModel, propagator: SmallBodyPropagator) -> TheorySpan {
        switch model {
        case .kepler:
            let years = TimeScale.yearRange
            return TheorySpan(name: "Kepler (two-body)", jdTDB: CivilDateTime.julianDayNumberAtMidnight(year: years.lowerBound, month: 1, day: 1)...CivilDateTime.julianDayNumberAtMidnight(year: years.upperBound, month: 12, day: 31))
        case .nbody:
            let span = propagator.trustedSpan(body) ?? 0...0
            let name = "n-body (\(propagator.kernel?.label ?? "no kernel"))"
            return TheorySpan(name: name, jdTDB: (Constants.jdJ2000 + span.lowerBound / Constants.secondsPerDay)...(Constants.jdJ2000 + span.upperBound / Constants.secondsPerDay))
        }
    }

    /// 422 (a date beyond the trusted span, naming it), 503 (stopped) or 500 (a failed
    /// integration) for a small body.
    static func smallBodyProblem(_ error: SmallBodyError, name: String) -> ProblemDetails {
        switch error {
        case let .outsideTrustedSpan(_, trusted):
            var p = ProblemDetails(status: .unprocessableContent, title: "Outside the integration's trusted span",
                                   detail: "body \(name): \(error.description); model=kepler answers any date, for comparison only")
            p.extensions.append(("body", .string(name)))
            p.extensions.append(("trusted", .array([.string(SmallBodyError.date(trusted.lowerBound)), .string(SmallBodyError.date(trusted.upperBound))])))
            return p
        case .noKernel:
            return ProblemDetails(status: .unprocessableContent, title: "No planetary kernel", detail: "body \(name): \(error.description)")
        case .stopped:
            return ProblemDetails(status: .serviceUnavailable, detail: "body \(name): \(error.description)")
        case .propagation:
            return ProblemDetails(status: .internalServerError, detail: "body \(name): \(error.description)")
        }
    }
}
