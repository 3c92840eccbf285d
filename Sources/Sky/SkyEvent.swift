import Ephemeris

/// What happens to a body in the observer's sky.
public enum SkyEventKind: String, CaseIterable, Sendable, Hashable {
    case rise, set, transit
    case civilDawn = "civil-dawn", civilDusk = "civil-dusk"
    case nauticalDawn = "nautical-dawn", nauticalDusk = "nautical-dusk"
    case astronomicalDawn = "astronomical-dawn", astronomicalDusk = "astronomical-dusk"
    /// The Sun neither rises nor sets in that turn of the sky (dated at its upper transit).
    case polarDay = "polar-day", polarNight = "polar-night"
    /// The same for any other body.
    case alwaysUp = "always-up", alwaysDown = "always-down"

    /// The kinds that `kinds=` may name: each, plus `twilight` for the six dawns and dusks.
    public static let twilight: [SkyEventKind] = [.civilDawn, .civilDusk, .nauticalDawn, .nauticalDusk, .astronomicalDawn, .astronomicalDusk]
}

/// One event: the body, what happened, when, and where the body was then (azimuth from north
/// through east; altitude refracted for the standard atmosphere, of the body's centre).
public struct SkyEvent: Sendable {
    /// The engine body (nil for a point source: an asteroid or comet, named by ``id``).
    public let body: BodyID?
    /// How answers name the body: the engine's id, or the point source's.
    public let id: String
    public let kind: SkyEventKind
    public let instant: Instant
    public let azimuthDeg: Double
    public let altitudeDeg: Double

    init(body: BodyID?, id: String? = nil, kind: SkyEventKind, instant: Instant, azimuthDeg: Double, altitudeDeg: Double) {
        self.body = body
        self.id = id ?? body?.rawValue ?? ""
        self.kind = kind
        self.instant = instant
        self.azimuthDeg = azimuthDeg
        self.altitudeDeg = altitudeDeg
    }
}
