// The asteroids-and-comets layer: the bundled and loaded small bodies (the first 20 the server
// lists), each drawn where the n-body integration puts it at the page's date, with its path a
// year either side of it (`/v1/positions/{id}` in the scene frame, 146 samples: the real path,
// not a two-body ellipse). Fetched when the layer is turned on and again when the date moves
// by more than a month; drawn with the labels, above the planets (the overlay pass).

import { getJSON } from './api.js';
import { dateParam, MS } from './time.js';

const MAX_BODIES = 20;
const PATH_HALF_SPAN = 365 * MS.day;
const REFETCH_MS = 30 * MS.day;

export class SmallBodyLayer {
  constructor(onError) {
    this.on = false;
    this.list = null;      // [{id, fullName, type}]
    this.bodies = [];      // [{id, name, type, position, path}]
    this.loadedMs = null;
    this.loading = false;
    this.onError = onError;
  }

  /** Whether the layer needs fetching for `ms`. */
  stale(ms) {
    return this.on && !this.loading && (this.loadedMs === null || Math.abs(ms - this.loadedMs) > REFETCH_MS);
  }

  async load(ms) {
    if (this.loading) return;
    this.loading = true;
    try {
      if (!this.list) {
        const found = await getJSON('v1/bodies', { kind: 'small-body', limit: MAX_BODIES });
        this.list = found.bodies;
      }
      const date = dateParam(ms);
      const ids = this.list.map((b) => b.id);
      if (!ids.length) { this.bodies = []; this.loadedMs = ms; return; }
      const scene = await getJSON('v1/scene', { date, smallBodies: ids.join(',') });
      const paths = await Promise.all(scene.smallBodies.map((b) =>
        getJSON(`v1/positions/${encodeURIComponent(b.id)}`, {
          start: dateParam(ms - PATH_HALF_SPAN), stop: dateParam(ms + PATH_HALF_SPAN), step: '5d', frame: 'scene',
        }).then((s) => s.samples.map((x) => x.position)).catch(() => [])));
      this.bodies = scene.smallBodies.map((b, k) => ({ id: b.id, name: shortName(b.name), type: b.type, position: b.position, path: paths[k] }));
      this.loadedMs = ms;
    } catch (e) {
      this.onError(e);
    } finally {
      this.loading = false;
    }
  }

  /** What the frame draws (nothing while off). */
  frame() {
    return this.on ? this.bodies : null;
  }

  /** The `smallBodies` parameter of the picture link (nothing while off). */
  pictureParam() {
    return this.on && this.bodies.length ? this.bodies.map((b) => b.id).join(',') : null;
  }
}

/**
 * `99942 Apophis (2004 MN4)` → `Apophis`; `12345 (1993 FA)` → `1993 FA`; `2024 YR4` stays;
 * `C/1995 O1 (Hale-Bopp)` → `Hale-Bopp`; `1P/Halley` → `Halley`; a long periodic comet's name
 * gives way to its number (`67P`).
 */
function shortName(full) {
  const periodic = /^(\d+[PD])\/(.+)$/.exec(full);
  if (periodic) return periodic[2].length <= 12 ? periodic[2] : periodic[1];
  const numbered = /^\d+ (.+)$/.exec(full);
  if (numbered && !/^[A-Z]{1,2}\d*$/.test(numbered[1])) {
    const rest = numbered[1];
    const inner = /^\((.+)\)$/.exec(rest);
    return inner ? inner[1] : rest.replace(/ \(.*\)$/, '');
  }
  const paren = /\(([^)]+)\)$/.exec(full);
  return paren ? paren[1] : full;
}
