// The mission being shown: choosing one (its detail, trajectory and framing), its replay stream
// (mission.js) and what it feeds, the telemetry panel and the event timeline, and the
// trajectories, vehicle markers and event labels the frame draws for it.

import { getJSON } from './api.js';
import { MissionReplay } from './mission.js';
import { MS } from './time.js';
import { add, lerp } from './vec.js';

/** The panel's figures at most this often while the replay runs (telemetry comes at 10 Hz; each
 * change has the panel laid out and rastered again, in the GPU process in software WebGL). */
const PANEL_INTERVAL_MS = 250;
/** Narrower than this the panel is a strip at the bottom, its details collapsed at first. */
const PHONE_QUERY = '(max-width: 640px)';

function metText(hours) {
  const total = Math.round(hours * 3600);
  const d = Math.floor(total / 86400);
  const h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  return `T+${d}d ${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

export class MissionPanel {
  /**
   * `ui`: the panel's elements; `timeline`, `viewpoint`: timeline.js's and viewpoint.js's;
   * `page`: showError, setStatus, setText; `linkedSpeed`: the link's `?speed=` (0 or NaN for
   * the mission's own).
   */
  constructor({ ui, timeline, viewpoint, page, linkedSpeed, reducedMotion }) {
    this.ui = ui;
    this.timeline = timeline;
    this.viewpoint = viewpoint;
    this.page = page;
    this.linkedSpeed = linkedSpeed;
    this.reducedMotion = reducedMotion;
    /** {detail, trajectory, framing, launchMs, hours, sync, telemetry, replay} or null. */
    this.current = null;
  }

  /** Shows mission `id` at its launch, paused (or none, back to the overview, for ''). */
  async select(id) {
    const { ui, timeline, viewpoint, page } = this;
    this.current?.replay.stop();
    this.current = null;
    timeline.halt();
    ui.panel.hidden = true;
    if (!id) {
      timeline.dropMissionSpeed();
      timeline.updatePlayButton();
      await viewpoint.applyFocus('overview');
      return;
    }
    const [detail, trajectory, framing] = await Promise.all([
      getJSON(`v1/missions/${id}`),
      getJSON(`v1/missions/${id}/trajectory`, { frame: 'scene', samples: 1200 }),
      getJSON(`v1/missions/${id}/framing`, { aspect: viewpoint.aspect().toFixed(4) }),
    ]);
    const launchMs = Date.parse(detail.launchDate);
    const m = {
      detail, trajectory, framing, launchMs, hours: 0, sync: null, telemetry: null,
      replay: new MissionReplay(detail, {
        telemetry: (t) => this.onTelemetry(m, t),
        event: (e) => this.onEvent(m, e),
        status: page.setStatus,
        ended: () => this.onEnd(m),
        failed: (message) => { page.showError(new Error(message)); timeline.halt(); timeline.updatePlayButton(); },
      }),
    };
    this.current = m;
    const speed = this.linkedSpeed || detail.autoTimeScale;
    ui.panelBody.hidden = matchMedia(PHONE_QUERY).matches;
    this.updatePanelToggle();
    timeline.useMissionSpeed(speed);
    ui.missionName.textContent = `${detail.name} — ${detail.subtitle}`;
    this.resetEvents();
    this.showTelemetry(null);
    ui.panel.hidden = false;
    await timeline.setDate(launchMs);
    viewpoint.frameMission(this.current?.framing);
    timeline.updatePlayButton();
  }

  /** Show/Hide of the panel's details. */
  togglePanel() {
    this.ui.panelBody.hidden = !this.ui.panelBody.hidden;
    this.updatePanelToggle();
  }

  updatePanelToggle() {
    const { panelToggle, panelBody } = this.ui;
    panelToggle.textContent = panelBody.hidden ? 'Show' : 'Hide';
    panelToggle.setAttribute('aria-expanded', String(!panelBody.hidden));
    panelToggle.setAttribute('aria-label', panelBody.hidden ? 'Show the mission details' : 'Hide the mission details');
  }

  /** The event timeline, none of it done yet. */
  resetEvents() {
    this.ui.timeline.replaceChildren(...this.current.detail.events.map((e) => {
      const li = document.createElement('li');
      li.dataset.key = `${e.t}|${e.name}`;
      const time = document.createElement('span');
      time.className = 'met';
      time.textContent = metText(e.t);
      const name = document.createElement('span');
      name.textContent = e.name;
      name.title = e.detail;
      li.append(time, name);
      return li;
    }));
  }

  onTelemetry(m, t) {
    m.telemetry = t;
    const now = performance.now();
    m.sync = { hours: t.t, at: now };
    if (!this.timeline.playing || now - (m.panelAt ?? -Infinity) >= PANEL_INTERVAL_MS) {
      m.panelAt = now;
      this.showTelemetry(t);
    } else {
      // The latest figures once the interval is over, even if no more telemetry comes.
      clearTimeout(m.panelTimer);
      m.panelTimer = setTimeout(() => {
        if (this.current !== m) return;
        m.panelAt = performance.now();
        this.showTelemetry(m.telemetry);
      }, PANEL_INTERVAL_MS - (now - m.panelAt));
    }
  }

  showTelemetry(t) {
    const { ui } = this;
    const { setText } = this.page;
    const v = t?.vehicles.find((x) => x.primary) ?? t?.vehicles[0];
    const helio = this.current?.detail.referenceFrame === 'heliocentric';
    setText(ui.met, t ? t.met : '—');
    setText(ui.last, t?.lastEvent ? `${t.lastEvent.name} (${metText(t.lastEvent.t)})` : '—');
    setText(ui.next, t?.nextEvent ? `${t.nextEvent.name} (${metText(t.nextEvent.t)})` : '—');
    // After splashdown no vehicle flies: the last figures stay.
    if (t && !v) return;
    setText(ui.phase, v ? v.phase.replace(/([A-Z])/g, ' $1').toLowerCase() : '—');
    setText(ui.distance, v ? (helio ? `${v.distanceAU.toFixed(3)} AU from the Sun` : `${Math.round(v.distanceKm).toLocaleString('en')} km from Earth`) : '—');
    setText(ui.speedKm, v ? `${v.speedKmS.toFixed(2)} km/s` : '—');
  }

  onEvent(m, e) {
    const key = `${e.t}|${e.name}`;
    for (const li of this.ui.timeline.children) {
      if (li.classList.contains('current') !== (li.dataset.key === key)) li.classList.toggle('current');
      if (li.dataset.key === key) {
        li.classList.add('done');
        if (!this.reducedMotion.matches) li.scrollIntoView({ block: 'nearest' });
      }
    }
    this.page.setStatus(`${e.name}: ${e.detail}`);
  }

  onEnd(m) {
    const { timeline } = this;
    timeline.halt();
    m.hours = m.detail.replayEndHours;
    timeline.updatePlayButton();
    this.page.setStatus(`${m.detail.name}: replay finished.`);
    timeline.setDate(m.launchMs + m.hours * MS.hour);
  }

  /** Trajectory lines, vehicle markers and visible event labels for the current mission time
   * (`positions`: the scene's, for an Earth-centred trajectory's origin). */
  overlay(positions) {
    const m = this.current;
    if (!m) return null;
    const origin = m.trajectory.sceneOrigin === 'earth' ? positions.get('earth') ?? [0, 0, 0] : [0, 0, 0];
    const at = (v, hours) => {
      const ts = v.times;
      if (!ts.length || hours < ts[0] || hours > ts[ts.length - 1]) return null;
      let lo = 0;
      let hi = ts.length - 1;
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (ts[mid] <= hours) lo = mid;
        else hi = mid;
      }
      const s = ts[hi] > ts[lo] ? (hours - ts[lo]) / (ts[hi] - ts[lo]) : 0;
      return add(origin, lerp(v.positions[lo], v.positions[hi], s));
    };
    const markers = [];
    const revolutions = [];
    for (const v of m.trajectory.vehicles) {
      // In orbit about a planet the line's samples are a revolution apart (the line leaves
      // those spans out): the revolution flown up to now is drawn instead, its end the marker.
      const inOrbit = (v.orbits ?? []).some((o) => m.hours >= o.startHours && m.hours <= o.endHours);
      const flown = inOrbit ? this.revolution(m, v) : null;
      if (flown) revolutions.push({ id: v.id, colorRgb: v.colorRgb, flown });
      const p = flown ? add(origin, flown.positions[flown.positions.length - 1]) : at(v, m.hours);
      if (p) markers.push({ id: v.id, name: v.name, colorRgb: v.colorRgb, position: p });
    }
    const primary = m.trajectory.vehicles.find((v) => v.primary) ?? m.trajectory.vehicles[0];
    const eventLabels = [];
    for (const e of m.telemetry?.visibleLabels ?? []) {
      const p = primary && at(primary, Math.min(Math.max(e.t, primary.times[0]), primary.times[primary.times.length - 1]));
      if (p) eventLabels.push({ name: e.name, position: p });
    }
    return { origin, vehicles: m.trajectory.vehicles, hours: m.hours, markers, eventLabels, revolutions };
  }

  /**
   * The revolution vehicle `v` flew up to about the mission time (`/revolution`, as the
   * server's pictures draw it), or null until one arrives. Asked again when the time has moved,
   * at most every 250 ms and one at a time; the last answer is drawn meanwhile.
   */
  revolution(m, v) {
    m.revolutions ??= new Map();
    const known = m.revolutions.get(v.id);
    const asked = known?.asked;
    const now = performance.now();
    const stale = !known || (known.hours !== m.hours && !asked?.pending && now - (asked?.at ?? 0) >= 250);
    if (stale) {
      const hours = m.hours;
      const entry = { ...(known ?? { flown: null }), asked: { pending: true, at: now }, hours };
      m.revolutions.set(v.id, entry);
      getJSON(`v1/missions/${m.detail.id}/revolution`, { vehicle: v.id, t: hours.toFixed(6) })
        .then((r) => { entry.flown = r.positions.length > 1 ? r : null; })
        .catch(() => {})
        .finally(() => { entry.asked.pending = false; });
    }
    return m.revolutions.get(v.id).flown;
  }
}
