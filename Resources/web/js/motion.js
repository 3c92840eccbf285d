// Smooth motion while time runs: instead of asking for the scene once per frame, each body's
// path over the next few seconds of playback is sampled with the series endpoint
// (`v1/positions/{id}?start&stop&step&frame=scene`, positions and velocities in scene units)
// and interpolated between samples (cubic Hermite). The next window is fetched while the
// current one plays.

import { getJSON } from './api.js';
import { dateParam, MS } from './time.js';

/** Wall-clock seconds of playback one window covers: one series request per body per window. */
const WINDOW_SECONDS = 12;
/** Samples per orbit: enough for Hermite interpolation to stay on the orbit. */
const SAMPLES_PER_ORBIT = 16;
const MAX_SAMPLES = 241;

export class Motion {
  /** `bodies`: catalogue entries ({id, parent, orbit: {periodDays}}) of every body that moves. */
  constructor(bodies, onError) {
    this.bodies = bodies.filter((b) => b.id !== 'sun');
    this.onError = onError;
    this.windows = []; // {start, stop, series: Map(id → {start, stepMs, p, v} | null)}
    this.pending = new Map(); // start → {start, stop, job}
    this.speed = 0;
    this.generation = 0;
  }

  /** Forget every window (the speed or the date jumped). */
  reset(speed) {
    this.speed = speed;
    this.windows = [];
    this.pending.clear();
    this.generation += 1;
  }

  windowMs() {
    return Math.max(2 * MS.hour, Math.abs(this.speed) * WINDOW_SECONDS * 1000);
  }

  /** Makes sure the window holding `ms` and the one after it are loaded or loading. */
  prepare(ms) {
    const w = this.windowMs();
    const current = this.windows.find((x) => ms >= x.start && ms <= x.stop);
    // While a window that will hold `ms` is on its way, nothing more is asked: a mission replay's
    // clock runs on while it loads, and asking from each new instant was one request per body
    // per frame until the first answer came.
    if (!current && [...this.pending.values()].some((p) => ms >= p.start && ms <= p.stop)) return;
    const start = current ? current.start : ms;
    this.request(start, w);
    if (!current) return;
    // Prefetch the next window once half of this one has played.
    if (ms > current.start + w / 2) this.request(current.stop, w);
    // Keep two windows: the one playing and the next.
    this.windows = this.windows.filter((x) => x.stop >= ms - w);
  }

  request(start, w) {
    if (this.windows.some((x) => x.start === start) || this.pending.has(start)) return;
    const generation = this.generation;
    const job = this.load(start, w)
      .then((win) => {
        if (generation === this.generation) this.windows.push(win);
      })
      .catch((e) => {
        if (generation === this.generation) this.onError(e);
      })
      .finally(() => this.pending.delete(start));
    this.pending.set(start, { start, stop: start + w, job });
  }

  /** Whether positions at `ms` can be interpolated now. */
  covers(ms) {
    return this.windows.some((x) => ms >= x.start && ms <= x.stop);
  }

  /** The latest instant the loaded windows reach from `ms` (the clock may not run past it). */
  horizon(ms) {
    let h = -Infinity;
    for (const x of this.windows) if (ms >= x.start - 1 && x.stop > h) h = x.stop;
    return h;
  }

  async load(start, w) {
    const stop = start + w;
    const entries = await Promise.all(
      this.bodies.map(async (b) => {
        const periodMs = (b.orbit?.periodDays ?? 365) * MS.day;
        const wanted = Math.ceil(w / (periodMs / SAMPLES_PER_ORBIT)) + 1;
        // Faster than the samples can follow (the ISS at a day per second): not drawn while playing.
        if (wanted > MAX_SAMPLES) return [b.id, null];
        const n = Math.max(3, wanted);
        const stepSeconds = Math.max(1, Math.ceil(w / 1000 / (n - 1)));
        const body = await getJSON(`v1/positions/${b.id}`, {
          start: dateParam(start), stop: dateParam(start + stepSeconds * 1000 * (n - 1)), step: `${stepSeconds}s`, frame: 'scene',
        });
        const p = body.samples.map((s) => s.position);
        const v = body.samples.map((s) => s.velocity);
        return [b.id, { start, stepMs: stepSeconds * 1000, p, v }];
      }),
    );
    return { start, stop, series: new Map(entries) };
  }

  /** Scene position of `id` at `ms`; undefined when no window holds it, null when too fast to follow. */
  positionAt(id, ms) {
    if (id === 'sun') return [0, 0, 0];
    const win = this.windows.find((x) => ms >= x.start && ms <= x.stop);
    if (!win) return undefined;
    const s = win.series.get(id);
    if (!s) return s === null ? null : undefined;
    const u = (ms - s.start) / s.stepMs;
    const i = Math.min(s.p.length - 2, Math.max(0, Math.floor(u)));
    return hermite(s.p[i], s.v[i], s.p[i + 1], s.v[i + 1], u - i, s.stepMs / MS.day);
  }
}

/** Cubic Hermite between (p0, v0) and (p1, v1), `h` days apart, at fraction `s`. */
export function hermite(p0, v0, p1, v1, s, h) {
  const s2 = s * s;
  const s3 = s2 * s;
  const h00 = 2 * s3 - 3 * s2 + 1;
  const h10 = s3 - 2 * s2 + s;
  const h01 = -2 * s3 + 3 * s2;
  const h11 = s3 - s2;
  return [0, 1, 2].map((k) => h00 * p0[k] + h10 * h * v0[k] + h01 * p1[k] + h11 * h * v1[k]);
}
