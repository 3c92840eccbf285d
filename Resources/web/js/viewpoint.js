// Where the camera looks from and at: the orbit camera (camera.js), the viewport's size, the
// focus (a body, the overview, or a mission's local centre), the pan away from it, and the
// flight toward a preset. The gestures controls.js reports (orbit, pan, zoom) land here.

import { getJSON } from './api.js';
import { OrbitCamera, overviewPose, MAX_ELEVATION, MAX_DISTANCE } from './camera.js';
import { dateParam } from './time.js';
import { add, scale, lerp } from './vec.js';

/** A flight to a preset takes this long (ms). */
const FLIGHT_MS = 700;
/** Zooming stops this many radii from the focused body's centre. */
const CLOSEST_RADII = 1.6;
/** The closest zoom with no body in focus (scene units). */
const CLOSEST_DEFAULT = 0.05;

export class Viewpoint {
  /**
   * `scene`: scene.js's SceneData (positions and sizes); `focusSelect`: the Focus menu;
   * `missionFraming()`: the mission's /framing or nothing; `date()`: the clock's instant (ms);
   * `flights()`: whether a move is flown (not under reduced motion, nor while the page loads);
   * `prefetch(id)`: starts loading a body's map.
   */
  constructor({ scene, focusSelect, missionFraming, date, flights, prefetch, requestDraw }) {
    this.scene = scene;
    this.focusSelect = focusSelect;
    this.missionFraming = missionFraming;
    this.date = date;
    this.flights = flights;
    this.prefetch = prefetch;
    this.requestDraw = requestDraw;
    this.camera = new OrbitCamera();
    this.focus = 'overview';
    this.pan = [0, 0, 0];
    this.transition = null;
    this.width = 0;
    this.height = 0;
  }

  /** The viewport in CSS pixels. */
  setSize(width, height) {
    this.width = width;
    this.height = height;
  }

  aspect() {
    return this.width / Math.max(1, this.height);
  }

  /** The camera's target before panning: the focused body, the mission's local centre, or the Sun. */
  focusPoint() {
    const { positions } = this.scene;
    const framing = this.missionFraming();
    if (this.focus === 'mission' && framing) {
      const earth = positions.get('earth') ?? [0, 0, 0];
      return add(earth, framing.localCenter);
    }
    if (this.focus !== 'overview') return positions.get(this.focus) ?? [0, 0, 0];
    return [0, 0, 0];
  }

  overview() {
    return overviewPose(this.scene.planetsExtent(), this.aspect());
  }

  /** Moves the camera to a pose, smoothly unless the person prefers reduced motion. */
  moveCamera(pose) {
    const c = this.camera;
    const to = { azimuth: pose.azimuth, elevation: pose.elevation, distance: pose.distance };
    if (!this.flights()) {
      Object.assign(c, to);
      this.transition = null;
    } else {
      // Turn the short way round.
      let from = c.azimuth;
      while (to.azimuth - from > Math.PI) from += 2 * Math.PI;
      while (to.azimuth - from < -Math.PI) from -= 2 * Math.PI;
      this.transition = { start: performance.now(), from: { azimuth: from, elevation: c.elevation, distance: c.distance, target: c.target }, to };
    }
    this.pan = [0, 0, 0];
    this.requestDraw();
  }

  /** Sets the camera around the focus at once (a link's `?azimuth=&elevation=&distance=`). */
  setPose(pose) {
    Object.assign(this.camera, pose);
    this.transition = null;
  }

  /** Focuses a body (or the overview) and flies to its preset, `/v1/camera/focus/{id}`. */
  async applyFocus(id) {
    this.focus = id;
    this.prefetch(id);
    this.focusSelect.value = id === 'mission' ? 'overview' : id;
    if (id === 'overview') {
      this.moveCamera(this.overview());
      return;
    }
    const f = await getJSON(`v1/camera/focus/${id}`, { date: dateParam(this.date()), aspect: this.aspect().toFixed(4) });
    if (this.focus !== id) return;
    const pose = { azimuth: f.azimuthRad, elevation: f.elevationRad, distance: f.distance };
    this.moveCamera(pose);
  }

  /** A mission's camera: its framing when it follows the vehicles, else the overview. */
  frameMission(framing) {
    if (framing?.mode === 'follow') {
      this.focus = 'mission';
      this.moveCamera({ azimuth: framing.azimuthRad, elevation: framing.elevationRad, distance: framing.distance });
    } else {
      this.focus = 'overview';
      this.moveCamera(this.overview());
    }
    this.focusSelect.value = 'overview';
  }

  /** The camera for the frame at `now`: on its way along a flight, or on the (moving) target. */
  step(now) {
    const t = this.transition;
    const c = this.camera;
    const target = add(this.focusPoint(), this.pan);
    if (!t) {
      c.target = target;
      return;
    }
    const u = Math.min(1, (now - t.start) / FLIGHT_MS);
    const e = u < 0.5 ? 2 * u * u : 1 - (-2 * u + 2) ** 2 / 2;
    c.azimuth = t.from.azimuth + (t.to.azimuth - t.from.azimuth) * e;
    c.elevation = t.from.elevation + (t.to.elevation - t.from.elevation) * e;
    c.distance = Math.exp(Math.log(t.from.distance) + (Math.log(t.to.distance) - Math.log(t.from.distance)) * e);
    c.target = lerp(t.from.target, target, e);
    if (u >= 1) this.transition = null;
  }

  minimumDistance() {
    const b = this.scene.bodies.get(this.focus);
    return b ? b.sceneRadius * CLOSEST_RADII : CLOSEST_DEFAULT;
  }

  // ---- Gestures (controls.js) ----

  /** Any gesture stops a flight. */
  interact() {
    this.transition = null;
  }

  orbit(dAz, dEl) {
    const c = this.camera;
    c.azimuth += dAz;
    c.elevation = Math.max(-MAX_ELEVATION, Math.min(MAX_ELEVATION, c.elevation + dEl));
    this.requestDraw();
  }

  /** Pans by a drag of (dx, dy) CSS pixels. */
  panBy(dx, dy) {
    const view = this.camera.view(this.width, this.height);
    const unitsPerPixel = this.camera.distance / view.pixelsPerUnit;
    this.pan = add(this.pan, add(scale(view.right, -dx * unitsPerPixel), scale(view.up, dy * unitsPerPixel)));
    this.requestDraw();
  }

  zoom(factor) {
    const c = this.camera;
    c.distance = Math.max(this.minimumDistance(), Math.min(MAX_DISTANCE, c.distance * factor));
    this.requestDraw();
  }
}
