// Labels that never overlap: placed in priority order (the Sun and planets, mission vehicles and
// events, the focused system's moons, named stars, other moons), each at the first free spot
// around its body at max(8, screen radius + 4) px (the seeds' offset) — above, below, right,
// left, then the four diagonals, then the same eight a little farther out — or not at all. No
// label covers another body's disc or a ring system (obstacles).

const PAD = 2;
/** Space between a label's box and its text (CSS px). */
export const labelPadding = PAD;

/**
 * `items`: {id, text, x, y, r, priority, font, color}. `obstacles`: discs {x, y, r} labels may
 * not cover. Returns the placed labels with their boxes {x, y, w, h} (top-left, CSS pixels).
 */
export function layoutLabels(ctx, items, obstacles, width, height) {
  const placed = [];
  const sorted = [...items].sort((a, b) => a.priority - b.priority || b.r - a.r);
  for (const item of sorted) {
    const w = textWidth(ctx, item.font, item.text) + 2 * PAD;
    const h = fontPixels(item.font) + 2 * PAD;
    const off = Math.max(8, item.r + 4);
    const candidates = [];
    for (const o of [off, off + 10]) {
      const d = o * 0.72;
      candidates.push(
        { x: item.x - w / 2, y: item.y - o - h },
        { x: item.x - w / 2, y: item.y + o },
        { x: item.x + o, y: item.y - h / 2 },
        { x: item.x - o - w, y: item.y - h / 2 },
        { x: item.x + d, y: item.y - d - h },
        { x: item.x - d - w, y: item.y - d - h },
        { x: item.x + d, y: item.y + d },
        { x: item.x - d - w, y: item.y + d },
      );
    }
    const spot = candidates.find((c) => {
      const box = { x: c.x, y: c.y, w, h };
      if (box.x < 0 || box.y < 0 || box.x + w > width || box.y + h > height) return false;
      if (placed.some((p) => intersects(p.box, box))) return false;
      return !obstacles.some((o) => o.id !== item.id && o.r >= 3 && discHitsBox(o, box));
    });
    if (spot) placed.push({ ...item, box: { x: spot.x, y: spot.y, w, h } });
  }
  return placed;
}

/** Label widths, measured once per font and text (measuring every label every frame showed in the frame time). */
const widths = new Map();
function textWidth(ctx, font, text) {
  const key = `${font}|${text}`;
  let w = widths.get(key);
  if (w === undefined) {
    ctx.font = font;
    w = Math.ceil(ctx.measureText(text).width);
    if (widths.size > 2000) widths.clear();
    widths.set(key, w);
  }
  return w;
}

/** The size in a CSS font shorthand (`600 13px system-ui` → 13). */
function fontPixels(font) {
  const m = /(\d+(?:\.\d+)?)px/.exec(font);
  return m ? Number(m[1]) : 12;
}

export function intersects(a, b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

function discHitsBox(d, box) {
  const cx = Math.max(box.x, Math.min(d.x, box.x + box.w));
  const cy = Math.max(box.y, Math.min(d.y, box.y + box.h));
  return (cx - d.x) ** 2 + (cy - d.y) ** 2 < d.r * d.r;
}

export function drawLabels(ctx, placed) {
  ctx.textBaseline = 'top';
  for (const l of placed) {
    ctx.font = l.font;
    ctx.fillStyle = 'rgba(4, 6, 16, 0.55)';
    ctx.fillRect(l.box.x, l.box.y, l.box.w, l.box.h);
    ctx.fillStyle = l.color;
    ctx.fillText(l.text, l.box.x + PAD, l.box.y + PAD);
  }
}
