// WebGL2 drawing of one frame, used when the browser gives a WebGL2 context (the 2D canvas of
// render.js is the fallback). The scene is what /v1/scene says: spheres of `sceneRadius` at
// `position`, turned by `sceneQuaternion` (model frame: north +Y, prime meridian +X, east
// toward −Z, as the server's ray-caster reads its maps), textured from /v1/textures/{id}.png
// and lit by the Sun at the origin in linear light (Lambert with the server's 2 % ambient and
// ×1.5 exposure, then sRGB), the Sun emissive and limb-darkened with an additive glow, Saturn's
// rings from the `saturn-rings` strip with its alpha, darkened in the planet's shadow (and the
// rings' shadow on the planet), the star sphere as points, orbit lines, mission trajectories.
// A body under DOT_RADIUS_PX on screen is a dot (a shaded point sprite) of the 2D renderer's
// minimum size. Labels and vehicle markers are the last pass, in this canvas (overlay3d.js).
// Positions are sent relative to the eye (computed in double precision here), so a close-up
// 16 scene units from the Sun keeps its detail in 32-bit floats. A lost context (the GPU
// process restarted, the driver reset) is waited out and everything is made again on restore.

import { orbitStyle, drawnRuns } from './render.js';
import { GLOverlay, OVERLAY_VS, OVERLAY_FS } from './overlay3d.js';
import { sub, normalize, dot } from './vec.js';

/** A body whose disc is smaller than this (CSS px radius) is drawn as a dot. */
export const DOT_RADIUS_PX = 3;
const SMALL_SPHERE_PX = 40;
const STAR_SIZE_PX = [3.0, 2.2, 1.6, 1.2];
const AMBIENT = 0.02;
const EXPOSURE = 1.5;
const TEXTURED = new Set(['mercury', 'venus', 'earth', 'mars', 'jupiter', 'saturn', 'uranus', 'neptune', 'pluto', 'moon', 'io', 'europa', 'ganymede', 'callisto']);

const SRGB = `
vec3 toSRGB(vec3 c) {
  c = clamp(c, 0.0, 1.0);
  return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(0.0031308, c));
}
vec3 toLinear(vec3 c) { return mix(c / 12.92, pow((c + 0.055) / 1.055, vec3(2.4)), step(0.04045, c)); }
`;

const SPHERE_VS = `#version 300 es
in vec3 aPos;
uniform mat4 uProj;
uniform mat3 uView;
uniform mat3 uModel;
uniform vec3 uCenter;   // body centre − eye
uniform float uRadius;
out vec3 vModel;
out vec3 vNormal;
out vec3 vRel;
void main() {
  vec3 n = uModel * aPos;
  vModel = aPos;
  vNormal = n;
  vRel = uCenter + n * uRadius;
  gl_Position = uProj * vec4(uView * vRel, 1.0);
}`;

const SPHERE_FS = `#version 300 es
precision highp float;
in vec3 vModel;
in vec3 vNormal;
in vec3 vRel;
uniform sampler2D uTex;
uniform sampler2D uRingTex;
uniform bool uHasTex;
uniform bool uEmissive;
uniform bool uHasRing;
uniform vec3 uColor;      // linear
uniform vec3 uSun;        // Sun − eye
uniform vec3 uCenter;
uniform vec3 uRingNormal;
uniform vec2 uRingRadii;
uniform float uSpin;      // extra turn about the pole (radians): 0 except to test the check
out vec4 outColor;
${SRGB}
void main() {
  vec3 n = normalize(vNormal);
  vec3 v = normalize(-vRel);
  if (uEmissive) {
    float mu = max(0.0, dot(n, v));
    vec3 core = mix(uColor, vec3(1.0, 0.97, 0.9), 0.7 * mu);
    outColor = vec4(toSRGB(core * (1.0 - 0.6 * (1.0 - mu)) * 1.25), 1.0);
    return;
  }
  vec3 albedo = uColor;
  if (uHasTex) {
    vec3 m = normalize(vModel);
    float lon = atan(-m.z, m.x) + uSpin;
    float lat = asin(clamp(m.y, -1.0, 1.0));
    vec2 uv = vec2(lon / 6.2831853 + 0.5, 0.5 - lat / 3.1415927);
    // The map's seam: take u's derivatives from whichever of u and u + ½ is continuous here.
    float u2 = fract(uv.x + 0.5);
    float dx = abs(dFdx(uv.x)) < abs(dFdx(u2)) ? dFdx(uv.x) : dFdx(u2);
    float dy = abs(dFdy(uv.x)) < abs(dFdy(u2)) ? dFdy(uv.x) : dFdy(u2);
    albedo = textureGrad(uTex, uv, vec2(dx, dFdx(uv.y)), vec2(dy, dFdy(uv.y))).rgb;
  }
  vec3 toSun = normalize(uSun - vRel);
  float ndl = max(0.0, dot(n, toSun));
  if (uHasRing && ndl > 0.0) {
    float denom = dot(toSun, uRingNormal);
    if (abs(denom) > 1e-6) {
      float t = dot(uCenter - vRel, uRingNormal) / denom;
      if (t > 0.0) {
        float r = length(vRel + toSun * t - uCenter);
        if (r >= uRingRadii.x && r <= uRingRadii.y) {
          float a = texture(uRingTex, vec2((r - uRingRadii.x) / (uRingRadii.y - uRingRadii.x), 0.5)).a;
          ndl *= 1.0 - 0.85 * a;
        }
      }
    }
  }
  outColor = vec4(toSRGB(albedo * (${AMBIENT} + ${1 - AMBIENT} * ndl) * ${EXPOSURE}), 1.0);
}`;

const RING_VS = `#version 300 es
in vec3 aRing;            // cos a, sin a, radial fraction
uniform mat4 uProj;
uniform mat3 uView;
uniform vec3 uCenter;
uniform vec3 uAxisU;
uniform vec3 uAxisV;
uniform vec2 uRadii;      // drawn inner, outer
out vec3 vRel;
out float vT;
void main() {
  float r = mix(uRadii.x, uRadii.y, aRing.z);
  vRel = uCenter + (uAxisU * aRing.x + uAxisV * aRing.y) * r;
  vT = aRing.z;
  gl_Position = uProj * vec4(uView * vRel, 1.0);
}`;

const RING_FS = `#version 300 es
precision highp float;
in vec3 vRel;
in float vT;
uniform sampler2D uRingTex;
uniform bool uHasTex;
uniform vec3 uSun;
uniform vec3 uCenter;
uniform vec3 uNormal;
uniform float uPlanetRadius;
out vec4 outColor;
${SRGB}
void main() {
  vec4 c = uHasTex ? texture(uRingTex, vec2(vT, 0.5)) : vec4(0.5, 0.42, 0.32, 0.6);
  vec3 toSun = normalize(uSun - vRel);
  float light = 1.0;
  // The face turned from the Sun shows only light scattered through the ring.
  if (dot(toSun, uNormal) * dot(-vRel, uNormal) < 0.0) light = 0.3;
  // The planet's shadow: the ray toward the Sun meets the globe.
  vec3 oc = vRel - uCenter;
  float b = dot(oc, toSun);
  if (b < 0.0 && b * b - (dot(oc, oc) - uPlanetRadius * uPlanetRadius) > 0.0) light = ${AMBIENT * 2};
  outColor = vec4(toSRGB(c.rgb * light * ${EXPOSURE}), c.a);
}`;

const POINT_VS = `#version 300 es
in vec3 aPos;             // eye-relative position, or a direction when uDirections
in vec3 aColor;
in float aSize;           // diameter, device px
in vec3 aLight;           // light direction in view space (dots); zero = flat
uniform mat4 uProj;
uniform mat3 uView;
uniform bool uDirections;
out vec3 vColor;
out vec3 vLight;
void main() {
  vec3 p = uView * aPos;
  gl_Position = uProj * vec4(p, uDirections ? 0.0 : 1.0);
  if (uDirections) gl_Position.z = gl_Position.w * 0.99999;
  gl_PointSize = aSize;
  vColor = aColor;
  vLight = aLight;
}`;

const POINT_FS = `#version 300 es
precision highp float;
in vec3 vColor;
in vec3 vLight;
uniform bool uDirections;
out vec4 outColor;
${SRGB}
void main() {
  vec2 q = gl_PointCoord * 2.0 - 1.0;
  q.y = -q.y;
  float rr = dot(q, q);
  if (rr > 1.0) discard;
  if (uDirections) {
    outColor = vec4(vColor, 1.0 - smoothstep(0.35, 1.0, rr));
    return;
  }
  // A dot is a tiny lit sphere: its phase shows.
  float ndl = dot(vLight, vLight) > 0.0 ? max(0.0, dot(vec3(q, sqrt(1.0 - rr)), vLight)) : 1.0;
  vec3 lin = toLinear(vColor) * (0.25 + 0.95 * ndl) * 1.6;
  outColor = vec4(toSRGB(lin), 1.0);
}`;

const LINE_VS = `#version 300 es
in vec3 aPos;
in vec3 aColor;
in float aTime;
uniform mat4 uProj;
uniform mat3 uView;
uniform vec3 uOffset;     // added to aPos to make it eye-relative
uniform float uHours;     // mission time: the path ahead is dimmer
uniform vec4 uColor;      // uniform colour when aColor is unused (orbits)
uniform bool uPerVertex;
out vec4 vColor;
void main() {
  gl_Position = uProj * vec4(uView * (aPos + uOffset), 1.0);
  vColor = uPerVertex ? vec4(aColor, aTime <= uHours ? 0.95 : 0.35) : uColor;
}`;

const LINE_FS = `#version 300 es
precision highp float;
in vec4 vColor;
out vec4 outColor;
void main() { outColor = vColor; }`;

const GLOW_VS = `#version 300 es
in vec2 aCorner;
uniform vec2 uCentre;     // NDC
uniform vec2 uSize;       // NDC half-size
uniform float uDepth;     // NDC depth of the Sun's centre: a body in front of it hides the glow
out vec2 vQ;
void main() { vQ = aCorner; gl_Position = vec4(uCentre + aCorner * uSize, uDepth, 1.0); }`;

const GLOW_FS = `#version 300 es
precision highp float;
in vec2 vQ;
uniform float uInner;     // disc radius as a fraction of the quad
out vec4 outColor;
void main() {
  float r = length(vQ) / uInner;   // in Sun radii
  // The seeds' four corona shells (1.3, 1.8, 2.8, 4.0 Sun radii), softened.
  float g = 0.55 * (1.0 - smoothstep(1.0, 1.3, r)) + 0.3 * (1.0 - smoothstep(1.0, 1.8, r))
          + 0.16 * (1.0 - smoothstep(1.0, 2.8, r)) + 0.08 * (1.0 - smoothstep(1.0, 4.0, r));
  if (r < 1.0) g = 0.0;
  outColor = vec4(vec3(1.0, 0.82, 0.5) * g, 1.0);
}`;

// FXAA (the well-known 'FXAA 3.11 lite' of Timothy Lottes' public shader: one pass over the
// frame, four neighbours for the edge's direction, two or four taps along it), for `?aa=fxaa`.
// Off by default: in SwiftShader a full-screen pass costs more than the 10 % (docs/viewer.md).
const FXAA_VS = `#version 300 es
in vec2 aCorner;
out vec2 vUV;
void main() { vUV = aCorner * 0.5 + 0.5; gl_Position = vec4(aCorner, 0.0, 1.0); }`;

const FXAA_FS = `#version 300 es
precision highp float;
in vec2 vUV;
uniform sampler2D uFrame;
uniform vec2 uTexel;
out vec4 outColor;
float luma(vec3 c) { return dot(c, vec3(0.299, 0.587, 0.114)); }
void main() {
  vec3 nw = texture(uFrame, vUV + vec2(-1.0, -1.0) * uTexel).rgb;
  vec3 ne = texture(uFrame, vUV + vec2(1.0, -1.0) * uTexel).rgb;
  vec3 sw = texture(uFrame, vUV + vec2(-1.0, 1.0) * uTexel).rgb;
  vec3 se = texture(uFrame, vUV + vec2(1.0, 1.0) * uTexel).rgb;
  vec3 m = texture(uFrame, vUV).rgb;
  float lNW = luma(nw), lNE = luma(ne), lSW = luma(sw), lSE = luma(se), lM = luma(m);
  float lMin = min(lM, min(min(lNW, lNE), min(lSW, lSE)));
  float lMax = max(lM, max(max(lNW, lNE), max(lSW, lSE)));
  vec2 dir = vec2(-((lNW + lNE) - (lSW + lSE)), (lNW + lSW) - (lNE + lSE));
  float reduce = max((lNW + lNE + lSW + lSE) * 0.25 * (1.0 / 8.0), 1.0 / 128.0);
  float rcpMin = 1.0 / (min(abs(dir.x), abs(dir.y)) + reduce);
  dir = clamp(dir * rcpMin, vec2(-8.0), vec2(8.0)) * uTexel;
  vec3 a = 0.5 * (texture(uFrame, vUV + dir * (1.0 / 3.0 - 0.5)).rgb + texture(uFrame, vUV + dir * (2.0 / 3.0 - 0.5)).rgb);
  vec3 b = a * 0.5 + 0.25 * (texture(uFrame, vUV - dir * 0.5).rgb + texture(uFrame, vUV + dir * 0.5).rgb);
  float lB = luma(b);
  outColor = vec4(lB < lMin || lB > lMax ? a : b, 1.0);
}`;

/** Starts compiling and linking a program; `finish` asks for the result. (Asking at once for each
 * stage made the GPU process compile the five programs one after another, ~1.2 s in SwiftShader.) */
function startProgram(gl, vs, fs) {
  const program = gl.createProgram();
  const shaders = [];
  for (const [type, src] of [[gl.VERTEX_SHADER, vs], [gl.FRAGMENT_SHADER, fs]]) {
    const sh = gl.createShader(type);
    gl.shaderSource(sh, src);
    gl.compileShader(sh);
    gl.attachShader(program, sh);
    shaders.push(sh);
  }
  gl.linkProgram(program);
  return { program, shaders };
}

function finish(gl, { program, shaders }) {
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) {
    const log = shaders.map((sh) => gl.getShaderInfoLog(sh)).join(' ');
    throw new Error(`program: ${gl.getProgramInfoLog(program)} ${log}`);
  }
  const u = {};
  const n = gl.getProgramParameter(program, gl.ACTIVE_UNIFORMS);
  for (let i = 0; i < n; i++) {
    const name = gl.getActiveUniform(program, i).name;
    u[name] = gl.getUniformLocation(program, name);
  }
  const a = {};
  const m = gl.getProgramParameter(program, gl.ACTIVE_ATTRIBUTES);
  for (let i = 0; i < m; i++) {
    const name = gl.getActiveAttrib(program, i).name;
    a[name] = gl.getAttribLocation(program, name);
  }
  return { program, u, a };
}

/** Rotation matrix (column-major mat3) of a unit quaternion [x, y, z, w]. */
function quatMatrix([x, y, z, w], out = new Float32Array(9)) {
  out[0] = 1 - 2 * (y * y + z * z); out[1] = 2 * (x * y + z * w); out[2] = 2 * (x * z - y * w);
  out[3] = 2 * (x * y - z * w); out[4] = 1 - 2 * (x * x + z * z); out[5] = 2 * (y * z + x * w);
  out[6] = 2 * (x * z + y * w); out[7] = 2 * (y * z - x * w); out[8] = 1 - 2 * (x * x + y * y);
  return out;
}
const modelScratch = new Float32Array(9);

// No multisampling and no preserved drawing buffer: in software WebGL (SwiftShader) on two cores
// 4× MSAA halved the frame rate of the mission view (33 → 18 frames/s) and preserving the buffer
// cost another 15 %. Whoever reads the pixels (the browser check) draws and reads in one task.
const CONTEXT_ATTRIBUTES = { antialias: false, alpha: false, preserveDrawingBuffer: false, powerPreference: 'high-performance' };

/**
 * Surface maps by URL, asked once (possibly before the renderer exists) with fetch, whose
 * requests leave at once (an <img>'s are held back as low priority while the page starts) and
 * decoded off the main thread, unpremultiplied (the ring strip's colour must keep its values
 * where its alpha is low).
 */
const images = new Map();
export function loadImage(url) {
  let job = images.get(url);
  if (!job) {
    job = fetch(url)
      .then((r) => (r.ok ? r.blob() : Promise.reject(new Error(`${url}: ${r.status}`))))
      .then((blob) => createImageBitmap(blob, { premultiplyAlpha: 'none', colorSpaceConversion: 'none' }));
    images.set(url, job);
  }
  return job;
}

/** Whether `id` has a map at /v1/textures/{id}.png. */
export const hasTexture = (id) => TEXTURED.has(id) || id === 'saturn-rings';

/** The clear colour, #03040c (render.js's BACKGROUND). */
const BACKGROUND = [3 / 255, 4 / 255, 12 / 255, 1];
/** Texture units: a body's map, and the rings' strip (read by the sphere for the rings' shadow). */
const UNIT = { map: 0, rings: 1 };
/**
 * The depth range of a frame (scene units along the view axis), from the bodies in front of the
 * camera, bounded by the eye's distance to its target (`dist`):
 * near = max(dist · nearMinOfTarget, nearMin, min(nearest · nearShare, dist · nearMaxOfTarget)),
 * far = max(farthest · farShare, dist · farMinOfTarget, farMin).
 */
const DEPTH = {
  nearShare: 0.5, // the near plane half-way to the nearest body's near side…
  nearMaxOfTarget: 0.5, // …and never past half-way to the target,
  nearMinOfTarget: 1e-4, // but not nearer than this share of the distance to it (depth precision goes as far/near)
  nearMin: 1e-6, // nor than this (scene units)
  farShare: 2, // the far plane at twice the farthest body's far side (orbit lines and paths are not measured),
  farMinOfTarget: 4, // at least four times the distance to the target,
  farMin: 400, // and at least this (scene units; the log scale puts 100 AU at 79.5 from the Sun)
};
/** The Sun's glow reaches this many Sun radii (the seeds' outermost corona shell, GLOW_FS). */
const GLOW_RADII = 4;

/** How much a body's drawn disc is enlarged over its true size (the Sun keeps a minimum size; planets are 1). */
const enlargement = (s) => s.r / Math.max(s.trueR, 1e-12);

/** Near and far planes for the bodies in `screen` seen through `view` (DEPTH). */
function depthRange(view, screen) {
  let nearest = Infinity;
  let farthest = 0;
  for (const s of screen.values()) {
    const reach = Math.max(s.entry.sceneRadius, s.entry.ringPlane?.outerRadius ?? 0) * enlargement(s);
    nearest = Math.min(nearest, s.depth - reach);
    farthest = Math.max(farthest, s.depth + reach);
  }
  const dist = Math.hypot(...sub(view.eye, view.target));
  const near = Math.max(dist * DEPTH.nearMinOfTarget, DEPTH.nearMin, Math.min(nearest * DEPTH.nearShare, dist * DEPTH.nearMaxOfTarget));
  const far = Math.max(farthest * DEPTH.farShare, dist * DEPTH.farMinOfTarget, DEPTH.farMin);
  return { near, far };
}

/** The perspective projection (column-major) of `view`'s scales between `near` and `far`. */
function projection(view, near, far) {
  return new Float32Array([
    view.xScale, 0, 0, 0,
    0, view.yScale, 0, 0,
    0, 0, (far + near) / (near - far), -1,
    0, 0, (2 * far * near) / (near - far), 0,
  ]);
}

/** The view rotation: rows right, up, back (column-major). */
function viewRotation(view) {
  const r = view.right;
  const u = view.up;
  const b = view.back;
  return new Float32Array([r[0], u[0], b[0], r[1], u[1], b[1], r[2], u[2], b[2]]);
}

const linearColor = (c) => c.map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));

export class GLRenderer {
  /** Throws when WebGL2 is not available; the caller then uses the 2D canvas. */
  constructor(canvas, { textureURL, onTexture, onRestored, spin = 0, fxaa = false }) {
    const gl = canvas.getContext('webgl2', CONTEXT_ATTRIBUTES);
    if (!gl) throw new Error('WebGL2 is not available');
    this.gl = gl;
    this.canvas = canvas;
    this.textureURL = textureURL;
    this.onTexture = onTexture;
    this.spin = spin;
    this.fxaa = fxaa;
    this.pendingTextures = 0;
    this.texturedFrames = 0;
    this.lastMatrix = null;
    this.lost = false;
    this.restores = 0;
    // Without preventDefault the browser would never give the context back.
    canvas.addEventListener('webglcontextlost', (e) => {
      e.preventDefault();
      this.lost = true;
    });
    canvas.addEventListener('webglcontextrestored', () => {
      this.init();
      this.lost = false;
      this.restores += 1;
      onRestored?.();
    });
    this.init();
  }

  /** Every GL object: programs, meshes, buffers, textures (the maps come again from loadImage's cache). */
  init() {
    const gl = this.gl;
    const sources = [[SPHERE_VS, SPHERE_FS], [RING_VS, RING_FS], [POINT_VS, POINT_FS], [LINE_VS, LINE_FS], [GLOW_VS, GLOW_FS], [OVERLAY_VS, OVERLAY_FS]];
    if (this.fxaa) sources.push([FXAA_VS, FXAA_FS]);
    const started = sources.map(([vs, fs]) => startProgram(gl, vs, fs));
    [this.sphere, this.ring, this.points, this.lines, this.glow, this.overlayProgram, this.fxaaProgram] = started.map((p) => finish(gl, p));
    this.target = null; // the frame FXAA reads: {framebuffer, texture, depth, width, height}
    this.textures = new Map(); // id → {texture, ready}
    // Two meshes: 64 × 32 for a disc over SMALL_SPHERE_PX in radius, 24 × 12 below (a few
    // hundred pixels do not show the difference, and SwiftShader transforms every vertex).
    this.large = this.buildSphere(64, 32);
    this.small = this.buildSphere(24, 12);
    this.buildRing(128);
    this.pointBuffer = gl.createBuffer();
    this.pointData = new Float32Array(10 * 32);
    this.starBuffer = null;
    this.starsFor = null;
    this.orbitBuffer = null;
    this.orbitsFor = null;
    this.pathsFor = null;
    this.quad = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, this.quad);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);
    if (this.overlay) this.overlay.init();
    else this.overlay = new GLOverlay(this);
  }

  buildSphere(seg, rings) {
    const gl = this.gl;
    const pos = [];
    for (let j = 0; j <= rings; j++) {
      const lat = Math.PI / 2 - (j * Math.PI) / rings;
      for (let i = 0; i <= seg; i++) {
        const lon = (i * 2 * Math.PI) / seg;
        pos.push(Math.cos(lat) * Math.cos(lon), Math.sin(lat), -Math.cos(lat) * Math.sin(lon));
      }
    }
    const idx = [];
    for (let j = 0; j < rings; j++) {
      for (let i = 0; i < seg; i++) {
        const a = j * (seg + 1) + i;
        const b = a + seg + 1;
        idx.push(a, b, a + 1, a + 1, b, b + 1);
      }
    }
    const vao = gl.createVertexArray();
    gl.bindVertexArray(vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(pos), gl.STATIC_DRAW);
    gl.enableVertexAttribArray(this.sphere.a.aPos);
    gl.vertexAttribPointer(this.sphere.a.aPos, 3, gl.FLOAT, false, 0, 0);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, gl.createBuffer());
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, new Uint16Array(idx), gl.STATIC_DRAW);
    gl.bindVertexArray(null);
    return { vao, count: idx.length };
  }

  buildRing(seg) {
    const gl = this.gl;
    const v = [];
    for (let i = 0; i <= seg; i++) {
      const a = (i * 2 * Math.PI) / seg;
      v.push(Math.cos(a), Math.sin(a), 0, Math.cos(a), Math.sin(a), 1);
    }
    this.ringVAO = gl.createVertexArray();
    gl.bindVertexArray(this.ringVAO);
    gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(v), gl.STATIC_DRAW);
    gl.enableVertexAttribArray(this.ring.a.aRing);
    gl.vertexAttribPointer(this.ring.a.aRing, 3, gl.FLOAT, false, 0, 0);
    this.ringCount = v.length / 3;
    gl.bindVertexArray(null);
  }

  /** The texture for `id`, loading it on first use (null until it has arrived). */
  texture(id) {
    let t = this.textures.get(id);
    if (!t) {
      t = { texture: null, ready: false };
      this.textures.set(id, t);
      this.pendingTextures += 1;
      const textures = this.textures;
      loadImage(this.textureURL(id)).then((img) => {
        const gl = this.gl;
        if (this.lost || textures !== this.textures) return; // made again on restore
        const tex = gl.createTexture();
        gl.bindTexture(gl.TEXTURE_2D, tex);
        gl.texImage2D(gl.TEXTURE_2D, 0, gl.SRGB8_ALPHA8, gl.RGBA, gl.UNSIGNED_BYTE, img);
        gl.generateMipmap(gl.TEXTURE_2D);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, id === 'saturn-rings' ? gl.CLAMP_TO_EDGE : gl.REPEAT);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
        t.texture = tex;
        t.ready = true;
      }).catch(() => {
        t.failed = true;
      }).finally(() => {
        this.pendingTextures -= 1;
        this.onTexture?.();
      });
    }
    return t.ready ? t.texture : null;
  }

  /** Starts loading a body's map before it is first drawn (a focus preset's body, while its framing loads). */
  prefetch(id) {
    if (TEXTURED.has(id)) this.texture(id);
  }

  resize(width, height) {
    if (this.canvas.width !== width || this.canvas.height !== height) {
      this.canvas.width = width;
      this.canvas.height = height;
    }
  }

  /**
   * Draws the frame: `screen` is render.js projectBodies' for it, `overlay` its overlayContent
   * (labels, markers) or null. Nothing is drawn while the context is lost. In order: the stars
   * (at the far plane), the opaque bodies far to near, then what is blended and tested against
   * their depth without writing it (orbits, trajectories, rings, the Sun's glow), then the
   * overlay over everything.
   */
  draw(frame, screen, overlay) {
    const gl = this.gl;
    if (this.lost || gl.isContextLost()) return { textured: false };
    const { view } = frame;
    const W = this.canvas.width;
    const H = this.canvas.height;
    const eye = view.eye;
    const { near, far } = depthRange(view, screen);
    const proj = projection(view, near, far);
    const rot = viewRotation(view);
    this.lastMatrix = { proj, view: rot, eye }; // copied to plain arrays only when the check reads them

    this.clear(W, H);
    const dpr = W / view.width;
    this.drawStars(frame, proj, rot, dpr);
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    const order = [...screen.values()].filter((s) => s.visible).sort((a1, a2) => a2.depth - a1.depth);
    const { dots, textured, ringTex } = this.drawSpheres(order, eye, proj, rot);
    this.drawDots(dots, eye, proj, rot, dpr, view);
    this.drawBlended(frame, screen, order, { eye, proj, rot, near, far, ringTex });
    gl.disable(gl.DEPTH_TEST);
    if (this.fxaa) this.resolveFXAA(W, H);
    if (overlay) this.overlay.draw(overlay, frame, view, eye, proj, rot);
    if (textured) this.texturedFrames += 1;
    return { textured };
  }

  /** The frame's target (the offscreen one FXAA reads, or the canvas) cleared to the background. */
  clear(W, H) {
    const gl = this.gl;
    if (this.fxaa) gl.bindFramebuffer(gl.FRAMEBUFFER, this.offscreen(W, H).framebuffer);
    gl.viewport(0, 0, W, H);
    gl.clearColor(...BACKGROUND);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
  }

  /**
   * The bodies `order` lists (visible, far to near) as spheres, textured once their maps have
   * come; those under DOT_RADIUS_PX are returned as `dots` instead. `textured`: a map was drawn;
   * `ringTex`: the rings' strip, or null while it loads.
   */
  drawSpheres(order, eye, proj, rot) {
    const gl = this.gl;
    const dots = [];
    let textured = false;
    const u = this.sphere.u;
    gl.useProgram(this.sphere.program);
    gl.uniformMatrix4fv(u.uProj, false, proj);
    gl.uniformMatrix3fv(u.uView, false, rot);
    gl.uniform3fv(u.uSun, sub([0, 0, 0], eye));
    gl.uniform1i(u.uTex, UNIT.map);
    gl.uniform1i(u.uRingTex, UNIT.rings);
    const ringTex = this.texture('saturn-rings');
    // A sphere's far half is hidden by its near half: culled, it is never shaded (in SwiftShader
    // the two spheres of Apollo 11's Earth–Moon view cost ~2 ms a frame less).
    gl.enable(gl.CULL_FACE);
    gl.cullFace(gl.BACK);
    for (const s of order) {
      const e = s.entry;
      if (s.trueR < DOT_RADIUS_PX && !e.emissive) {
        dots.push(s);
        continue;
      }
      const rel = sub(s.position, eye);
      // The Sun keeps its minimum size like the 2D renderer's; planets are true size here.
      const radius = e.sceneRadius * enlargement(s);
      const tex = TEXTURED.has(e.id) ? this.texture(e.id) : null;
      if (tex) textured = true;
      gl.activeTexture(gl.TEXTURE0 + UNIT.map);
      gl.bindTexture(gl.TEXTURE_2D, tex);
      gl.activeTexture(gl.TEXTURE0 + UNIT.rings);
      gl.bindTexture(gl.TEXTURE_2D, ringTex);
      gl.uniform1i(u.uHasTex, tex ? 1 : 0);
      gl.uniform1i(u.uEmissive, e.emissive ? 1 : 0);
      gl.uniform1f(u.uSpin, e.id === 'earth' ? this.spin : 0);
      gl.uniform3fv(u.uColor, linearColor(e.colorRgb));
      gl.uniform3fv(u.uCenter, rel);
      gl.uniform1f(u.uRadius, radius);
      gl.uniformMatrix3fv(u.uModel, false, quatMatrix(e.sceneQuaternion, modelScratch));
      const ring = e.ringPlane;
      gl.uniform1i(u.uHasRing, ring && ringTex ? 1 : 0);
      if (ring) {
        gl.uniform3fv(u.uRingNormal, normalize(ring.normal));
        gl.uniform2f(u.uRingRadii, ring.innerRadius, ring.outerRadius);
      }
      const mesh = s.r > SMALL_SPHERE_PX ? this.large : this.small;
      gl.bindVertexArray(mesh.vao);
      gl.drawElements(gl.TRIANGLES, mesh.count, gl.UNSIGNED_SHORT, 0);
    }
    gl.bindVertexArray(null);
    gl.disable(gl.CULL_FACE);
    return { dots, textured, ringTex };
  }

  /** Lines, rings and the Sun's glow after the opaque bodies: blended, tested against their
   * depth, not writing it (so each shows through the others). */
  drawBlended(frame, screen, order, { eye, proj, rot, near, far, ringTex }) {
    const gl = this.gl;
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    gl.depthMask(false);
    this.drawOrbits(frame, screen, eye, proj, rot);
    if (frame.mission) this.drawPaths(frame.mission, eye, proj, rot);
    for (const s of order) if (s.entry.ringPlane) this.drawRings(s, eye, proj, rot, ringTex);
    const sun = screen.get('sun');
    if (sun && sun.visible) this.drawGlow(sun, frame.view, near, far);
    gl.depthMask(true);
    gl.disable(gl.BLEND);
  }

  /** The offscreen frame (colour texture and depth) FXAA reads, made again when the size changes. */
  offscreen(W, H) {
    const gl = this.gl;
    const t = this.target;
    if (t && t.width === W && t.height === H) return t;
    if (t) {
      gl.deleteFramebuffer(t.framebuffer);
      gl.deleteTexture(t.texture);
      gl.deleteRenderbuffer(t.depth);
    }
    const texture = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA8, W, H);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    const depth = gl.createRenderbuffer();
    gl.bindRenderbuffer(gl.RENDERBUFFER, depth);
    gl.renderbufferStorage(gl.RENDERBUFFER, gl.DEPTH_COMPONENT24, W, H);
    const framebuffer = gl.createFramebuffer();
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
    gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, depth);
    this.target = { framebuffer, texture, depth, width: W, height: H };
    return this.target;
  }

  /** The offscreen frame to the canvas through FXAA (the overlay's text is drawn after, sharp). */
  resolveFXAA(W, H) {
    const gl = this.gl;
    const p = this.fxaaProgram;
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.viewport(0, 0, W, H);
    gl.useProgram(p.program);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, this.target.texture);
    gl.uniform1i(p.u.uFrame, 0);
    gl.uniform2f(p.u.uTexel, 1 / W, 1 / H);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.quad);
    gl.enableVertexAttribArray(p.a.aCorner);
    gl.vertexAttribPointer(p.a.aCorner, 2, gl.FLOAT, false, 0, 0);
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
  }

  drawStars(frame, proj, rot, dpr) {
    const gl = this.gl;
    if (!frame.stars) return;
    if (this.starsFor !== frame.stars) {
      const data = [];
      for (const s of frame.stars) {
        const size = (STAR_SIZE_PX[s.tier] ?? 1.2) * dpr;
        const k = s.tier === 0 ? 1 : 0.85 - 0.15 * s.tier;
        data.push(...s.direction, s.colorRgb[0] * k, s.colorRgb[1] * k, s.colorRgb[2] * k, size, 0, 0, 0);
      }
      this.starBuffer ??= gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, this.starBuffer);
      gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(data), gl.STATIC_DRAW);
      this.starCount = frame.stars.length;
      this.starsFor = frame.stars;
      this.starDpr = dpr;
    }
    gl.useProgram(this.points.program);
    gl.uniformMatrix4fv(this.points.u.uProj, false, proj);
    gl.uniformMatrix3fv(this.points.u.uView, false, rot);
    gl.uniform1i(this.points.u.uDirections, 1);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    this.bindPointAttributes(this.starBuffer);
    gl.drawArrays(gl.POINTS, 0, this.starCount);
    gl.disable(gl.BLEND);
  }

  bindPointAttributes(buffer) {
    const gl = this.gl;
    const a = this.points.a;
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    const stride = 10 * 4;
    gl.enableVertexAttribArray(a.aPos);
    gl.vertexAttribPointer(a.aPos, 3, gl.FLOAT, false, stride, 0);
    gl.enableVertexAttribArray(a.aColor);
    gl.vertexAttribPointer(a.aColor, 3, gl.FLOAT, false, stride, 12);
    gl.enableVertexAttribArray(a.aSize);
    gl.vertexAttribPointer(a.aSize, 1, gl.FLOAT, false, stride, 24);
    if (a.aLight >= 0) {
      gl.enableVertexAttribArray(a.aLight);
      gl.vertexAttribPointer(a.aLight, 3, gl.FLOAT, false, stride, 28);
    }
  }

  drawDots(dots, eye, proj, rot, dpr, view) {
    if (!dots.length) return;
    const gl = this.gl;
    if (this.pointData.length < dots.length * 10) this.pointData = new Float32Array(dots.length * 20);
    const data = this.pointData;
    let k = 0;
    for (const s of dots) {
      const p = s.position;
      const c = s.entry.colorRgb;
      const L = normalize([-p[0], -p[1], -p[2]]);
      data.set([p[0] - eye[0], p[1] - eye[1], p[2] - eye[2], c[0], c[1], c[2], 2 * s.r * dpr, dot(L, view.right), dot(L, view.up), dot(L, view.back)], k);
      k += 10;
    }
    gl.useProgram(this.points.program);
    gl.uniformMatrix4fv(this.points.u.uProj, false, proj);
    gl.uniformMatrix3fv(this.points.u.uView, false, rot);
    gl.uniform1i(this.points.u.uDirections, 0);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.pointBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, data.subarray(0, k), gl.DYNAMIC_DRAW);
    this.bindPointAttributes(this.pointBuffer);
    gl.drawArrays(gl.POINTS, 0, dots.length);
  }

  drawOrbits(frame, screen, eye, proj, rot) {
    const gl = this.gl;
    if (!frame.orbits) return;
    if (this.orbitsFor !== frame.orbits) {
      const data = [];
      this.orbitRanges = [];
      for (const o of frame.orbits) {
        this.orbitRanges.push({ orbit: o, first: data.length / 3, count: o.scenePoints.length });
        for (const q of o.scenePoints) data.push(q[0], q[1], q[2]);
      }
      this.orbitBuffer ??= gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, this.orbitBuffer);
      gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(data), gl.STATIC_DRAW);
      this.orbitsFor = frame.orbits;
    }
    const p = this.lines;
    gl.useProgram(p.program);
    gl.uniformMatrix4fv(p.u.uProj, false, proj);
    gl.uniformMatrix3fv(p.u.uView, false, rot);
    gl.uniform1i(p.u.uPerVertex, 0);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.orbitBuffer);
    gl.enableVertexAttribArray(p.a.aPos);
    gl.vertexAttribPointer(p.a.aPos, 3, gl.FLOAT, false, 0, 0);
    if (p.a.aColor >= 0) gl.disableVertexAttribArray(p.a.aColor);
    if (p.a.aTime >= 0) gl.disableVertexAttribArray(p.a.aTime);
    for (const { orbit, first, count } of this.orbitRanges) {
      const style = orbitStyle(orbit, frame, screen);
      if (!style) continue;
      const { entry, shift, alpha } = style;
      gl.uniform4f(p.u.uColor, entry.colorRgb[0], entry.colorRgb[1], entry.colorRgb[2], alpha);
      gl.uniform3fv(p.u.uOffset, sub(shift, eye));
      gl.drawArrays(gl.LINE_LOOP, first, count);
    }
  }

  drawPaths(mission, eye, proj, rot) {
    const gl = this.gl;
    if (this.pathsFor !== mission.vehicles) {
      this.paths = mission.vehicles.map((v) => {
        const data = [];
        for (let i = 0; i < v.positions.length; i++) data.push(...v.positions[i], ...v.colors[i], v.times[i]);
        const buffer = gl.createBuffer();
        gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
        gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(data), gl.STATIC_DRAW);
        return { buffer, ranges: drawnRuns(v) };
      });
      this.pathsFor = mission.vehicles;
    }
    const p = this.lines;
    gl.useProgram(p.program);
    gl.uniformMatrix4fv(p.u.uProj, false, proj);
    gl.uniformMatrix3fv(p.u.uView, false, rot);
    gl.uniform1i(p.u.uPerVertex, 1);
    gl.uniform1f(p.u.uHours, mission.hours);
    gl.uniform3fv(p.u.uOffset, sub(mission.origin, eye));
    for (const path of this.paths) {
      gl.bindBuffer(gl.ARRAY_BUFFER, path.buffer);
      gl.enableVertexAttribArray(p.a.aPos);
      gl.vertexAttribPointer(p.a.aPos, 3, gl.FLOAT, false, 28, 0);
      gl.enableVertexAttribArray(p.a.aColor);
      gl.vertexAttribPointer(p.a.aColor, 3, gl.FLOAT, false, 28, 12);
      gl.enableVertexAttribArray(p.a.aTime);
      gl.vertexAttribPointer(p.a.aTime, 1, gl.FLOAT, false, 28, 24);
      for (const [first, count] of path.ranges) gl.drawArrays(gl.LINE_STRIP, first, count);
    }
    this.drawRevolutions(mission, p);
  }

  /** Each vehicle's revolution flown (in orbit about a planet), in its colour: one buffer per
   * vehicle, uploaded again only when a new revolution arrives. */
  drawRevolutions(mission, p) {
    const gl = this.gl;
    this.revolutionBuffers ??= new Map();
    gl.uniform1i(p.u.uPerVertex, 0);
    if (p.a.aColor >= 0) gl.disableVertexAttribArray(p.a.aColor);
    if (p.a.aTime >= 0) gl.disableVertexAttribArray(p.a.aTime);
    for (const { id, colorRgb, flown } of mission.revolutions ?? []) {
      let held = this.revolutionBuffers.get(id);
      if (!held) {
        held = { buffer: gl.createBuffer(), flown: null };
        this.revolutionBuffers.set(id, held);
      }
      gl.bindBuffer(gl.ARRAY_BUFFER, held.buffer);
      if (held.flown !== flown) {
        gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(flown.positions.flat()), gl.DYNAMIC_DRAW);
        held.flown = flown;
      }
      gl.enableVertexAttribArray(p.a.aPos);
      gl.vertexAttribPointer(p.a.aPos, 3, gl.FLOAT, false, 0, 0);
      gl.uniform4f(p.u.uColor, colorRgb[0], colorRgb[1], colorRgb[2], 0.95);
      gl.drawArrays(gl.LINE_STRIP, 0, flown.positions.length);
    }
  }

  drawRings(s, eye, proj, rot, ringTex) {
    const gl = this.gl;
    const ring = s.entry.ringPlane;
    const k = enlargement(s);
    const n = normalize(ring.normal);
    const helper = Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 0, 1];
    const au = normalize([n[1] * helper[2] - n[2] * helper[1], n[2] * helper[0] - n[0] * helper[2], n[0] * helper[1] - n[1] * helper[0]]);
    const av = [n[1] * au[2] - n[2] * au[1], n[2] * au[0] - n[0] * au[2], n[0] * au[1] - n[1] * au[0]];
    const p = this.ring;
    gl.useProgram(p.program);
    gl.uniformMatrix4fv(p.u.uProj, false, proj);
    gl.uniformMatrix3fv(p.u.uView, false, rot);
    const rel = sub(s.position, eye);
    gl.uniform3fv(p.u.uCenter, rel);
    gl.uniform3fv(p.u.uAxisU, au);
    gl.uniform3fv(p.u.uAxisV, av);
    gl.uniform2f(p.u.uRadii, ring.innerRadius * k, ring.outerRadius * k);
    gl.uniform3fv(p.u.uSun, sub([0, 0, 0], eye));
    gl.uniform3fv(p.u.uNormal, n);
    gl.uniform1f(p.u.uPlanetRadius, s.entry.sceneRadius * k);
    gl.uniform1i(p.u.uHasTex, ringTex ? 1 : 0);
    gl.activeTexture(gl.TEXTURE0 + UNIT.rings);
    gl.bindTexture(gl.TEXTURE_2D, ringTex);
    gl.uniform1i(p.u.uRingTex, UNIT.rings);
    gl.bindVertexArray(this.ringVAO);
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, this.ringCount);
    gl.bindVertexArray(null);
  }

  /** The corona, additive, at the depth of the Sun's centre: behind a body in front of the Sun, over one behind it. */
  drawGlow(sun, view, near, far) {
    const gl = this.gl;
    const p = this.glow;
    gl.useProgram(p.program);
    gl.blendFunc(gl.ONE, gl.ONE);
    // The projection's depth at view distance w: (f + n)/(f − n) − 2fn/((f − n)·w).
    const w = Math.max(sun.depth, near);
    gl.uniform1f(p.u.uDepth, Math.min(1, (far + near) / (far - near) - (2 * far * near) / ((far - near) * w)));
    const reach = sun.r * GLOW_RADII;
    gl.uniform2f(p.u.uCentre, (sun.x / view.width) * 2 - 1, 1 - (sun.y / view.height) * 2);
    gl.uniform2f(p.u.uSize, (reach / view.width) * 2, (reach / view.height) * 2);
    gl.uniform1f(p.u.uInner, 1 / GLOW_RADII);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.quad);
    gl.enableVertexAttribArray(p.a.aCorner);
    gl.vertexAttribPointer(p.a.aCorner, 2, gl.FLOAT, false, 0, 0);
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
  }
}
