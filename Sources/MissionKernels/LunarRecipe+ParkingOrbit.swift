import Glibc
import Astrodynamics
import Ephemeris
import Missions

extension LunarRecipe {
    /// Apollo's range of launch azimuths, degrees east of north.
    static let launchAzimuthRangeDeg = 72.0...108.0
    /// The step of the two-body scan over the launch azimuths, degrees.
    static let azimuthScanStepDeg = 0.5
    /// How far either side of the two-body azimuth the golden-section search looks, degrees.
    static let azimuthSearchHalfWidthDeg = 12.0
    /// The width of the golden-section search's final bracket, degrees.
    static let azimuthToleranceDeg = 0.05
    /// How far downrange of the pad the ascent inserts into the parking orbit, degrees.
    static let insertionDownrangeDeg = 20.0

    /// The parking orbit for a launch azimuth: circular at the recipe's altitude through the pad
    /// (where it stands at orbit insertion), inserted 20° downrange, carried on two-body to the
    /// middle of trans-lunar injection.
    struct ParkingOrbit {
        let insertion: Double
        let tliMid: Double
        let arrival: Double
        let radiusKm: Double
        /// The pad's direction at insertion, and east and north there.
        let padAtInsertion: Vector3
        let east: Vector3
        let localNorth: Vector3
        /// Aimed, for the choice of azimuth, at the far side of the Moon.
        let targetGeo: Vector3

        /// The state at the middle of trans-lunar injection for `azimuthDeg`, and the speed a
        /// two-body transfer from there to `targetGeo` at arrival costs; nil when there is none.
        func state(azimuthDeg: Double) -> (state: OrbitalState, deltaV: Double)? {
            let muE = GravityConstants.earthGM, rPark = radiusKm
            let a = azimuthDeg * .pi / 180
            let heading = localNorth * cos(a) + east * sin(a)
            let normal = padAtInsertion.cross(heading).normalized
            let insertPoint = LunarRecipe.rotate(padAtInsertion, about: normal, by: LunarRecipe.insertionDownrangeDeg * .pi / 180)
            let n = (muE / (rPark * rPark * rPark)).squareRoot()
            let angle = n * (tliMid - insertion)
            let p = LunarRecipe.rotate(insertPoint, about: normal, by: angle) * rPark
            let v = normal.cross(p.normalized) * (muE / rPark).squareRoot()
            guard let sol = KeplerArc.lambert(mu: muE, from: p, to: targetGeo, seconds: arrival - tliMid, longWay: false) else { return nil }
            return (OrbitalState(seconds: tliMid, positionKm: p, velocityKmS: v), (sol.v1 - v).length)
        }

        /// The azimuth of Apollo's range (scanned by half degrees) whose two-body transfer costs least.
        func twoBodyAzimuth() -> Double? {
            var best: (azimuth: Double, deltaV: Double)?
            for az in stride(from: LunarRecipe.launchAzimuthRangeDeg.lowerBound, through: LunarRecipe.launchAzimuthRangeDeg.upperBound, by: LunarRecipe.azimuthScanStepDeg) {
                if let p = state(azimuthDeg: az), p.deltaV < (best?.deltaV ?? .infinity) { best = (az, p.deltaV) }
            }
            return best?.azimuth
        }
    }
}

extension LunarRecipe.Solver {
    /// The parking orbit stage: the pad's local frame at orbit insertion (the end of the ascent)
    /// and the point the azimuth scan aims at.
    func parkingOrbit() -> LunarRecipe.ParkingOrbit {
        let insertion = ascent.upperBound
        let padAtInsertion = frames.geo(recipe.pad.state(at: insertion, ephemeris: eph, terrestrial: c.terrestrial)).positionKm.normalized
        let earthPole = eph.orientation(.earth, at: TimeScale.instant(tdbSecondsPastJ2000: insertion)).bodyToEcliptic * Vector3(0, 0, 1)
        let east = earthPole.cross(padAtInsertion).normalized
        let localNorth = padAtInsertion.cross(east)
        let targetGeo = frames.moon(arrival).positionKm * (1 + periluneRadius / frames.moon(arrival).positionKm.length)
        return LunarRecipe.ParkingOrbit(insertion: insertion, tliMid: tliMid, arrival: arrival,
                                        radiusKm: Constants.earthEquatorialRadiusKm + recipe.parkingAltitudeKm,
                                        padAtInsertion: padAtInsertion, east: east, localNorth: localNorth, targetGeo: targetGeo)
    }
}
