// The orbit camera the server's pictures use (Scene/ViewCamera.swift): spherical coordinates
// around a target, Y up, vertical field of view 60°, so the "picture" button can ask the
// server for the same view. Pixels are CSS pixels from the canvas's top-left corner.

import { add, sub, dot, cross, normalize, length } from './vec.js';

export const FIELD_OF_VIEW_DEG = 60;
export const MAX_ELEVATION = Math.PI / 2 - 0.01;
export const MAX_DISTANCE = 10_000;

export class OrbitCamera {
  constructor({ target = [0, 0, 0], azimuth = 0, elevation = 0.5, distance = 100 } = {}) {
    this.target = target;
    this.azimuth = azimuth;
    this.elevation = elevation;
    this.distance = distance;
    this.fovDeg = FIELD_OF_VIEW_DEG;
  }

  /** offset = d · (cos φ · sin θ, sin φ, cos φ · cos θ) from the target. */
  eye() {
    const c = Math.cos(this.elevation);
    const d = this.distance;
    return add(this.target, [d * c * Math.sin(this.azimuth), d * Math.sin(this.elevation), d * c * Math.cos(this.azimuth)]);
  }

  /** A projector for a viewport of `width` × `height` CSS pixels. */
  view(width, height) {
    return new Projector(this.eye(), this.target, this.fovDeg, width, height);
  }
}

export class Projector {
  constructor(eye, target, fovDeg, width, height) {
    this.eye = eye;
    this.target = target;
    this.width = Math.max(1, width);
    this.height = Math.max(1, height);
    let back = sub(eye, target);
    if (length(back) < 1e-12) back = [0, 0, 1];
    back = normalize(back);
    // Looking straight along +Y leaves "right" undefined: use scene −Z (or +Z) as up, as the server does.
    let up = [0, 1, 0];
    if (Math.abs(dot(back, up)) > 0.999_999) up = back[1] > 0 ? [0, 0, -1] : [0, 0, 1];
    this.right = normalize(cross(up, back));
    this.up = cross(back, this.right);
    this.back = back;
    const f = 1 / Math.tan((fovDeg * Math.PI) / 360);
    this.yScale = f;
    this.xScale = f / (this.width / this.height);
    this.near = Math.max(1e-9, length(sub(eye, target)) * 1e-6);
    this.pixelsPerUnit = (f * this.height) / 2;
  }

  /** [x, y, depth] in pixels for a scene point; null behind the camera. */
  project(p) {
    const d = sub(p, this.eye);
    const w = -dot(d, this.back);
    if (!(w > this.near)) return null;
    return this.toScreen(dot(d, this.right), dot(d, this.up), w);
  }

  /** Where a direction at infinity (a star) lands; null when it points behind. */
  projectDirection(dir) {
    const w = -dot(dir, this.back);
    if (!(w > 1e-9)) return null;
    return this.toScreen(dot(dir, this.right), dot(dir, this.up), w);
  }

  toScreen(vx, vy, w) {
    return [((this.xScale * vx) / w + 1) * 0.5 * this.width, (1 - (this.yScale * vy) / w) * 0.5 * this.height, w];
  }

  /** On-screen radius in pixels of a sphere of `radius` scene units at `depth`. */
  screenRadius(radius, depth) {
    return depth > 0 ? (radius * this.pixelsPerUnit) / depth : 0;
  }
}

/** The server's overview: elevation 0.5 rad, azimuth 0, the outermost orbit's circle in shot with 8 % to spare. */
export function overviewPose(extent, aspect) {
  const e = 0.5;
  const height = 1000;
  const width = Math.max(1, Math.round(1000 * aspect));
  const r = Math.max(1, extent);
  const ring = Array.from({ length: 72 }, (_, k) => [r * Math.cos((k * Math.PI) / 36), 0, r * Math.sin((k * Math.PI) / 36)]);
  const fits = (d) => {
    const view = new OrbitCamera({ target: [0, 0, 0], azimuth: 0, elevation: e, distance: d }).view(width, height);
    return ring.every((p) => {
      const s = view.project(p);
      return s && Math.abs(s[0] - width / 2) <= width / 2 / 1.08 && Math.abs(s[1] - height / 2) <= height / 2 / 1.08;
    });
  };
  let lo = r;
  let hi = r * 20;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (fits(mid)) hi = mid;
    else lo = mid;
  }
  return { target: [0, 0, 0], azimuth: 0, elevation: e, distance: hi };
}
