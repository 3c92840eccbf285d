// Labels that never overlap: placed in priority order (Sun and planets, mission vehicles and
// events, moons, named stars), each at the first free spot above, below, right or left of its
// body at max(8, screen radius + 4) px (the seeds' offset), or not at all.

const PAD = 2;

/**
 * `items`: {id, text, x, y, r, priority, font, color}. `obstacles`: discs {x, y, r} labels may
 * not cover. Returns the placed labels with their boxes {x, y, w, h} (top-left, CSS pixels).
 */
export function layoutLabels(ctx, items, obstacles, width, height) {
  const placed = [];
  const sorted = [...items].sort((a, b) => a.priority - b.priority || b.r - a.r);
  for (const item of sorted) {
    ctx.font = item.font;
    const w = Math.ceil(ctx.measureText(item.text).width) + 2 * PAD;
    const h = fontPixels(item.font) + 2 * PAD;
    const off = Math.max(8, item.r + 4);
    const candidates = [
      { x: item.x - w / 2, y: item.y - off - h },
      { x: item.x - w / 2, y: item.y + off },
      { x: item.x + off, y: item.y - h / 2 },
      { x: item.x - off - w, y: item.y - h / 2 },
    ];
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
