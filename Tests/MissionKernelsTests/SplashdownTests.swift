import Astrodynamics
import Foundation
import Testing
@testable import Ephemeris
@testable import MissionKernels
import Missions

/// Where the Apollo capsules come down: the shipped kernels against the published recovery
/// positions (Orloff, *Apollo by the Numbers*), both on the Earth as it really turned
/// (``TerrestrialFrame``: UT1 and the IERS pole). The entry's lateral steering, which closes
/// what the aimed plane cannot, is tested with the stages (LunarRecipeStagesTests).
@Suite("Apollo splashdowns")
struct SplashdownTests {
    @Test("each shipped command module is down at its published splashdown position, within 3 km, at the published time",
          arguments: ["apollo8", "apollo11", "apollo13"])
    func downAtTheSite(_ id: String) throws {
        let mission = try Repository.missions.mission(id)
        let recipe = try #require(MissionRecipes.recipe(id) as? LunarRecipe)
        let context = BuildContext(ephemeris: Repository.ephemeris, mission: mission,
                                   source: { throw RecipeError(description: "no source \($0)") },
                                   kernel: { throw RecipeError(description: "no kernel \($0)") })
        let solver = try LunarRecipe.Solver(recipe, context)
        let kernel = KernelPath(FlybyTestData.kernel("\(id).bsp"), target: solver.vehicle.naifID, ephemeris: Repository.ephemeris)
        let landed = solver.frames.geo(kernel.state(at: solver.splash)).positionKm
        let site = solver.frames.geo(recipe.splashdown.state(at: solver.splash, ephemeris: solver.eph, terrestrial: context.terrestrial)).positionKm
        let km = acos(min(1, landed.normalized.dot(site.normalized))) * LunarRecipe.earthMeanRadiusKm
        print("[\(id)] splashdown \(km) km from the published position")
        #expect(km < 3, "\(km) km")
        // On the ground: at the surface, turning with it.
        #expect(abs(landed.length - site.length) < 0.1)
        // A minute before, under the parachutes, it was still above the ground.
        let before = solver.frames.geo(kernel.state(at: solver.splash - 60)).positionKm
        #expect(before.length - site.length > 0.3)
    }
}
