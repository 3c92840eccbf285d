// The viewer: the solar system at a date from the API, drawn with WebGL2 (render3d.js) or, where
// WebGL2 is missing or `?renderer=2d` asks for it, on a 2D canvas (render.js), with a clock,
// camera presets, mission replays and a link to the server's own picture of the same view.
// Labels and vehicle markers are the last pass of either renderer: into the WebGL canvas, or on
// the 2D one (#sky, which in WebGL mode only takes the pointer and keyboard and holds no pixels
// once the scene is drawn). State for the browser check is `window.__solarsystem`, read from the
// last frame drawn when asked.
//
// This module puts the page together and draws: the data at the clock's instant (scene.js), the
// clock (timeline.js), the camera (viewpoint.js), the mission (missionpanel.js) and the controls
// (input.js) each own their state; here are the errors and pending work that make the page
// `ready`, the frame loop, the Picture link, what the check reads, and the link's query at start.

import { apiURL, prefetchJSON } from './api.js';
import { MAX_ELEVATION } from './camera.js';
import { attachInput } from './input.js';
import { MissionPanel } from './missionpanel.js';
import { SceneData } from './scene.js';
import { SmallBodyLayer } from './smallbodies.js';
import { Timeline } from './timeline.js';
import { Viewpoint } from './viewpoint.js';
import { drawFrame, overlayContent, projectBodies } from './render.js';
import { GLRenderer, loadImage, hasTexture } from './render3d.js';
import { dateParam, isoSeconds, parseDateInput, MS } from './time.js';
import { add } from './vec.js';

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

// ---- Errors, status and readiness ----------------------------------------------------------

const errors = [];
/** Async steps under way (the page is not `ready` meanwhile), and whether start-up is over. */
let pending = 0;
let ready = false;

function showError(e) {
  if (e?.name === 'AbortError') return;
  const message = e?.message || String(e);
  errors.push(message);
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

/** Runs an async step, counting it as pending (the page is not `ready` meanwhile). */
async function task(fn) {
  pending += 1;
  try {
    return await fn();
  } catch (e) {
    showError(e);
    return undefined;
  } finally {
    pending -= 1;
    requestDraw();
  }
}

const page = { showError, setStatus, setText, task };

// ---- The parts -----------------------------------------------------------------------------

const smallBodies = new SmallBodyLayer((e) => showError(e));
const scene = new SceneData({ playing: () => timeline.playing, replaying: () => missions.current !== null });
const timeline = new Timeline({
  ui: { date: ui.date, play: ui.play, speed: ui.speed }, scene, smallBodies, page, requestDraw,
  mission: () => missions.current, onReplayRestart: () => missions.resetEvents(),
});
const viewpoint = new Viewpoint({
  scene, focusSelect: ui.focus, requestDraw,
  missionFraming: () => missions.current?.framing, date: () => timeline.simMs,
  flights: () => !reducedMotion.matches && ready, prefetch: (id) => gl?.prefetch(id),
});
const missions = new MissionPanel({
  ui: {
    panel: ui.panel, panelBody: ui.panelBody, panelToggle: ui.panelToggle, missionName: ui.missionName, met: ui.met, phase: ui.phase,
    distance: ui.distance, speedKm: ui.speedKm, last: ui.last, next: ui.next, timeline: ui.timeline,
  },
  timeline, viewpoint, page, linkedSpeed: Number(params.get('speed')), reducedMotion,
});

async function loadCatalogue() {
  const catalogue = await scene.loadCatalogue();
  timeline.follow([...scene.catalogue.values()]);
  for (const b of catalogue.bodies) {
    if (b.id === 'sun' || b.type === 'planet' || b.type === 'dwarf_planet' || b.id === 'moon') {
      ui.focus.append(new Option(b.name, b.id));
    }
  }
  for (const m of catalogue.missions) ui.mission.append(new Option(`${m.name} — ${m.subtitle}`, m.id));
}

// ---- Drawing -------------------------------------------------------------------------------

let drawRequested = false;
/** The overlay's last layout and what it showed (it is laid out and uploaded again only when that changes). */
const overlayCache = { signature: null };
function requestDraw() {
  drawRequested = true;
}
/** The last frame: its view, the clock and camera it was drawn with, where each body went. */
let lastView = null;
let lastFrame = null;
let drawn = null;
let firstTexturedMs = null;
let pictureAt = null;

function resize() {
  const rect = ui.canvas.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  viewpoint.setSize(Math.max(1, Math.round(rect.width)), Math.max(1, Math.round(rect.height)));
  const { width, height } = viewpoint;
  if (gl) {
    // Only the pointer and keyboard use #sky then: no bitmap, no context.
    ui.canvas.width = 0;
    ui.canvas.height = 0;
    gl.resize(Math.round(width * dpr), Math.round(height * dpr));
  } else {
    ui.canvas.width = Math.round(width * dpr);
    ui.canvas.height = Math.round(height * dpr);
    ctx ??= ui.canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  }
  overlayCache.signature = null;
  requestDraw();
}

/** The message shown before the scene arrives (or instead of it), as an overlay label in WebGL. */
const MESSAGE_FONT = '15px system-ui, sans-serif';
function messageOverlay(text) {
  const { width, height } = viewpoint;
  measure.font = MESSAGE_FONT;
  // One line across the view at most (the error banner has the whole detail).
  const room = Math.min(width - 24, 1000);
  while (text.length > 20 && measure.measureText(text).width > room) text = `${text.slice(0, Math.floor(text.length * 0.9))}…`;
  const w = Math.ceil(measure.measureText(text).width) + 4;
  const h = 19;
  const box = { x: Math.round((width - w) / 2), y: Math.round(height / 2 - h / 2), w, h };
  const label = { id: 'message', text, font: MESSAGE_FONT, color: '#c8cde0', box };
  return { rings: [], glows: [], placed: [label], signature: `${text}|${box.x},${box.y}`, result: null };
}
new ResizeObserver(resize).observe(ui.canvas);

function render(now) {
  viewpoint.step(now);
  const { width, height } = viewpoint;
  const view = viewpoint.camera.view(width, height);
  lastView = view;
  if (!scene.bodies.size) {
    const message = errors.length ? `The scene could not be loaded: ${errors.at(-1)}` : 'Loading the solar system…';
    if (gl) {
      gl.draw({ view, bodies: new Map(), positions: new Map(), orbits: null, orbitCenters: new Map(), stars: null, mission: null, focus: viewpoint.focus }, new Map(), messageOverlay(message));
      return;
    }
    overlayCache.signature = null;
    ctx.fillStyle = '#03040c';
    ctx.fillRect(0, 0, width, height);
    ctx.fillStyle = '#c8cde0';
    ctx.font = MESSAGE_FONT;
    ctx.textAlign = 'center';
    ctx.fillText(message, width / 2, height / 2);
    ctx.textAlign = 'start';
    return;
  }
  const frame = {
    view, bodies: scene.bodies, positions: scene.positions, orbits: scene.orbits, orbitCenters: scene.orbitCenters,
    stars: scene.stars, mission: missions.overlay(scene.positions), smallBodies: smallBodies.frame(), focus: viewpoint.focus, labelsOn: ui.labels.checked,
    cameraDistance: viewpoint.camera.distance,
  };
  if (gl) {
    const screen = projectBodies(view, frame);
    const overlay = overlayContent(measure, view, frame, screen, overlayCache);
    const result = gl.draw(frame, screen, overlay);
    drawn = overlay.result;
    if (result.textured && firstTexturedMs === null) firstTexturedMs = performance.now(); // since the navigation began
  } else {
    drawn = drawFrame(ctx, frame);
  }
  lastFrame = frameState();
  // The picture link follows the view, at most four times a second while something moves.
  if (!timeline.playing || now - (pictureAt ?? -Infinity) > 250) {
    pictureAt = now;
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
  if (timeline.playing) {
    timeline.advance(now);
    drawRequested = true;
  }
  if (viewpoint.transition) drawRequested = true;
  if (drawRequested) {
    drawRequested = false;
    render(now);
  }
  requestAnimationFrame(loop);
}

// ---- The picture link and what the check reads ---------------------------------------------

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
  const c = viewpoint.camera;
  return {
    ready: ready && pending === 0 && !viewpoint.transition, simMs: timeline.simMs, exact: !timeline.playing && scene.sceneMs === timeline.simMs,
    playing: timeline.playing, speed: timeline.speed, azimuth: c.azimuth, elevation: c.elevation, distance: c.distance, fovDeg: c.fovDeg,
    focus: viewpoint.focus, pan: viewpoint.pan, hours: missions.current?.hours, smallLoaded: smallBodies.loadedMs !== null && !smallBodies.loading,
  };
}

function pictureURL(f) {
  const m = missions.current;
  const q = { width: clampSize(viewpoint.width), height: clampSize(viewpoint.height), date: dateParam(Math.round(f.simMs / 1000) * 1000) };
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
Object.defineProperty(window, '__solarsystem', { configurable: true, get: () => (lastFrame ? snapshot(lastView, lastFrame) : undefined) });
function snapshot(view, f) {
  const planets = {};
  const bodies = {};
  for (const [id, s] of drawn.screen) {
    bodies[id] = { x: s.x, y: s.y, r: s.r, ringR: s.ringR, visible: s.visible };
    if (s.entry.type === 'planet' || s.entry.type === 'dwarf_planet') planets[id] = [s.x, s.y];
  }
  const m = missions.current;
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
    labels: drawn.labels.map((l) => ({ id: l.id, text: l.text, box: l.box })),
    markers: drawn.markers,
    smallBodies: smallBodies.on ? { loaded: f.smallLoaded, drawn: drawn.smallBodies ?? [] } : null,
    renderer: gl ? 'webgl2' : '2d',
    rendererNote: glFailure,
    gl: gl ? { ...matrices(gl.lastMatrix), texturesPending: gl.pendingTextures, texturedFrames: gl.texturedFrames, lost: gl.lost, restores: gl.restores } : null,
    firstTexturedMs,
    picture: new URL(pictureURL(f), location.href).href,
    mission: m ? {
      id: m.detail.id, hours: f.hours, framing: f.focus === 'mission', events: [...m.replay.events], deliveries: m.replay.deliveries,
      reconnects: m.replay.reconnects, ended: m.replay.ended, lastEventId: m.replay.lastEventId,
    } : null,
    errors: [...errors],
  };
}

// ---- Start: the link's query sets the page up ----------------------------------------------

attachInput({ ui, page, timeline, viewpoint, missions, smallBodies, drawn: () => drawn, requestDraw, updatePicture });

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
  viewpoint.setSize(Math.max(1, Math.round(rect.width)), Math.max(1, Math.round(rect.height)));
  let linked = null;
  try {
    linked = params.get('date') ? parseDateInput(params.get('date')) : null;
  } catch { /* reported below */ }
  if (linked !== null) {
    const date = dateParam(linked);
    prefetchJSON('v1/scene', { date });
    prefetchJSON('v1/orbits', { date, samples: 160 });
    const f = params.get('focus');
    if (f && f !== 'overview' && !params.get('mission')) prefetchJSON(`v1/camera/focus/${f}`, { date, aspect: viewpoint.aspect().toFixed(4) });
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
    timeline.initSpeed(Number(params.get('speed')));
    await timeline.setDate(ms);
    const missionID = params.get('mission');
    const focus = params.get('focus');
    if (missionID) {
      ui.mission.value = missionID;
      await missions.select(missionID);
      // `?hours=` opens the mission paused at that mission time (e.g. Eagle on the Moon).
      const hours = Number(params.get('hours'));
      const m = missions.current;
      if (hours > 0 && m) {
        m.hours = Math.min(hours, m.detail.replayEndHours);
        await timeline.setDate(m.launchMs + m.hours * MS.hour);
      }
    } else {
      await viewpoint.applyFocus(focus && [...ui.focus.options].some((o) => o.value === focus) ? focus : 'overview');
    }
    // `?azimuth=&elevation=&distance=` (radians, scene units; the server's view parameters) set
    // the camera around the focus, as a link to a picture does.
    const pose = ['azimuth', 'elevation', 'distance'].map((k) => Number(params.get(k)));
    if (params.has('distance') && pose.every(Number.isFinite) && pose[2] > 0) {
      viewpoint.setPose({ azimuth: pose[0], elevation: Math.max(-MAX_ELEVATION, Math.min(MAX_ELEVATION, pose[1])), distance: pose[2] });
    }
  });
  ready = true;
  requestDraw();
  if (params.get('smallbodies') === '1') {
    ui.smallBodies.checked = true;
    smallBodies.on = true;
    task(() => smallBodies.load(timeline.simMs));
  }
  if (params.get('play') === '1') timeline.togglePlay();
}

start();
