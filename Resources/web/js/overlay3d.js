// The overlay (labels, vehicle and small-body markers, focus rings, small-body paths) drawn into
// the WebGL canvas itself, as the last pass of render3d.js, instead of on a 2D canvas above it.
// In software WebGL (SwiftShader) the compositor blending a second full-size canvas over the
// WebGL one cost about 5 ms of the GPU process per frame (a quarter of a mission replay's frame),
// whether or not the 2D canvas had changed; quads where the labels are cost next to nothing.
//
// Each label (its dark box and text, as labels.js drawLabels paints them) is drawn once into an
// atlas (a 2D canvas, uploaded region by region), then every frame is a few textured quads.
// The quads are rebuilt and uploaded only when what the layer shows changed (its signature).

import { labelPadding } from './labels.js';
import { SMALL_BODY_RGB } from './render.js';

export const OVERLAY_VS = `#version 300 es
in vec2 aPos;             // CSS px from the top-left corner
in vec2 aUV;              // atlas texel (labels) or -1..1 across the quad (glows, rings)
in vec4 aColor;           // straight alpha
in vec2 aKind;            // kind (0 label, 1 glow, 2 ring), ring radius in px
uniform vec2 uViewport;   // CSS px
uniform vec2 uAtlasSize;
out vec2 vUV;
out vec4 vColor;
out vec2 vKind;
void main() {
  gl_Position = vec4(aPos.x / uViewport.x * 2.0 - 1.0, 1.0 - aPos.y / uViewport.y * 2.0, 0.0, 1.0);
  vUV = aKind.x < 0.5 ? aUV / uAtlasSize : aUV;
  vColor = aColor;
  vKind = aKind;
}`;

export const OVERLAY_FS = `#version 300 es
precision highp float;
in vec2 vUV;
in vec4 vColor;
in vec2 vKind;
uniform sampler2D uAtlas;
out vec4 outColor;        // premultiplied
void main() {
  if (vKind.x < 0.5) {
    outColor = texture(uAtlas, vUV);
    return;
  }
  float r = length(vUV);
  float a;
  if (vKind.x < 1.5) {
    // The 2D renderer's marker glow: a radial gradient 1 → 0.6 at 35 % → 0 at the rim.
    a = r < 0.35 ? mix(1.0, 0.6, r / 0.35) : mix(0.6, 0.0, min(1.0, (r - 0.35) / 0.65));
  } else {
    // A 1 px circle of radius vKind.y px; the quad reaches 2 px beyond it.
    float px = r * (vKind.y + 2.0);
    a = clamp(1.5 - abs(px - vKind.y), 0.0, 1.0);
  }
  a *= vColor.a;
  outColor = vec4(vColor.rgb * a, a);
}`;

const FLOATS_PER_VERTEX = 10;
const RING_RGBA = [1, 210 / 255, 120 / 255, 0.7];
const GLOW_RADIUS_PX = 9;
const ATLAS_SIZE = 1024;

/** Labels painted once each into a 2D canvas, packed in shelves; the texture follows it region by region. */
class LabelAtlas {
  constructor(dpr) {
    this.dpr = dpr;
    this.canvas = document.createElement('canvas');
    this.canvas.width = ATLAS_SIZE;
    this.canvas.height = ATLAS_SIZE;
    this.ctx = this.canvas.getContext('2d', { willReadFrequently: true });
    this.clear();
  }

  clear() {
    this.entries = new Map(); // font|colour|text → {x, y, w, h} in atlas px
    this.shelfX = 0;
    this.shelfY = 0;
    this.shelfH = 0;
    this.dirty = []; // regions drawn since the last upload
    this.ctx.clearRect(0, 0, ATLAS_SIZE, ATLAS_SIZE);
    this.generation = (this.generation ?? 0) + 1;
  }

  /** The label's place in the atlas, painting it there the first time; null when the atlas is full. */
  entry(label) {
    const key = `${label.font}|${label.color}|${label.text}`;
    let e = this.entries.get(key);
    if (e) return e;
    const w = Math.ceil(label.box.w * this.dpr);
    const h = Math.ceil(label.box.h * this.dpr);
    if (this.shelfX + w > ATLAS_SIZE) {
      this.shelfX = 0;
      this.shelfY += this.shelfH + 1;
      this.shelfH = 0;
    }
    if (this.shelfY + h > ATLAS_SIZE || w > ATLAS_SIZE) return null;
    e = { x: this.shelfX, y: this.shelfY, w, h };
    this.shelfX += w + 1;
    this.shelfH = Math.max(this.shelfH, h);
    const c = this.ctx;
    c.setTransform(this.dpr, 0, 0, this.dpr, e.x, e.y);
    c.textBaseline = 'top';
    c.font = label.font;
    c.fillStyle = 'rgba(4, 6, 16, 0.55)';
    c.fillRect(0, 0, label.box.w, label.box.h);
    c.fillStyle = label.color;
    c.fillText(label.text, labelPadding, labelPadding);
    c.setTransform(1, 0, 0, 1, 0, 0);
    this.entries.set(key, e);
    this.dirty.push(e);
    return e;
  }
}

export class GLOverlay {
  /** `renderer`: the GLRenderer whose context, programs (lines) and eye-relative drawing it shares. */
  constructor(renderer) {
    this.renderer = renderer;
    this.atlas = null;
    this.init();
  }

  /** Creates the GL objects (again after a lost context: the atlas is re-uploaded whole). */
  init() {
    const r = this.renderer;
    this.program = r.overlayProgram;
    const gl = r.gl;
    this.buffer = gl.createBuffer();
    this.vao = gl.createVertexArray();
    gl.bindVertexArray(this.vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
    const a = this.program.a;
    const stride = FLOATS_PER_VERTEX * 4;
    const attribute = (loc, size, offset) => {
      if (loc < 0) return;
      gl.enableVertexAttribArray(loc);
      gl.vertexAttribPointer(loc, size, gl.FLOAT, false, stride, offset * 4);
    };
    attribute(a.aPos, 2, 0);
    attribute(a.aUV, 2, 2);
    attribute(a.aColor, 4, 4);
    attribute(a.aKind, 2, 8);
    gl.bindVertexArray(null);
    this.texture = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, this.texture);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA8, ATLAS_SIZE, ATLAS_SIZE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    this.data = new Float32Array(64 * 6 * FLOATS_PER_VERTEX);
    this.count = 0;
    this.signature = null;
    this.uploadedGeneration = null;
    this.pathsFor = null;
    this.pathBuffer = null;
  }

  /** Draws the overlay (`content`: render.js overlayContent) over the frame. */
  draw(content, frame, view, eye, proj, rot) {
    const r = this.renderer;
    const gl = r.gl;
    const dpr = r.canvas.width / view.width;
    if (!this.atlas || this.atlas.dpr !== dpr) this.atlas = new LabelAtlas(dpr);
    if (frame.smallBodies?.length) this.drawSmallBodyPaths(frame.smallBodies, eye, proj, rot);
    if (content.signature !== this.signature) {
      this.build(content);
      this.signature = content.signature;
    }
    this.uploadAtlas();
    if (!this.count) return;
    const p = this.program;
    gl.disable(gl.DEPTH_TEST);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    gl.useProgram(p.program);
    gl.uniform2f(p.u.uViewport, view.width, view.height);
    gl.uniform2f(p.u.uAtlasSize, ATLAS_SIZE, ATLAS_SIZE);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, this.texture);
    gl.uniform1i(p.u.uAtlas, 0);
    gl.bindVertexArray(this.vao);
    gl.drawArrays(gl.TRIANGLES, 0, this.count);
    gl.bindVertexArray(null);
    gl.disable(gl.BLEND);
  }

  /** Fills and uploads the quads: rings, glows, then labels (drawn in that order, as on the 2D canvas). */
  build({ rings, glows, placed }, retried = false) {
    const gl = this.renderer.gl;
    const quads = rings.length + glows.length + placed.length;
    const needed = quads * 6 * FLOATS_PER_VERTEX;
    if (this.data.length < needed) this.data = new Float32Array(needed * 2);
    let n = 0;
    const d = this.data;
    const quad = (x0, y0, x1, y1, u0, v0, u1, v1, c, kind, param) => {
      for (const [x, y, u, v] of [[x0, y0, u0, v0], [x1, y0, u1, v0], [x0, y1, u0, v1], [x0, y1, u0, v1], [x1, y0, u1, v0], [x1, y1, u1, v1]]) {
        d[n++] = x; d[n++] = y; d[n++] = u; d[n++] = v;
        d[n++] = c[0]; d[n++] = c[1]; d[n++] = c[2]; d[n++] = c[3];
        d[n++] = kind; d[n++] = param;
      }
    };
    for (const s of rings) {
      const R = s.r + 4;
      quad(s.x - R - 2, s.y - R - 2, s.x + R + 2, s.y + R + 2, -1, -1, 1, 1, RING_RGBA, 2, R);
    }
    for (const g of glows) {
      const c = [Math.min(1, g.colorRgb[0]), Math.min(1, g.colorRgb[1]), Math.min(1, g.colorRgb[2]), 1];
      quad(g.x - GLOW_RADIUS_PX, g.y - GLOW_RADIUS_PX, g.x + GLOW_RADIUS_PX, g.y + GLOW_RADIUS_PX, -1, -1, 1, 1, c, 1, 0);
    }
    const dpr = this.atlas.dpr;
    for (const l of placed) {
      const e = this.atlas.entry(l);
      if (!e) {
        // Full (labels of many fonts and names over a long session): start it again.
        if (retried) continue;
        this.atlas.clear();
        this.build({ rings, glows, placed }, true);
        return;
      }
      // Whole device pixels, so the text is copied texel for pixel.
      const x = Math.round(l.box.x * dpr) / dpr;
      const y = Math.round(l.box.y * dpr) / dpr;
      quad(x, y, x + e.w / dpr, y + e.h / dpr, e.x, e.y, e.x + e.w, e.y + e.h, [0, 0, 0, 1], 0, 0);
    }
    this.count = n / FLOATS_PER_VERTEX;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
    gl.bufferData(gl.ARRAY_BUFFER, this.data.subarray(0, n), gl.DYNAMIC_DRAW);
  }

  /** Sends the atlas regions painted since the last upload (all of it after a clear or a lost context). */
  uploadAtlas() {
    const atlas = this.atlas;
    const gl = this.renderer.gl;
    const whole = this.uploadedGeneration !== atlas.generation;
    if (!whole && !atlas.dirty.length) return;
    gl.bindTexture(gl.TEXTURE_2D, this.texture);
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, true);
    if (whole) {
      gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, gl.RGBA, gl.UNSIGNED_BYTE, atlas.canvas);
    } else {
      for (const e of atlas.dirty) {
        gl.texSubImage2D(gl.TEXTURE_2D, 0, e.x, e.y, gl.RGBA, gl.UNSIGNED_BYTE, atlas.ctx.getImageData(e.x, e.y, e.w, e.h));
      }
    }
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
    atlas.dirty = [];
    this.uploadedGeneration = atlas.generation;
  }

  /** The asteroids' and comets' paths, thin and faint, as line strips (uploaded once per set of paths). */
  drawSmallBodyPaths(bodies, eye, proj, rot) {
    const gl = this.renderer.gl;
    if (this.pathsFor !== bodies) {
      const total = bodies.reduce((n, b) => n + b.path.length, 0);
      const data = new Float32Array(total * 3);
      let k = 0;
      this.pathRanges = [];
      for (const b of bodies) {
        this.pathRanges.push({ type: b.type, first: k / 3, count: b.path.length });
        for (const q of b.path) { data[k++] = q[0]; data[k++] = q[1]; data[k++] = q[2]; }
      }
      this.pathBuffer ??= gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, this.pathBuffer);
      gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
      this.pathsFor = bodies;
    }
    const p = this.renderer.lines;
    gl.disable(gl.DEPTH_TEST);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    gl.useProgram(p.program);
    gl.uniformMatrix4fv(p.u.uProj, false, proj);
    gl.uniformMatrix3fv(p.u.uView, false, rot);
    gl.uniform1i(p.u.uPerVertex, 0);
    gl.uniform3f(p.u.uOffset, -eye[0], -eye[1], -eye[2]);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.pathBuffer);
    gl.enableVertexAttribArray(p.a.aPos);
    gl.vertexAttribPointer(p.a.aPos, 3, gl.FLOAT, false, 0, 0);
    if (p.a.aColor >= 0) gl.disableVertexAttribArray(p.a.aColor);
    if (p.a.aTime >= 0) gl.disableVertexAttribArray(p.a.aTime);
    for (const { type, first, count } of this.pathRanges) {
      if (count < 2) continue;
      const c = SMALL_BODY_RGB[type] ?? SMALL_BODY_RGB.asteroid;
      gl.uniform4f(p.u.uColor, c[0], c[1], c[2], 0.45);
      gl.drawArrays(gl.LINE_STRIP, first, count);
    }
    gl.disable(gl.BLEND);
  }
}
