// The viewer: the solar system at a date from the API, drawn with WebGL2 (render3d.js) or, where
// WebGL2 is missing or `?renderer=2d` asks for it, on a 2D canvas (render.js), with a clock,
// camera presets, mission replays and a link to the server's own picture of the same view.
// Labels and vehicle markers are the last pass of either renderer: into the WebGL canvas, or on
// the 2D one (#sky, which in WebGL mode only takes the pointer and keyboard and holds no pixels
// once the scene is drawn). State for the browser check is `window.__solarsystem`, read from the
// last frame drawn when asked.

import { getJSON, apiURL, prefetchJSON } from './api.js';
import { OrbitCamera, overviewPose, MAX_ELEVATION, MAX_DISTANCE } from './camera.js';
import { attachControls } from './controls.js';
import { Motion } from './motion.js';
import { MissionReplay } from './mission.js';
import { SmallBodyLayer } from './smallbodies.js';
import { drawFrame, overlayContent, projectBodies } from './render.js';
import { GLRenderer, loadImage, hasTexture } from './render3d.js';
import { dateParam, isoSeconds, parseDateInput, MS } from './time.js';
import { add, sub, scale, normalize, lerp } from './vec.js';

const $ = (id) => document.getElementById(id);
const ui = {
  canvas: $('sky'), form: $('time-form'), date: $('date'), dateHelp: $('date-help'), now: $('now'),
  play: $('play'), speed: $('speed'), focus: $('focus'), mission: $('mission'), labels: $('labels'),
  smallBodies: $('smallbodies'), picture: $('picture'), status: $('status'), error: $('error'), errorText: $('error-text'), dismiss: $('error-dismiss'),
  gl: $('gl'), panelToggle: $('panel-toggle'), panelBody: $('panel-body'),
  panel: $('mission-panel'), missionName: $('mission-name'), met: $('t-met'), phase: $('t-phase'), distance: $('t-distance'),
  speedKm: $('t-speed'), last: $('t-last'), next: $('t-next'), timeline: $('timeline'),
};
/** The 2D canvas's context, asked only without WebGL: a canvas with a 2D context is a layer the
 * compositor blends over the WebGL one every frame, even with a 0 × 0 bitmap (~4 ms a frame of
 * the GPU process in SwiftShader), and one without is not. Text is measured on a detached canvas. */
let ctx = null;
const measure = document.createElement('canvas').getContext('2d');
const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');
const params = new URLSearchParams(location.search);

/** WebGL2 unless it is missing or `?renderer=2d`; `?spin=deg` turns the Earth's map (only to show the check can fail);
 * `?aa=fxaa` adds an FXAA pass (off by default: it costs more than a tenth of the frame in software WebGL). */
let gl = null;
let glFailure = '';
/** Called once the first requests are on their way: compiling the shaders blocks the page for a while in software WebGL. */
function startGL() {
  if (params.get('renderer') === '2d') return;
  try {
    gl = new GLRenderer(ui.gl, {
      textureURL: (id) => apiURL(`v1/textures/${id}.png`),
      onTexture: () => requestDraw(),
      onRestored: () => { overlayCache.signature = null; requestDraw(); },
      spin: ((Number(params.get('spin')) || 0) * Math.PI) / 180,
      fxaa: params.get('aa') === 'fxaa',
    });
  } catch (e) {
    glFailure = e.message;
    gl = null;
  }
}

const state = {
  catalogue: new Map(), // id → /v1/bodies entry
  bodies: new Map(), // id → /v1/scene entry (radius, colour, rings…)
  positions: new Map(), // id → scene position drawn now
  sceneMs: null,
  orbits: null, orbitCenters: new Map(), orbitsMs: null, orbitsLoading: false,
  stars: null,
  simMs: Date.now(),
  playing: false,
  speed: 86_400,
  focus: 'overview',
  camera: new OrbitCamera(),
  pan: [0, 0, 0],
  transition: null,
  mission: null,
  errors: [],
  ready: false,
  pending: 0,
  drawn: null,
  width: 0, height: 0,
  firstTexturedMs: null,
};
let motion = null;
const smallBodies = new SmallBodyLayer((e) => showError(e));

// ---- Errors and status -------------------------------------------------------------------

function showError(e) {
  if (e?.name === 'AbortError') return;
  const message = e?.message || String(e);
  state.errors.push(message);
  ui.errorText.textContent = message;
  ui.error.hidden = false;
  requestDraw();
}

function setStatus(text) {
  setText(ui.status, text);
}

/** Writes an element's text only when it changes (a write, even of the same text, invalidates its layout). */
function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

ui.dismiss.addEventListener('click', () => { ui.error.hidden = true; });

/** Runs an async step, counting it as pending (the page is not `ready` meanwhile). */
async function task(fn) {
  state.pending += 1;
  try {
    return await fn();
  } catch (e) {
    showError(e);
    return undefined;
  } finally {
    state.pending -= 1;
    requestDraw();
  }
}

// ---- Data --------------------------------------------------------------------------------

async function loadCatalogue() {
  const [bodies, stars, missions] = await Promise.all([
    getJSON('v1/bodies'), getJSON('v1/stars', { maxMagnitude: 5 }), getJSON('v1/missions'),
  ]);
  for (const b of bodies.bodies) state.catalogue.set(b.id, b);
  state.stars = stars.stars.map((s) => ({ ...s, direction: normalize(s.position) }));
  motion = new Motion([...state.catalogue.values()], showError);
  for (const b of bodies.bodies) {
    if (b.id === 'sun' || b.type === 'planet' || b.type === 'dwarf_planet' || b.id === 'moon') {
      ui.focus.append(new Option(b.name, b.id));
    }
  }
  for (const m of missions.missions) ui.mission.append(new Option(`${m.name} — ${m.subtitle}`, m.id));
}

/** Exact positions at `ms` from `/v1/scene`, and the orbit lines at that date. */
async function loadScene(ms) {
  const date = dateParam(ms);
  const scenePromise = getJSON('v1/scene', { date });
  // The orbit lines are fetched once per date the person sets (not while time runs: over a
  // playback window they barely change, and the moons' follow their parent's motion).
  const [scene] = await Promise.all([scenePromise, needOrbits(ms) ? loadOrbits(ms, scenePromise) : null]);
  if (state.playing && !state.mission) return; // the clock moved on; the motion windows draw
  state.sceneMs = ms;
  for (const b of scene.bodies) {
    state.bodies.set(b.id, b);
    state.positions.set(b.id, b.position);
  }
}

/** Orbits are refetched when the date moved by more than this from theirs (a moon's orbit turns slowly). */
const ORBITS_VALID_MS = 30 * MS.day;
/** While the clock runs, not more often than this (wall clock): Voyager 2's replay at 20,000,000×
 * crosses 30 days every 0.13 s, and asked for the orbits, parsed them and rebuilt their buffer
 * all the time. */
const ORBITS_PLAYING_MS = 10_000;

function needOrbits(ms) {
  if (state.orbitsMs === null) return true;
  if (Math.abs(ms - state.orbitsMs) <= ORBITS_VALID_MS) return false;
  return !state.playing || performance.now() - (state.orbitsAt ?? 0) >= ORBITS_PLAYING_MS;
}

async function loadOrbits(ms, scenePromise) {
  if (state.orbitsLoading) return;
  state.orbitsLoading = true;
  try {
    const [orbits, centers] = await Promise.all([
      getJSON('v1/orbits', { date: dateParam(ms), samples: 160 }),
      scenePromise ?? getJSON('v1/scene', { date: dateParam(ms) }),
    ]);
    state.orbits = orbits.bodies;
    state.orbitCenters = new Map(centers.bodies.map((b) => [b.id, b.position]));
    for (const b of centers.bodies) if (!state.bodies.has(b.id)) state.bodies.set(b.id, b);
    state.orbitsMs = ms;
    state.orbitsAt = performance.now();
  } finally {
    state.orbitsLoading = false;
  }
}

// ---- Camera ------------------------------------------------------------------------------

function aspect() {
  return state.width / Math.max(1, state.height);
}

/** The camera's target before panning: the focused body, the mission's local centre, or the Sun. */
function focusPoint() {
  if (state.focus === 'mission' && state.mission?.framing) {
    const earth = state.positions.get('earth') ?? [0, 0, 0];
    return add(earth, state.mission.framing.localCenter);
  }
  if (state.focus !== 'overview') return state.positions.get(state.focus) ?? [0, 0, 0];
  return [0, 0, 0];
}

function overview() {
  let extent = 1;
  for (const [id, b] of state.bodies) {
    if ((b.type === 'planet' || b.type === 'dwarf_planet') && state.positions.has(id)) {
      const p = state.positions.get(id);
      extent = Math.max(extent, Math.hypot(p[0], p[1], p[2]));
    }
  }
  return overviewPose(extent, aspect());
}

/** Moves the camera to a pose, smoothly unless the person prefers reduced motion. */
function moveCamera(pose) {
  const c = state.camera;
  const to = { azimuth: pose.azimuth, elevation: pose.elevation, distance: pose.distance };
  if (reducedMotion.matches || !state.ready) {
    Object.assign(c, to);
    state.transition = null;
  } else {
    // Turn the short way round.
    let from = c.azimuth;
    while (to.azimuth - from > Math.PI) from += 2 * Math.PI;
    while (to.azimuth - from < -Math.PI) from -= 2 * Math.PI;
    state.transition = { start: performance.now(), from: { azimuth: from, elevation: c.elevation, distance: c.distance, target: c.target }, to };
  }
  state.pan = [0, 0, 0];
  requestDraw();
}

async function applyFocus(id) {
  state.focus = id;
  gl?.prefetch(id);
  ui.focus.value = id === 'mission' ? 'overview' : id;
  if (id === 'overview') {
    moveCamera(overview());
    return;
  }
  const f = await getJSON(`v1/camera/focus/${id}`, { date: dateParam(state.simMs), aspect: aspect().toFixed(4) });
  if (state.focus !== id) return;
  const pose = { azimuth: f.azimuthRad, elevation: f.elevationRad, distance: f.distance };
  moveCamera(pose);
}

function stepTransition(now) {
  const t = state.transition;
  const c = state.camera;
  const target = add(focusPoint(), state.pan);
  if (!t) {
    c.target = target;
    return;
  }
  const u = Math.min(1, (now - t.start) / 700);
  const e = u < 0.5 ? 2 * u * u : 1 - (-2 * u + 2) ** 2 / 2;
  c.azimuth = t.from.azimuth + (t.to.azimuth - t.from.azimuth) * e;
  c.elevation = t.from.elevation + (t.to.elevation - t.from.elevation) * e;
  c.distance = Math.exp(Math.log(t.from.distance) + (Math.log(t.to.distance) - Math.log(t.from.distance)) * e);
  c.target = lerp(t.from.target, target, e);
  if (u >= 1) state.transition = null;
}

function minimumDistance() {
  const b = state.bodies.get(state.focus);
  return b ? b.sceneRadius * 1.6 : 0.05;
}

const cameraHandlers = {
  interact() {
    state.transition = null;
  },
  orbit(dAz, dEl) {
    const c = state.camera;
    c.azimuth += dAz;
    c.elevation = Math.max(-MAX_ELEVATION, Math.min(MAX_ELEVATION, c.elevation + dEl));
    requestDraw();
  },
  pan(dx, dy) {
    const view = state.camera.view(state.width, state.height);
    const unitsPerPixel = state.camera.distance / view.pixelsPerUnit;
    state.pan = add(state.pan, add(scale(view.right, -dx * unitsPerPixel), scale(view.up, dy * unitsPerPixel)));
    requestDraw();
  },
  zoom(factor) {
    const c = state.camera;
    c.distance = Math.max(minimumDistance(), Math.min(MAX_DISTANCE, c.distance * factor));
    requestDraw();
  },
  reset() {
    // Counted as pending, so the page is not `ready` until the flight toward the preset has begun.
    if (state.focus === 'mission') resetMissionCamera();
    else task(() => applyFocus(state.focus));
  },
  togglePlay() { togglePlay(); },
  /** A tap: the body drawn under it (the nearest within its disc + 8 px) becomes the focus. */
  select(x, y) {
    if (!state.drawn) return;
    let best = null;
    for (const [id, s] of state.drawn.screen) {
      if (!s.visible || id === 'iss') continue;
      const d = Math.hypot(s.x - x, s.y - y);
      if (d <= s.r + 8 && (!best || d - s.r < best.d)) best = { id, d: d - s.r };
    }
    if (!best || ![...ui.focus.options].some((o) => o.value === best.id)) return;
    if (best.id === state.focus) return;
    task(() => applyFocus(best.id));
  },
};

// ---- Time --------------------------------------------------------------------------------

async function setDate(ms) {
  state.simMs = ms;
  motion?.reset(state.speed);
  ui.date.value = isoSeconds(Math.round(ms / 1000) * 1000);
  if (smallBodies.stale(ms)) task(() => smallBodies.load(ms));
  await task(() => loadScene(ms));
}

function togglePlay() {
  if (state.mission) {
    const m = state.mission;
    if (state.playing) {
      pause();
    } else {
      const from = m.replay.ended ? 0 : m.hours;
      if (m.replay.ended) resetTimeline();
      state.playing = true;
      motion.reset(state.speed);
      m.replay.start(from, state.speed);
      m.sync = { hours: from, at: performance.now() };
    }
  } else if (state.playing) {
    pause();
  } else {
    state.playing = true;
    motion.reset(state.speed);
    state.lastTick = performance.now();
  }
  updatePlayButton();
  requestDraw();
}

function pause() {
  state.playing = false;
  state.mission?.replay.stop();
  updatePlayButton();
  // Exact positions for the instant the clock stopped at (to the second).
  const ms = Math.round(state.simMs / 1000) * 1000;
  setDate(ms);
}

function updatePlayButton() {
  const ended = state.mission?.replay.ended;
  ui.play.textContent = state.playing ? 'Pause' : ended ? 'Replay' : 'Play';
  ui.play.setAttribute('aria-pressed', String(state.playing));
}

/** Advances the clock; while playing, positions come from the motion windows. */
function advance(now) {
  const dt = Math.min(0.25, (now - (state.lastTick ?? now)) / 1000);
  state.lastTick = now;
  if (state.mission) {
    const m = state.mission;
    if (!m.sync) return;
    const ahead = ((now - m.sync.at) / 1000) * state.speed / 3600;
    // Run on between telemetry messages, never more than half a second of replay past the last one.
    m.hours = Math.min(m.detail.replayEndHours, m.sync.hours + Math.min(ahead, (state.speed * 0.5) / 3600));
    state.simMs = m.launchMs + m.hours * MS.hour;
  } else {
    const next = state.simMs + dt * 1000 * state.speed;
    const horizon = motion.horizon(state.simMs);
    state.simMs = Math.min(next, Math.max(state.simMs, horizon));
    setStatus(next > horizon ? 'Loading positions…' : '');
  }
  motion.prepare(state.simMs);
  if (motion.covers(state.simMs)) {
    for (const id of state.bodies.keys()) {
      const p = motion.positionAt(id, state.simMs);
      if (p === null) state.positions.delete(id);
      else if (p) state.positions.set(id, p);
    }
  }
  if (!state.orbitsLoading && needOrbits(state.simMs)) loadOrbits(state.simMs).catch(showError);
  if (smallBodies.stale(state.simMs)) smallBodies.load(state.simMs).then(requestDraw);
  // The date field four times a second: at 10,000× its seconds change every frame, and each
  // change had the field drawn again (the browser's raster, in the GPU process), for a figure
  // nobody can read at that pace.
  if (document.activeElement !== ui.date && now - (state.dateShownAt ?? -Infinity) >= 250) {
    state.dateShownAt = now;
    const shown = isoSeconds(Math.round(state.simMs / 1000) * 1000);
    if (ui.date.value !== shown) ui.date.value = shown;
  }
}

// ---- Missions ----------------------------------------------------------------------------

async function selectMission(id) {
  state.mission?.replay.stop();
  state.mission = null;
  state.playing = false;
  ui.panel.hidden = true;
  if (!id) {
    removeMissionSpeed();
    updatePlayButton();
    await applyFocus('overview');
    return;
  }
  const [detail, trajectory, framing] = await Promise.all([
    getJSON(`v1/missions/${id}`),
    getJSON(`v1/missions/${id}/trajectory`, { frame: 'scene', samples: 1200 }),
    getJSON(`v1/missions/${id}/framing`, { aspect: aspect().toFixed(4) }),
  ]);
  const launchMs = Date.parse(detail.launchDate);
  const m = {
    detail, trajectory, framing, launchMs, hours: 0, sync: null, telemetry: null,
    replay: new MissionReplay(detail, {
      telemetry: (t) => onTelemetry(m, t),
      event: (e) => onMissionEvent(m, e),
      status: setStatus,
      ended: () => onMissionEnd(m),
      failed: (message) => { showError(new Error(message)); state.playing = false; updatePlayButton(); },
    }),
  };
  state.mission = m;
  const speed = Number(params.get('speed')) || detail.autoTimeScale;
  ui.panelBody.hidden = matchMedia('(max-width: 640px)').matches;
  updatePanelToggle();
  setMissionSpeed(speed);
  ui.missionName.textContent = `${detail.name} — ${detail.subtitle}`;
  resetTimeline();
  showTelemetry(null);
  ui.panel.hidden = false;
  await setDate(launchMs);
  resetMissionCamera();
  updatePlayButton();
}

function resetMissionCamera() {
  const f = state.mission?.framing;
  if (f?.mode === 'follow') {
    state.focus = 'mission';
    moveCamera({ azimuth: f.azimuthRad, elevation: f.elevationRad, distance: f.distance });
  } else {
    state.focus = 'overview';
    moveCamera(overview());
  }
  ui.focus.value = 'overview';
}

function setMissionSpeed(speed) {
  removeMissionSpeed();
  if (![...ui.speed.options].some((o) => Number(o.value) === speed)) {
    const o = new Option(`${Number(speed).toLocaleString('en')}× (mission)`, String(speed));
    o.dataset.mission = 'true';
    ui.speed.append(o);
  }
  ui.speed.value = String(speed);
  state.speed = speed;
}

function removeMissionSpeed() {
  for (const o of [...ui.speed.options]) if (o.dataset.mission) o.remove();
  if (!ui.speed.value) ui.speed.value = '86400';
  state.speed = Number(ui.speed.value);
}

function resetTimeline() {
  const m = state.mission;
  ui.timeline.replaceChildren(...m.detail.events.map((e) => {
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

function metText(hours) {
  const total = Math.round(hours * 3600);
  const d = Math.floor(total / 86400);
  const h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  return `T+${d}d ${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/** The panel's figures at most this often while the replay runs (telemetry comes at 10 Hz; each
 * change has the panel laid out and rastered again, in the GPU process in software WebGL). */
const PANEL_INTERVAL_MS = 250;

function onTelemetry(m, t) {
  m.telemetry = t;
  const now = performance.now();
  m.sync = { hours: t.t, at: now };
  if (!state.playing || now - (m.panelAt ?? -Infinity) >= PANEL_INTERVAL_MS) {
    m.panelAt = now;
    showTelemetry(t);
  } else {
    // The latest figures once the interval is over, even if no more telemetry comes.
    clearTimeout(m.panelTimer);
    m.panelTimer = setTimeout(() => {
      if (state.mission !== m) return;
      m.panelAt = performance.now();
      showTelemetry(m.telemetry);
    }, PANEL_INTERVAL_MS - (now - m.panelAt));
  }
}

function showTelemetry(t) {
  const v = t?.vehicles.find((x) => x.primary) ?? t?.vehicles[0];
  const helio = state.mission?.detail.referenceFrame === 'heliocentric';
  setText(ui.met, t ? t.met : '—');
  setText(ui.last, t?.lastEvent ? `${t.lastEvent.name} (${metText(t.lastEvent.t)})` : '—');
  setText(ui.next, t?.nextEvent ? `${t.nextEvent.name} (${metText(t.nextEvent.t)})` : '—');
  // After splashdown no vehicle flies: the last figures stay.
  if (t && !v) return;
  setText(ui.phase, v ? v.phase.replace(/([A-Z])/g, ' $1').toLowerCase() : '—');
  setText(ui.distance, v ? (helio ? `${v.distanceAU.toFixed(3)} AU from the Sun` : `${Math.round(v.distanceKm).toLocaleString('en')} km from Earth`) : '—');
  setText(ui.speedKm, v ? `${v.speedKmS.toFixed(2)} km/s` : '—');
}

function onMissionEvent(m, e) {
  const key = `${e.t}|${e.name}`;
  for (const li of ui.timeline.children) {
    if (li.classList.contains('current') !== (li.dataset.key === key)) li.classList.toggle('current');
    if (li.dataset.key === key) {
      li.classList.add('done');
      if (!reducedMotion.matches) li.scrollIntoView({ block: 'nearest' });
    }
  }
  setStatus(`${e.name}: ${e.detail}`);
}

function onMissionEnd(m) {
  state.playing = false;
  m.hours = m.detail.replayEndHours;
  updatePlayButton();
  setStatus(`${m.detail.name}: replay finished.`);
  setDate(m.launchMs + m.hours * MS.hour);
}

/** Trajectory lines, vehicle markers and visible event labels for the current mission time. */
function missionOverlay() {
  const m = state.mission;
  if (!m) return null;
  const origin = m.trajectory.sceneOrigin === 'earth' ? state.positions.get('earth') ?? [0, 0, 0] : [0, 0, 0];
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
  for (const v of m.trajectory.vehicles) {
    const p = at(v, m.hours);
    if (p) markers.push({ id: v.id, name: v.name, colorRgb: v.colorRgb, position: p });
  }
  const primary = m.trajectory.vehicles.find((v) => v.primary) ?? m.trajectory.vehicles[0];
  const eventLabels = [];
  for (const e of m.telemetry?.visibleLabels ?? []) {
    const p = primary && at(primary, Math.min(Math.max(e.t, primary.times[0]), primary.times[primary.times.length - 1]));
    if (p) eventLabels.push({ name: e.name, position: p });
  }
  return { origin, vehicles: m.trajectory.vehicles, hours: m.hours, markers, eventLabels };
}

// ---- Drawing -----------------------------------------------------------------------------

let drawRequested = false;
/** The overlay's last layout and what it showed (it is laid out and uploaded again only when that changes). */
const overlayCache = { signature: null };
function requestDraw() {
  drawRequested = true;
}

function resize() {
  const rect = ui.canvas.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  state.width = Math.max(1, Math.round(rect.width));
  state.height = Math.max(1, Math.round(rect.height));
  if (gl) {
    // Only the pointer and keyboard use #sky then: no bitmap, no context.
    ui.canvas.width = 0;
    ui.canvas.height = 0;
    gl.resize(Math.round(state.width * dpr), Math.round(state.height * dpr));
  } else {
    ui.canvas.width = Math.round(state.width * dpr);
    ui.canvas.height = Math.round(state.height * dpr);
    ctx ??= ui.canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  }
  overlayCache.signature = null;
  requestDraw();
}

/** The message shown before the scene arrives (or instead of it), as an overlay label in WebGL. */
const MESSAGE_FONT = '15px system-ui, sans-serif';
function messageOverlay(text) {
  measure.font = MESSAGE_FONT;
  // One line across the view at most (the error banner has the whole detail).
  const room = Math.min(state.width - 24, 1000);
  while (text.length > 20 && measure.measureText(text).width > room) text = `${text.slice(0, Math.floor(text.length * 0.9))}…`;
  const w = Math.ceil(measure.measureText(text).width) + 4;
  const h = 19;
  const box = { x: Math.round((state.width - w) / 2), y: Math.round(state.height / 2 - h / 2), w, h };
  const label = { id: 'message', text, font: MESSAGE_FONT, color: '#c8cde0', box };
  return { rings: [], glows: [], placed: [label], signature: `${text}|${box.x},${box.y}`, result: null };
}
new ResizeObserver(resize).observe(ui.canvas);

function render(now) {
  stepTransition(now);
  const view = state.camera.view(state.width, state.height);
  state.view = view;
  if (!state.bodies.size) {
    const message = state.errors.length ? `The scene could not be loaded: ${state.errors.at(-1)}` : 'Loading the solar system…';
    if (gl) {
      gl.draw({ view, bodies: new Map(), positions: new Map(), orbits: null, orbitCenters: new Map(), stars: null, mission: null, focus: state.focus }, new Map(), messageOverlay(message));
      return;
    }
    overlayCache.signature = null;
    ctx.fillStyle = '#03040c';
    ctx.fillRect(0, 0, state.width, state.height);
    ctx.fillStyle = '#c8cde0';
    ctx.font = MESSAGE_FONT;
    ctx.textAlign = 'center';
    ctx.fillText(message, state.width / 2, state.height / 2);
    ctx.textAlign = 'start';
    return;
  }
  const frame = {
    view, bodies: state.bodies, positions: state.positions, orbits: state.orbits, orbitCenters: state.orbitCenters,
    stars: state.stars, mission: missionOverlay(), smallBodies: smallBodies.frame(), focus: state.focus, labelsOn: ui.labels.checked,
    cameraDistance: state.camera.distance,
  };
  if (gl) {
    const screen = projectBodies(view, frame);
    const overlay = overlayContent(measure, view, frame, screen, overlayCache);
    const drawn = gl.draw(frame, screen, overlay);
    state.drawn = overlay.result;
    if (drawn.textured && state.firstTexturedMs === null) state.firstTexturedMs = performance.now(); // since the navigation began
  } else {
    state.drawn = drawFrame(ctx, frame);
  }
  state.frame = frameState();
  // The picture link follows the view, at most four times a second while something moves.
  if (!state.playing || now - (state.pictureAt ?? -Infinity) > 250) {
    state.pictureAt = now;
    updatePicture();
  }
}

/** Draws now and returns the WebGL canvas's pixels as a PNG data URL (for the browser check: the buffer is not preserved). */
window.__solarsystemCapture = () => {
  render(performance.now());
  return gl ? ui.gl.toDataURL('image/png') : ui.canvas.toDataURL('image/png');
};
/** Draws now (so the WebGL canvas can be read in the same task). */
window.__solarsystemDraw = () => render(performance.now());

function loop(now) {
  if (state.playing) {
    advance(now);
    drawRequested = true;
  }
  if (state.transition) drawRequested = true;
  if (drawRequested) {
    drawRequested = false;
    render(now);
  }
  requestAnimationFrame(loop);
}

/**
 * The server-rendered PNG of this view: same date, size, camera and pan, and the mission's
 * lines when one is loaded. The camera is always sent explicitly (the server's own mission
 * framing is taken at the picture's instant, while the page keeps the angles it framed at
 * launch and follows the target).
 */
function updatePicture() {
  const href = pictureURL(frameState());
  if (ui.picture.getAttribute('href') !== href) ui.picture.href = href;
}

/** The clock, camera and readiness a frame is drawn with (what the check reads must match the pixels). */
function frameState() {
  const c = state.camera;
  return {
    ready: state.ready && state.pending === 0 && !state.transition, simMs: state.simMs, exact: !state.playing && state.sceneMs === state.simMs,
    playing: state.playing, speed: state.speed, azimuth: c.azimuth, elevation: c.elevation, distance: c.distance, fovDeg: c.fovDeg,
    focus: state.focus, pan: state.pan, hours: state.mission?.hours, smallLoaded: smallBodies.loadedMs !== null && !smallBodies.loading,
  };
}

function pictureURL(f) {
  const m = state.mission;
  const q = { width: clampSize(state.width), height: clampSize(state.height), date: dateParam(Math.round(f.simMs / 1000) * 1000) };
  if (m) q.mission = m.detail.id;
  // The server's target is the focus body (the Sun for the overview); the page's is that point
  // moved by the pan, and for a mission by the mission's local centre from the Earth.
  let pan = f.pan;
  if (f.focus === 'mission') {
    q.focus = 'earth';
    if (m?.framing?.localCenter) pan = add(pan, m.framing.localCenter);
  } else if (f.focus !== 'overview') {
    q.focus = f.focus;
  }
  Object.assign(q, { azimuth: f.azimuth.toFixed(6), elevation: f.elevation.toFixed(6), distance: f.distance.toPrecision(8) });
  if (pan.some((v) => v !== 0)) q.pan = pan.map(panNumber).join(',');
  const small = smallBodies.pictureParam();
  if (small) q.smallBodies = small;
  return apiURL('v1/views/system.png', q);
}

const matrices = (m) => (m ? { proj: Array.from(m.proj), view: Array.from(m.view), eye: [...m.eye] } : {});

/** A pan offset as the server reads it: ten significant digits, within its ±10000. */
const panNumber = (v) => String(Number(Math.max(-1e4, Math.min(1e4, v)).toPrecision(10)));

const clampSize = (n) => Math.max(16, Math.min(4096, Math.round(n)));

/** What the browser check reads: camera, viewport, where each planet was drawn, labels, mission
 * (made when read, from the last frame drawn, rather than every frame). */
Object.defineProperty(window, '__solarsystem', { configurable: true, get: () => (state.frame ? snapshot(state.view, state.frame) : undefined) });
function snapshot(view, f) {
  const planets = {};
  const bodies = {};
  for (const [id, s] of state.drawn.screen) {
    bodies[id] = { x: s.x, y: s.y, r: s.r, ringR: s.ringR, visible: s.visible };
    if (s.entry.type === 'planet' || s.entry.type === 'dwarf_planet') planets[id] = [s.x, s.y];
  }
  const m = state.mission;
  return {
    ready: f.ready,
    date: isoSeconds(f.simMs),
    dateParam: dateParam(f.simMs),
    exact: f.exact,
    playing: f.playing,
    speed: f.speed,
    viewport: { width: view.width, height: view.height },
    camera: {
      eye: view.eye, target: view.target, up: [0, 1, 0], fovDeg: f.fovDeg,
      azimuth: f.azimuth, elevation: f.elevation, distance: f.distance, focus: f.focus,
    },
    planets,
    bodies,
    labels: state.drawn.labels.map((l) => ({ id: l.id, text: l.text, box: l.box })),
    markers: state.drawn.markers,
    smallBodies: smallBodies.on ? { loaded: f.smallLoaded, drawn: state.drawn.smallBodies ?? [] } : null,
    renderer: gl ? 'webgl2' : '2d',
    rendererNote: glFailure,
    gl: gl ? { ...matrices(gl.lastMatrix), texturesPending: gl.pendingTextures, texturedFrames: gl.texturedFrames, lost: gl.lost, restores: gl.restores } : null,
    firstTexturedMs: state.firstTexturedMs,
    picture: new URL(pictureURL(f), location.href).href,
    mission: m ? {
      id: m.detail.id, hours: f.hours, framing: f.focus === 'mission', events: [...m.replay.events], deliveries: m.replay.deliveries,
      reconnects: m.replay.reconnects, ended: m.replay.ended, lastEventId: m.replay.lastEventId,
    } : null,
    errors: [...state.errors],
  };
}

// ---- Wiring ------------------------------------------------------------------------------

ui.form.addEventListener('submit', (e) => {
  e.preventDefault();
  let ms;
  try {
    ms = parseDateInput(ui.date.value);
  } catch (err) {
    ui.date.setAttribute('aria-invalid', 'true');
    ui.dateHelp.textContent = err.message;
    return;
  }
  ui.date.removeAttribute('aria-invalid');
  ui.dateHelp.textContent = '';
  if (state.mission) selectMission('').then(() => { ui.mission.value = ''; setDate(ms); });
  else setDate(ms);
});
ui.now.addEventListener('click', () => {
  ui.date.value = 'now';
  ui.form.requestSubmit();
});
ui.play.addEventListener('click', togglePlay);
for (const type of ['pointerdown', 'focus', 'contextmenu']) ui.picture.addEventListener(type, updatePicture);
ui.smallBodies.addEventListener('change', () => {
  smallBodies.on = ui.smallBodies.checked;
  if (smallBodies.stale(state.simMs)) task(() => smallBodies.load(state.simMs));
  requestDraw();
});
ui.speed.addEventListener('change', () => {
  state.speed = Number(ui.speed.value);
  motion.reset(state.speed);
  const m = state.mission;
  if (m && state.playing) {
    m.replay.start(m.hours, state.speed);
    m.sync = { hours: m.hours, at: performance.now() };
  }
});
ui.focus.addEventListener('change', () => task(() => applyFocus(ui.focus.value)));
ui.mission.addEventListener('change', () => task(() => selectMission(ui.mission.value)));
ui.labels.addEventListener('change', requestDraw);
function updatePanelToggle() {
  ui.panelToggle.textContent = ui.panelBody.hidden ? 'Show' : 'Hide';
  ui.panelToggle.setAttribute('aria-expanded', String(!ui.panelBody.hidden));
  ui.panelToggle.setAttribute('aria-label', ui.panelBody.hidden ? 'Show the mission details' : 'Hide the mission details');
}
ui.panelToggle.addEventListener('click', () => {
  ui.panelBody.hidden = !ui.panelBody.hidden;
  updatePanelToggle();
});
attachControls(ui.canvas, cameraHandlers);

async function start() {
  const catalogue = loadCatalogue();
  catalogue.catch(() => {}); // reported when awaited below
  // The maps a linked view will show first load with the catalogue, while the shaders compile.
  const first = params.get('mission') ? ['earth', 'moon'] : [params.get('focus')];
  if (params.get('renderer') !== '2d') for (const id of first) if (id && hasTexture(id)) loadImage(apiURL(`v1/textures/${id}.png`)).catch(() => {});
  // So are the first scene, orbits and framing when the link names the date: creating the first
  // WebGL context starts the GPU process's software renderer, which blocks this page for most
  // of a second on a loaded two-core machine (so does sizing the 2D canvas: only the layout is
  // read here).
  const rect = ui.canvas.getBoundingClientRect();
  state.width = Math.max(1, Math.round(rect.width));
  state.height = Math.max(1, Math.round(rect.height));
  let linked = null;
  try {
    linked = params.get('date') ? parseDateInput(params.get('date')) : null;
  } catch { /* reported below */ }
  if (linked !== null) {
    const date = dateParam(linked);
    prefetchJSON('v1/scene', { date });
    prefetchJSON('v1/orbits', { date, samples: 160 });
    const f = params.get('focus');
    if (f && f !== 'overview' && !params.get('mission')) prefetchJSON(`v1/camera/focus/${f}`, { date, aspect: aspect().toFixed(4) });
  }
  startGL();
  ui.gl.hidden = !gl;
  resize();
  for (const id of first) if (id) gl?.prefetch(id);
  requestAnimationFrame(loop);
  await task(async () => {
    await catalogue;
    let ms = Date.now();
    const date = params.get('date');
    if (date) {
      try {
        ms = parseDateInput(date);
      } catch (e) {
        showError(e);
      }
    }
    const speed = Number(params.get('speed'));
    if (speed > 0 && [...ui.speed.options].some((o) => Number(o.value) === speed)) ui.speed.value = String(speed);
    state.speed = Number(ui.speed.value);
    await setDate(ms);
    const missionID = params.get('mission');
    const focus = params.get('focus');
    if (missionID) {
      ui.mission.value = missionID;
      await selectMission(missionID);
      // `?hours=` opens the mission paused at that mission time (e.g. Eagle on the Moon).
      const hours = Number(params.get('hours'));
      if (hours > 0 && state.mission) {
        state.mission.hours = Math.min(hours, state.mission.detail.replayEndHours);
        await setDate(state.mission.launchMs + state.mission.hours * MS.hour);
      }
    } else {
      await applyFocus(focus && [...ui.focus.options].some((o) => o.value === focus) ? focus : 'overview');
    }
    // `?azimuth=&elevation=&distance=` (radians, scene units; the server's view parameters) set
    // the camera around the focus, as a link to a picture does.
    const pose = ['azimuth', 'elevation', 'distance'].map((k) => Number(params.get(k)));
    if (params.has('distance') && pose.every(Number.isFinite) && pose[2] > 0) {
      Object.assign(state.camera, { azimuth: pose[0], elevation: Math.max(-MAX_ELEVATION, Math.min(MAX_ELEVATION, pose[1])), distance: pose[2] });
      state.transition = null;
    }
  });
  state.ready = true;
  requestDraw();
  if (params.get('smallbodies') === '1') {
    ui.smallBodies.checked = true;
    smallBodies.on = true;
    task(() => smallBodies.load(state.simMs));
  }
  if (params.get('play') === '1') togglePlay();
}

start();
