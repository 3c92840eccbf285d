import Ephemeris

/// A lunar eclipse from a place: its contacts (as seen from anywhere the Moon is up) with the
/// Moon's altitude and azimuth there.
public struct LocalLunarEclipse: Sendable {
    public let eclipse: LunarEclipse
    /// P1, U1, U2, U3, U4, P4 (nil where the eclipse has no such contact) and greatest.
    public let contacts: [(name: String, contact: EclipseContact?)]
    public let greatest: EclipseContact
    /// Whether the Moon is up at some moment of the eclipse (at a contact or at greatest).
    public var visible: Bool { ([greatest] + contacts.compactMap(\.contact)).contains { $0.aboveHorizon } }
}

extension SkyEngine {
    /// The solar eclipses seen from `observer` whose greatest eclipse is between `start` and
    /// `stop`; those wholly below the horizon only with `includeBelowHorizon`.
    public func localSolarEclipses(from observer: Observer, start: Instant, stop: Instant, conventions: EclipseConventions = EclipseConventions(),
                                   includeBelowHorizon: Bool = false) -> [LocalSolarEclipse] {
        solarEclipses(start: start, stop: stop, conventions: conventions).compactMap { $0.seen(from: observer) }.filter { includeBelowHorizon || $0.visible }
    }

    /// A lunar eclipse seen from `observer`: the Moon's airless altitude and azimuth at each
    /// contact (from its topocentric place).
    public func lunarEclipse(_ e: LunarEclipse, seenFrom observer: Observer) -> LocalLunarEclipse {
        func contact(_ t: Instant) -> EclipseContact {
            let time = e.conventions.deltaTSeconds.map { SkyTime(instant: t, deltaTSeconds: $0, deltaTSource: "given") } ?? self.time(t)
            let p = view([.moon], from: observer, at: time, atmosphere: nil)[0]
            return EclipseContact(instant: t, altitudeDeg: p.airlessAltitudeDeg, azimuthDeg: p.azimuthDeg, positionAngleDeg: nil)
        }
        return LocalLunarEclipse(eclipse: e, contacts: e.contacts.map { ($0.name, $0.instant.map(contact)) }, greatest: contact(e.greatest))
    }

    /// The lunar eclipses seen from `observer` (the Moon up at some contact, unless
    /// `includeBelowHorizon`) between `start` and `stop`.
    public func localLunarEclipses(from observer: Observer, start: Instant, stop: Instant, conventions: EclipseConventions = EclipseConventions(),
                                   includeBelowHorizon: Bool = false) -> [LocalLunarEclipse] {
        lunarEclipses(start: start, stop: stop, conventions: conventions).map { lunarEclipse($0, seenFrom: observer) }.filter { includeBelowHorizon || $0.visible }
    }
}
