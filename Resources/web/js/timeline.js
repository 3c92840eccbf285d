// The clock: the date shown, Play/Pause, the speed, and while it runs the instant each frame is
// drawn at. Without a mission the clock runs at the chosen speed and positions come from the
// motion windows (motion.js), never ahead of what they have loaded; in a mission replay it
// follows the stream's telemetry (the mission's `hours` and `sync`, set by missionpanel.js).

import { Motion } from './motion.js';
import { isoSeconds, MS } from './time.js';

/** The date field is written at most this often while the clock runs (ms). */
const DATE_FIELD_INTERVAL_MS = 250;

export class Timeline {
  /**
   * `ui`: the date field, Play button and speed menu. `mission()`: the mission being shown or
   * null; `onReplayRestart()`: a replay that had ended starts again (its event list is reset).
   * `page`: showError, setStatus, task.
   */
  constructor({ ui, scene, smallBodies, page, mission, onReplayRestart, requestDraw }) {
    this.ui = ui;
    this.scene = scene;
    this.smallBodies = smallBodies;
    this.page = page;
    this.mission = mission;
    this.onReplayRestart = onReplayRestart;
    this.requestDraw = requestDraw;
    this.simMs = Date.now();
    this.playing = false;
    this.speed = 86_400;
    this.motion = null; // made once the catalogue says which bodies move
    this.lastTick = null;
    this.dateShownAt = null;
  }

  /** The bodies the motion windows follow (catalogue entries). */
  follow(bodies) {
    this.motion = new Motion(bodies, this.page.showError);
  }

  /** The speed menu as a link sets it (`?speed=`, when the menu has it). */
  initSpeed(linked) {
    if (linked > 0 && [...this.ui.speed.options].some((o) => Number(o.value) === linked)) this.ui.speed.value = String(linked);
    this.speed = Number(this.ui.speed.value);
  }

  async setDate(ms) {
    const { smallBodies, page } = this;
    this.simMs = ms;
    this.motion?.reset(this.speed);
    this.ui.date.value = isoSeconds(Math.round(ms / 1000) * 1000);
    if (smallBodies.stale(ms)) page.task(() => smallBodies.load(ms));
    await page.task(() => this.scene.loadScene(ms));
  }

  togglePlay() {
    const m = this.mission();
    if (this.playing) {
      this.pause();
    } else if (m) {
      const from = m.replay.ended ? 0 : m.hours;
      if (m.replay.ended) this.onReplayRestart();
      this.playing = true;
      this.motion.reset(this.speed);
      m.replay.start(from, this.speed);
      m.sync = { hours: from, at: performance.now() };
    } else {
      this.playing = true;
      this.motion.reset(this.speed);
      this.lastTick = performance.now();
    }
    this.updatePlayButton();
    this.requestDraw();
  }

  pause() {
    this.playing = false;
    this.mission()?.replay.stop();
    this.updatePlayButton();
    // Exact positions for the instant the clock stopped at (to the second).
    const ms = Math.round(this.simMs / 1000) * 1000;
    this.setDate(ms);
  }

  /** Stops the clock where it is, without asking for the exact positions (a mission replay
   * ended, failed or was replaced); the caller brings the Play button up to date. */
  halt() {
    this.playing = false;
  }

  updatePlayButton() {
    const ended = this.mission()?.replay.ended;
    this.ui.play.textContent = this.playing ? 'Pause' : ended ? 'Replay' : 'Play';
    this.ui.play.setAttribute('aria-pressed', String(this.playing));
  }

  /** The speed menu changed: the motion windows start again, and a running replay at the new speed. */
  changeSpeed(speed) {
    this.speed = speed;
    this.motion.reset(this.speed);
    const m = this.mission();
    if (m && this.playing) {
      m.replay.start(m.hours, this.speed);
      m.sync = { hours: m.hours, at: performance.now() };
    }
  }

  /** A mission's own speed, added to the menu when it is not one of its choices. */
  useMissionSpeed(speed) {
    this.dropMissionSpeed();
    if (![...this.ui.speed.options].some((o) => Number(o.value) === speed)) {
      const o = new Option(`${Number(speed).toLocaleString('en')}× (mission)`, String(speed));
      o.dataset.mission = 'true';
      this.ui.speed.append(o);
    }
    this.ui.speed.value = String(speed);
    this.speed = speed;
  }

  dropMissionSpeed() {
    for (const o of [...this.ui.speed.options]) if (o.dataset.mission) o.remove();
    if (!this.ui.speed.value) this.ui.speed.value = '86400';
    this.speed = Number(this.ui.speed.value);
  }

  /** Advances the clock (called each frame while playing); positions come from the motion windows. */
  advance(now) {
    const { scene, smallBodies, motion } = this;
    const dt = Math.min(0.25, (now - (this.lastTick ?? now)) / 1000);
    this.lastTick = now;
    const m = this.mission();
    if (m) {
      if (!m.sync) return;
      const ahead = ((now - m.sync.at) / 1000) * this.speed / 3600;
      // Run on between telemetry messages, never more than half a second of replay past the last one.
      m.hours = Math.min(m.detail.replayEndHours, m.sync.hours + Math.min(ahead, (this.speed * 0.5) / 3600));
      this.simMs = m.launchMs + m.hours * MS.hour;
    } else {
      const next = this.simMs + dt * 1000 * this.speed;
      const horizon = motion.horizon(this.simMs);
      this.simMs = Math.min(next, Math.max(this.simMs, horizon));
      this.page.setStatus(next > horizon ? 'Loading positions…' : '');
    }
    motion.prepare(this.simMs);
    scene.followMotion(motion, this.simMs);
    if (!scene.orbitsLoading && scene.needOrbits(this.simMs)) scene.loadOrbits(this.simMs).catch(this.page.showError);
    if (smallBodies.stale(this.simMs)) smallBodies.load(this.simMs).then(this.requestDraw);
    // The date field four times a second: at 10,000× its seconds change every frame, and each
    // change had the field drawn again (the browser's raster, in the GPU process), for a figure
    // nobody can read at that pace.
    if (document.activeElement !== this.ui.date && now - (this.dateShownAt ?? -Infinity) >= DATE_FIELD_INTERVAL_MS) {
      this.dateShownAt = now;
      const shown = isoSeconds(Math.round(this.simMs / 1000) * 1000);
      if (this.ui.date.value !== shown) this.ui.date.value = shown;
    }
  }
}
