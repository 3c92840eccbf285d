// Canvas 2D drawing of one frame: star sphere, orbit lines, shaded bodies with Saturn's rings,
// mission trajectories and vehicles, then labels that do not overlap. Returns what was drawn
// where, for the page's own use and for the browser check.

import { sub, add, dot, cross, normalize, scale } from './vec.js';
import { layoutLabels, drawLabels } from './labels.js';

const BACKGROUND = '#03040c';
const MIN_RADIUS_PX = { star: 5, planet: 3.5, dwarf_planet: 2.8, moon: 1.8 };
const ISS_MARKER_PX = 2.5;
const STAR_SIZE_PX = [2.4, 1.7, 1.2, 0.8];

const rgb = (c, a = 1, k = 1) =>
  `rgba(${Math.round(255 * Math.min(1, c[0] * k))}, ${Math.round(255 * Math.min(1, c[1] * k))}, ${Math.round(255 * Math.min(1, c[2] * k))}, ${a})`;

/**
 * `frame`: {view (Projector), bodies (scene entries by id), positions (Map id → [x,y,z]),
 * orbits, orbitsCenters, stars, mission, smallBodies, focus, labelsOn}.
 */
export function drawFrame(ctx, frame) {
  const { view } = frame;
  const W = view.width;
  const H = view.height;
  ctx.fillStyle = BACKGROUND;
  ctx.fillRect(0, 0, W, H);
  drawStars(ctx, view, frame.stars);

  const screen = projectBodies(view, frame);
  drawOrbits(ctx, view, frame, screen);
  if (frame.mission) drawMissionPaths(ctx, view, frame.mission);

  const order = [...screen.values()].filter((s) => s.visible).sort((a, b) => b.depth - a.depth);
  for (const s of order) drawBody(ctx, view, s, frame);
  return drawOverlay(ctx, view, frame, screen);
}

/**
 * What both renderers draw over the bodies last: focus rings, vehicle and small-body markers and
 * the labels. Label priority: 0 the Sun and planets, 1 Pluto and mission vehicles and events, 3
 * the focused system's moons, 4 named stars, 5 other moons. Obstacles: every drawn disc, and a
 * ringed planet's ring system as a disc of the rings' outer radius. `ctx` only measures text.
 * The layout is done again only when an input moved by a tenth of a pixel (`cache.layout`);
 * `signature` says what the layer shows, so whoever paints it can skip a frame where it is the same.
 */
export function overlayContent(ctx, view, frame, screen, cache = null) {
  const W = view.width;
  const H = view.height;
  const order = [...screen.values()].filter((s) => s.visible).sort((a, b) => b.depth - a.depth);
  const rings = order.filter((s) => frame.focus === s.entry.id && s.r < 6);
  const glows = [];
  const markers = frame.mission ? vehicleItems(view, frame.mission, glows) : [];
  const small = frame.smallBodies ? smallBodyItems(view, frame.smallBodies, glows) : [];
  const system = focusSystem(frame);
  const items = [];
  for (const s of order) {
    const e = s.entry;
    if (e.id === 'iss' && s.sceneR < 3) continue;   // labelled only close to the Earth
    const major = e.type === 'star' || e.type === 'planet';
    const priority = major ? 0 : e.type === 'dwarf_planet' ? 1 : e.type === 'moon' && system.has(e.parent) ? 3 : e.type === 'moon' ? 5 : 3;
    items.push({
      id: e.id, text: e.name, x: s.x, y: s.y, r: Math.max(s.r, s.ringR ?? 0), priority,
      font: priority <= 1 ? '600 13px system-ui, sans-serif' : '12px system-ui, sans-serif',
      color: priority <= 1 ? '#f2f4ff' : '#b9c0d8',
    });
  }
  for (const m of markers) items.push(m);
  for (const m of small) items.push(m);
  if (frame.labelsOn !== false && frame.stars) {
    for (const star of frame.stars) {
      if (!star.name || star.tier > 0) continue;
      const p = view.projectDirection(star.direction);
      if (p) items.push({ id: `star:${star.name}`, text: star.name, x: p[0], y: p[1], r: 2, priority: 4, font: '11px system-ui, sans-serif', color: '#8790aa' });
    }
  }
  const obstacles = [];
  for (const s of order) {
    obstacles.push({ id: s.entry.id, x: s.x, y: s.y, r: s.r });
    if (s.ringR) obstacles.push({ id: `${s.entry.id}:rings`, x: s.x, y: s.y, r: s.ringR });
  }
  let placed = [];
  if (frame.labelsOn !== false) {
    // In a mission's view most labels stand still between frames: the same inputs, to a tenth of
    // a pixel, give the same layout.
    const key = cache ? layoutKey(W, H, items, obstacles) : null;
    if (cache && cache.layoutKey === key) placed = cache.placed;
    else placed = layoutLabels(ctx, items, obstacles, W, H);
    if (cache) Object.assign(cache, { layoutKey: key, placed });
  }
  const signature = cache ? [W, H, ...rings.map((s) => `${s.x.toFixed(1)},${s.y.toFixed(1)},${s.r.toFixed(1)}`),
    ...glows.map((g) => `${g.x.toFixed(1)},${g.y.toFixed(1)}`), ...placed.map((l) => `${l.id}@${l.box.x.toFixed(1)},${l.box.y.toFixed(1)}`)].join('|') : null;
  const result = { screen, labels: placed, markers: frame.mission?.markers.map((m) => {
    const p = view.project(m.position);
    return p ? { id: m.id, x: p[0], y: p[1] } : { id: m.id, x: null, y: null };
  }) ?? [], smallBodies: (frame.smallBodies ?? []).map((b) => {
    const p = view.project(b.position);
    return p ? { id: b.id, x: p[0], y: p[1], pathPoints: b.path.length } : { id: b.id, x: null, y: null, pathPoints: b.path.length };
  }) };
  return { rings, glows, placed, signature, result };
}

/** The layout's inputs to a tenth of a pixel, as one string. */
function layoutKey(W, H, items, obstacles) {
  const parts = [W, H];
  for (const i of items) parts.push(i.id, i.priority, (i.x * 10) | 0, (i.y * 10) | 0, (i.r * 10) | 0);
  for (const o of obstacles) parts.push((o.x * 10) | 0, (o.y * 10) | 0, (o.r * 10) | 0);
  return parts.join(',');
}

/**
 * The overlay on a 2D canvas (the 2D renderer's last layer). With a `cache` the canvas is a
 * transparent layer, cleared and redrawn only when what it shows has moved.
 */
export function drawOverlay(ctx, view, frame, screen, cache = null) {
  const { rings, glows, placed, signature, result } = overlayContent(ctx, view, frame, screen, cache);
  if (!cache || cache.signature !== signature) {
    if (cache) {
      ctx.clearRect(0, 0, view.width, view.height);
      cache.signature = signature;
    }
    for (const s of rings) {
      ctx.strokeStyle = 'rgba(255, 210, 120, 0.7)';
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.arc(s.x, s.y, s.r + 4, 0, 2 * Math.PI);
      ctx.stroke();
    }
    if (frame.smallBodies) drawSmallBodyPaths(ctx, view, frame.smallBodies);
    for (const g of glows) {
      const glow = ctx.createRadialGradient(g.x, g.y, 0, g.x, g.y, 9);
      glow.addColorStop(0, rgb(g.colorRgb, 1));
      glow.addColorStop(0.35, rgb(g.colorRgb, 0.6));
      glow.addColorStop(1, rgb(g.colorRgb, 0));
      ctx.fillStyle = glow;
      ctx.beginPath();
      ctx.arc(g.x, g.y, 9, 0, 2 * Math.PI);
      ctx.fill();
    }
    drawLabels(ctx, placed);
  }
  return result;
}

/** The bodies whose moons count as the focused system's: the focus, its parent, the Earth for a mission. */
function focusSystem(frame) {
  const ids = new Set();
  if (frame.focus === 'mission') ids.add('earth');
  const f = frame.bodies.get(frame.focus);
  if (f) {
    ids.add(f.id);
    if (f.parent && f.parent !== 'sun') ids.add(f.parent);
  }
  return ids;
}

/**
 * Whether an orbit line helps in this view. Moons' orbits only while the moon is drawn apart from
 * its parent; the planets' heliocentric orbits only from far out (within a planet's system, or
 * the Earth–Moon view of a mission, a 160-point heliocentric orbit is a straight chord that
 * crosses the screen and says nothing).
 */
function orbitWanted(orbit, frame, screen) {
  if (orbit.center === 'sun') return frame.cameraDistance === undefined || frame.cameraDistance > HELIOCENTRIC_ORBITS_FROM;
  const moon = screen.get(orbit.id);
  return Boolean(moon && moon.visible);
}

/**
 * How an orbit line is drawn in this frame, or null when it is not: its body's entry, the shift
 * that carries a moon's orbit (fetched around its planet's earlier place) to the planet's place
 * now, whether it is the focus, and its opacity. Both renderers use it.
 */
export function orbitStyle(orbit, frame, screen) {
  const entry = frame.bodies.get(orbit.id);
  if (!entry || !orbitWanted(orbit, frame, screen)) return null;
  let shift = [0, 0, 0];
  if (orbit.center !== 'sun') {
    const now = frame.positions.get(orbit.center);
    const then = frame.orbitCenters.get(orbit.center);
    if (!now || !then) return null;
    shift = sub(now, then);
  }
  const focused = frame.focus === orbit.id;
  return { entry, shift, focused, alpha: focused ? 0.85 : entry.type === 'moon' ? 0.3 : 0.42 };
}

/** Camera distance (scene units) from which the planets' orbits are drawn (the server's pictures use the same rule: ViewScene.planetOrbitsFromDistance). */
export const HELIOCENTRIC_ORBITS_FROM = 6;

function drawStars(ctx, view, stars) {
  if (!stars) return;
  for (const star of stars) {
    const p = view.projectDirection(star.direction);
    if (!p || p[0] < -4 || p[1] < -4 || p[0] > view.width + 4 || p[1] > view.height + 4) continue;
    const size = STAR_SIZE_PX[star.tier] ?? 0.8;
    ctx.fillStyle = rgb(star.colorRgb, star.tier === 0 ? 1 : 0.85 - 0.15 * star.tier);
    ctx.beginPath();
    ctx.arc(p[0], p[1], size / 2 + 0.3, 0, 2 * Math.PI);
    ctx.fill();
  }
}

/** Screen place of every body: centre, depth, radius (true size, or a minimum to stay visible). */
export function projectBodies(view, frame) {
  const out = new Map();
  for (const [id, entry] of frame.bodies) {
    const pos = frame.positions.get(id);
    if (!pos) continue;
    const p = view.project(pos);
    if (!p) continue;
    // The ISS is a spacecraft: the scene gives it the planets' minimum radius (0.03, larger than
    // the Moon's), so it is drawn as a marker of at most ISS_MARKER_PX, a dot in WebGL too.
    const sceneR = view.screenRadius(entry.sceneRadius, p[2]);
    const trueR = id === 'iss' ? Math.min(sceneR, ISS_MARKER_PX) : sceneR;
    const r = id === 'iss' ? trueR : Math.max(trueR, MIN_RADIUS_PX[entry.type] ?? 2);
    // The rings are drawn enlarged with the disc (see ringQuads), so their outer edge is at this radius.
    const ringR = entry.ringPlane ? (entry.ringPlane.outerRadius / entry.sceneRadius) * r : 0;
    out.set(id, { entry, x: p[0], y: p[1], depth: p[2], r, trueR, sceneR, ringR, position: pos, visible: true });
  }
  // A moon drawn on top of its parent's dot tells nothing: hidden until the camera comes close.
  for (const s of out.values()) {
    const parent = s.entry.parent && s.entry.parent !== 'sun' ? out.get(s.entry.parent) : null;
    if (parent && Math.hypot(s.x - parent.x, s.y - parent.y) < parent.r + s.r + 4) s.visible = false;
    if (s.x < -s.r || s.y < -s.r || s.x > view.width + s.r || s.y > view.height + s.r) s.visible = false;
  }
  return out;
}

function drawOrbits(ctx, view, frame, screen) {
  if (!frame.orbits) return;
  ctx.lineWidth = 1;
  for (const orbit of frame.orbits) {
    const style = orbitStyle(orbit, frame, screen);
    if (!style) continue;
    const { entry, shift, focused, alpha } = style;
    ctx.strokeStyle = rgb(entry.colorRgb, alpha);
    ctx.lineWidth = focused ? 1.6 : 1;
    ctx.beginPath();
    tracePolyline(ctx, view, orbit.scenePoints, shift);
    ctx.closePath();
    ctx.stroke();
  }
}

function drawBody(ctx, view, s, frame) {
  const { entry } = s;
  if (entry.emissive) {
    const glow = ctx.createRadialGradient(s.x, s.y, s.r * 0.6, s.x, s.y, s.r * 4);
    glow.addColorStop(0, 'rgba(255, 214, 120, 0.55)');
    glow.addColorStop(1, 'rgba(255, 160, 60, 0)');
    ctx.fillStyle = glow;
    ctx.beginPath();
    ctx.arc(s.x, s.y, s.r * 4, 0, 2 * Math.PI);
    ctx.fill();
    const disc = ctx.createRadialGradient(s.x, s.y, 0, s.x, s.y, s.r);
    disc.addColorStop(0, '#fffbe8');
    disc.addColorStop(0.7, rgb(entry.colorRgb, 1, 1.1));
    disc.addColorStop(1, rgb(entry.colorRgb, 1, 0.85));
    ctx.fillStyle = disc;
    ctx.beginPath();
    ctx.arc(s.x, s.y, s.r, 0, 2 * Math.PI);
    ctx.fill();
    return;
  }
  const rings = entry.ringPlane ? ringQuads(view, s, entry.ringPlane) : null;
  if (rings) drawRingQuads(ctx, rings.filter((q) => q.depth >= s.depth));
  // Lit from the Sun: the light direction in camera space moves the bright spot and dims the disc
  // when the Sun is behind the body.
  const L = normalize(sub([0, 0, 0], s.position));
  const lx = dot(L, view.right);
  const ly = dot(L, view.up);
  const lz = dot(L, view.back);
  const k = 0.35 + 0.65 * Math.max(0, (lz + 1) / 2);
  const hx = s.x + lx * s.r * 0.55;
  const hy = s.y - ly * s.r * 0.55;
  const g = ctx.createRadialGradient(hx, hy, s.r * 0.1, s.x, s.y, s.r * 1.05);
  g.addColorStop(0, rgb(entry.colorRgb, 1, 1.25 * k + 0.1));
  g.addColorStop(0.6, rgb(entry.colorRgb, 1, 0.85 * k));
  g.addColorStop(1, rgb(entry.colorRgb, 1, 0.22 * k + 0.05));
  ctx.fillStyle = g;
  ctx.beginPath();
  ctx.arc(s.x, s.y, s.r, 0, 2 * Math.PI);
  ctx.fill();
  if (rings) drawRingQuads(ctx, rings.filter((q) => q.depth < s.depth));
}

/** The ring annulus as 96 quads, each with its depth, so the planet hides the far half only. */
function ringQuads(view, s, ring) {
  const n = normalize(ring.normal);
  const helper = Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 0, 1];
  const u = normalize(cross(n, helper));
  const v = cross(n, u);
  // Drawn at least as large, relative to the disc, as they really are.
  const k = s.r / Math.max(s.trueR, 1e-9);
  const inner = ring.innerRadius * k;
  const outer = ring.outerRadius * k;
  const quads = [];
  const N = 96;
  const point = (a, r) => add(s.position, add(scale(u, Math.cos(a) * r), scale(v, Math.sin(a) * r)));
  for (let i = 0; i < N; i++) {
    const a0 = (2 * Math.PI * i) / N;
    const a1 = (2 * Math.PI * (i + 1)) / N;
    const corners = [point(a0, inner), point(a0, outer), point(a1, outer), point(a1, inner)].map((p) => view.project(p));
    if (corners.some((c) => !c)) continue;
    const depth = (corners[0][2] + corners[1][2] + corners[2][2] + corners[3][2]) / 4;
    quads.push({ corners, depth });
  }
  return quads;
}

function drawRingQuads(ctx, quads) {
  ctx.fillStyle = 'rgba(214, 196, 160, 0.5)';
  for (const q of quads) {
    ctx.beginPath();
    ctx.moveTo(q.corners[0][0], q.corners[0][1]);
    for (let i = 1; i < 4; i++) ctx.lineTo(q.corners[i][0], q.corners[i][1]);
    ctx.closePath();
    ctx.fill();
  }
}

/** Adds scene points (each shifted by `shift`) to the current path, lifting the pen where a
 * point does not project (behind the camera). */
function tracePolyline(ctx, view, points, shift) {
  let pen = false;
  for (const q of points) {
    const p = view.project(add(q, shift));
    if (!p) { pen = false; continue; }
    if (pen) ctx.lineTo(p[0], p[1]);
    else ctx.moveTo(p[0], p[1]);
    pen = true;
  }
}

/**
 * A vehicle's line as the runs to draw, `[first, count]` index ranges: it leaves out the
 * intervals touching an orbit about a planet (`orbits` in /trajectory: Cassini at Saturn, the
 * Mars orbiters), where its samples lie a revolution or more apart and would draw chords
 * through the planet, as the server's pictures do.
 */
export function drawnRuns(v) {
  const orbits = v.orbits ?? [];
  const inOrbit = (t) => orbits.some((o) => t >= o.startHours && t <= o.endHours);
  const runs = [];
  let first = 0;
  for (let i = 1; i <= v.times.length; i++) {
    if (i === v.times.length || inOrbit(v.times[i]) || inOrbit(v.times[i - 1])) {
      if (i - first >= 2) runs.push([first, i - first]);
      first = i;
    }
  }
  return runs;
}

function drawMissionPaths(ctx, view, mission) {
  const origin = mission.origin;
  ctx.lineWidth = 1.6;
  for (const { colorRgb, flown } of mission.revolutions ?? []) {
    ctx.strokeStyle = rgb(colorRgb, 0.95);
    ctx.beginPath();
    tracePolyline(ctx, view, flown.positions, origin);
    ctx.stroke();
  }
  for (const v of mission.vehicles) {
    const drawn = new Set();
    for (const [first, count] of drawnRuns(v)) for (let i = first + 1; i < first + count; i++) drawn.add(i);
    let prev = null;
    for (let i = 0; i < v.positions.length; i++) {
      const p = view.project(add(origin, v.positions[i]));
      if (p && prev && drawn.has(i)) {
        const past = v.times[i] <= mission.hours;
        ctx.strokeStyle = rgb(v.colors[i], past ? 0.95 : 0.35);
        ctx.beginPath();
        ctx.moveTo(prev[0], prev[1]);
        ctx.lineTo(p[0], p[1]);
        ctx.stroke();
      }
      prev = p;
    }
  }
}

export const SMALL_BODY_RGB = { asteroid: [0.85, 0.75, 0.55], comet: [0.55, 0.85, 1] };

/** The asteroids' and comets' paths, thin and faint: a year either side of the date. */
function drawSmallBodyPaths(ctx, view, bodies) {
  ctx.lineWidth = 1;
  for (const b of bodies) {
    ctx.strokeStyle = rgb(SMALL_BODY_RGB[b.type] ?? SMALL_BODY_RGB.asteroid, 0.45);
    ctx.beginPath();
    let drawing = false;
    for (const q of b.path) {
      const p = view.project(q);
      if (!p) { drawing = false; continue; }
      if (drawing) ctx.lineTo(p[0], p[1]); else ctx.moveTo(p[0], p[1]);
      drawing = true;
    }
    ctx.stroke();
  }
}

/** Label items for the small bodies; each one's marker glow goes into `glows`. */
function smallBodyItems(view, bodies, glows) {
  const items = [];
  for (const b of bodies) {
    const p = view.project(b.position);
    if (!p) continue;
    const color = SMALL_BODY_RGB[b.type] ?? SMALL_BODY_RGB.asteroid;
    glows.push({ x: p[0], y: p[1], colorRgb: color });
    items.push({ id: `small:${b.id}`, text: b.name, x: p[0], y: p[1], r: 3, priority: 2, font: '11px system-ui, sans-serif', color: rgb(color, 1) });
  }
  return items;
}

/** Label items for the mission's vehicles and events; each vehicle's marker glow goes into `glows`. */
function vehicleItems(view, mission, glows) {
  const items = [];
  for (const m of mission.markers) {
    const p = view.project(m.position);
    if (!p) continue;
    glows.push({ x: p[0], y: p[1], colorRgb: m.colorRgb });
    items.push({ id: `vehicle:${m.id}`, text: m.name, x: p[0], y: p[1], r: 4, priority: 1, font: '600 12px system-ui, sans-serif', color: rgb(m.colorRgb, 1, 1.1) });
  }
  for (const e of mission.eventLabels) {
    const p = view.project(e.position);
    if (p) items.push({ id: `event:${e.name}`, text: e.name, x: p[0], y: p[1], r: 3, priority: 1, font: 'italic 12px system-ui, sans-serif', color: '#ffd27a' });
  }
  return items;
}
