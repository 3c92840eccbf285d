import Astrodynamics
import Ephemeris
import Missions

extension HorizonsRecipe {
    /// With ``orbit``: the samples from the first daily one after the orbit-insertion phase on
    /// (heliocentric, as read), leaving in `track` the samples up to and including it, so the
    /// integrated cruise and insertion end where the sampled orbit starts. Nil without ``orbit``.
    func splitOrbit(_ track: inout Track, vehicle: Vehicle, _ context: BuildContext) throws -> [OrbitalState]? {
        guard let orbit else { return nil }
        let phaseEnd = try context.phase(vehicle, orbit.after).upperBound
        guard let k = track.states.indices.first(where: { track.states[$0].seconds > phaseEnd && track.samplings[$0] == "1-day" }),
              k + 1 < track.states.count else {
            throw RecipeError(description: "\(missionID): no daily samples after \(orbit.after)")
        }
        let samples = Array(track.states[k...])
        track.removeSubrange((k + 1)..<track.states.count)
        return samples
    }

    /// The sampled orbit as one segment about the body: every sample a node, cubic Hermite
    /// between neighbours in the file (what ``HermiteNodes/interpolate(_:at:window:)`` with a
    /// window of 2 gives), the path between them the server's (``SampledOrbitPath``).
    static func orbitPiece(_ samples: [OrbitalState], about body: BodyID, naifID id: Int) -> PathPiece {
        var piece = PathPiece(
            name: SampledOrbitPath.segmentName(naifID: id, about: body), notes: [
                "JPL Horizons state vectors, moved to \(body)'s centre, kept exactly; between them the server integrates forward and backward from the neighbouring samples under \(body)'s gravity with its J2 and the Sun's pull, blended. Read alone (SPICE), the segment interpolates neighbours by cubic Hermite: right at the samples only."],
            startSeconds: samples[0].seconds, endSeconds: samples[samples.count - 1].seconds, center: NAIFBody.id(body),
            requiredSeconds: samples.map(\.seconds), maxStepSeconds: 30 * 86_400, state: { t in HermiteNodes.interpolate(samples, at: t, window: 2) })
        piece.keepsEveryRequiredEpoch = true
        piece.window = 2
        piece.toleranceKm = .greatestFiniteMagnitude
        return piece
    }
}
