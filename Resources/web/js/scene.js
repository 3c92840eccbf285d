// What the frame draws at the clock's instant: the catalogue, each body's /v1/scene entry and the
// position drawn now, the orbit lines and the stars. Paused, positions are /v1/scene's; while
// the clock runs the timeline writes the motion windows' into `positions` (followMotion).

import { getJSON } from './api.js';
import { dateParam, MS } from './time.js';
import { normalize } from './vec.js';

/** Orbits are refetched when the date moved by more than this from theirs (a moon's orbit turns slowly). */
const ORBITS_VALID_MS = 30 * MS.day;
/** While the clock runs, not more often than this (wall clock): Voyager 2's replay at 20,000,000×
 * crosses 30 days every 0.13 s, and asked for the orbits, parsed them and rebuilt their buffer
 * all the time. */
const ORBITS_PLAYING_MS = 10_000;

export class SceneData {
  /** `playing()`: whether the clock runs; `replaying()`: whether a mission replay drives it. */
  constructor({ playing, replaying }) {
    this.playing = playing;
    this.replaying = replaying;
    this.catalogue = new Map(); // id → /v1/bodies entry
    this.bodies = new Map(); // id → /v1/scene entry (radius, colour, rings…)
    this.positions = new Map(); // id → scene position drawn now
    this.sceneMs = null;
    this.orbits = null;
    this.orbitCenters = new Map();
    this.orbitsMs = null;
    this.orbitsAt = null;
    this.orbitsLoading = false;
    this.stars = null;
  }

  /** The bodies, the stars and the missions; returns the lists for the page's menus. */
  async loadCatalogue() {
    const [bodies, stars, missions] = await Promise.all([
      getJSON('v1/bodies'), getJSON('v1/stars', { maxMagnitude: 5 }), getJSON('v1/missions'),
    ]);
    for (const b of bodies.bodies) this.catalogue.set(b.id, b);
    this.stars = stars.stars.map((s) => ({ ...s, direction: normalize(s.position) }));
    return { bodies: bodies.bodies, missions: missions.missions };
  }

  /** Exact positions at `ms` from `/v1/scene`, and the orbit lines at that date. */
  async loadScene(ms) {
    const date = dateParam(ms);
    const scenePromise = getJSON('v1/scene', { date });
    // The orbit lines are fetched once per date the person sets (not while time runs: over a
    // playback window they barely change, and the moons' follow their parent's motion).
    const [scene] = await Promise.all([scenePromise, this.needOrbits(ms) ? this.loadOrbits(ms, scenePromise) : null]);
    if (this.playing() && !this.replaying()) return; // the clock moved on; the motion windows draw
    this.sceneMs = ms;
    for (const b of scene.bodies) {
      this.bodies.set(b.id, b);
      this.positions.set(b.id, b.position);
    }
  }

  needOrbits(ms) {
    if (this.orbitsMs === null) return true;
    if (Math.abs(ms - this.orbitsMs) <= ORBITS_VALID_MS) return false;
    return !this.playing() || performance.now() - (this.orbitsAt ?? 0) >= ORBITS_PLAYING_MS;
  }

  async loadOrbits(ms, scenePromise) {
    if (this.orbitsLoading) return;
    this.orbitsLoading = true;
    try {
      const [orbits, centers] = await Promise.all([
        getJSON('v1/orbits', { date: dateParam(ms), samples: 160 }),
        scenePromise ?? getJSON('v1/scene', { date: dateParam(ms) }),
      ]);
      this.orbits = orbits.bodies;
      this.orbitCenters = new Map(centers.bodies.map((b) => [b.id, b.position]));
      for (const b of centers.bodies) if (!this.bodies.has(b.id)) this.bodies.set(b.id, b);
      this.orbitsMs = ms;
      this.orbitsAt = performance.now();
    } finally {
      this.orbitsLoading = false;
    }
  }

  /** Positions from the motion windows once they cover `ms`; a body they cannot follow (null) is
   * left out until the clock stops. */
  followMotion(motion, ms) {
    if (!motion.covers(ms)) return;
    for (const id of this.bodies.keys()) {
      const p = motion.positionAt(id, ms);
      if (p === null) this.positions.delete(id);
      else if (p) this.positions.set(id, p);
    }
  }

  /** How far out the planets are (scene units, at least 1): what the overview has to show. */
  planetsExtent() {
    let extent = 1;
    for (const [id, b] of this.bodies) {
      if ((b.type === 'planet' || b.type === 'dwarf_planet') && this.positions.has(id)) {
        const p = this.positions.get(id);
        extent = Math.max(extent, Math.hypot(p[0], p[1], p[2]));
      }
    }
    return extent;
  }
}
