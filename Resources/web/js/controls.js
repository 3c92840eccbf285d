// Mouse, touch and keyboard on the canvas. Drag orbits (right, middle or Shift-drag pans), the
// wheel zooms; one finger orbits, two fingers pinch to zoom and move together to pan; a tap (a
// press that hardly moves) selects the body under it, a double tap resets; arrows orbit,
// Shift+arrows pan, + and − zoom, 0 or Home resets the view, Space plays or pauses. `interact`
// (which stops a camera flight) runs before the key's action, so a reset's flight survives.

export function attachControls(canvas, handlers) {
  const pointers = new Map();
  let mode = null;
  let last = null;
  let tap = null;
  let lastTap = null;

  const centroid = () => {
    const ps = [...pointers.values()];
    return { x: ps.reduce((s, p) => s + p.x, 0) / ps.length, y: ps.reduce((s, p) => s + p.y, 0) / ps.length };
  };
  const spread = () => {
    const [a, b] = [...pointers.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  };

  canvas.addEventListener('pointerdown', (e) => {
    canvas.setPointerCapture(e.pointerId);
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size === 2) mode = 'pinch';
    else mode = e.button === 2 || e.button === 1 || e.shiftKey ? 'pan' : 'orbit';
    last = { ...centroid(), spread: spread() };
    tap = pointers.size === 1 ? { x: e.clientX, y: e.clientY, at: performance.now(), moved: 0 } : null;
    handlers.interact();
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!pointers.has(e.pointerId)) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const c = centroid();
    const dx = c.x - last.x;
    const dy = c.y - last.y;
    if (tap) tap.moved += Math.hypot(dx, dy);
    if (mode === 'pinch') {
      const s = spread();
      if (last.spread > 0 && s > 0) handlers.zoom(last.spread / s);
      handlers.pan(dx, dy);
      last = { ...c, spread: s };
    } else {
      if (mode === 'pan') handlers.pan(dx, dy);
      else handlers.orbit(-dx * 0.006, dy * 0.006);
      last = { ...c, spread: 0 };
    }
  });
  const end = (e) => {
    if (e.type === 'pointerup' && tap && pointers.size === 1 && tap.moved < 6 && performance.now() - tap.at < 400) {
      const r = canvas.getBoundingClientRect();
      const now = performance.now();
      // A second tap within 350 ms and 24 px of the first is a double tap: reset. (A mouse's
      // double click comes as `dblclick`; a finger's is recognised here.)
      if (e.pointerType === 'touch' && lastTap && now - lastTap.at < 350 && Math.hypot(e.clientX - lastTap.x, e.clientY - lastTap.y) < 24) {
        lastTap = null;
        handlers.reset();
      } else {
        if (e.pointerType === 'touch') lastTap = { x: e.clientX, y: e.clientY, at: now };
        handlers.select?.(e.clientX - r.left, e.clientY - r.top);
      }
    }
    tap = null;
    pointers.delete(e.pointerId);
    if (pointers.size === 0) mode = null;
    else {
      mode = pointers.size === 1 ? 'orbit' : 'pinch';
      last = { ...centroid(), spread: spread() };
    }
  };
  canvas.addEventListener('pointerup', end);
  canvas.addEventListener('pointercancel', end);
  canvas.addEventListener('contextmenu', (e) => e.preventDefault());
  canvas.addEventListener('dblclick', (e) => {
    if (e.sourceCapabilities?.firesTouchEvents) return; // a finger's double tap was handled on pointerup
    handlers.reset();
  });
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    handlers.interact();
    const lines = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
    handlers.zoom(Math.exp(e.deltaY * lines * 0.0015));
  }, { passive: false });

  canvas.addEventListener('keydown', (e) => {
    const step = 0.06;
    const px = 24;
    const keys = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', '+', '=', 'PageUp', '-', '_', 'PageDown', '0', 'Home', ' '];
    if (!keys.includes(e.key)) return;
    e.preventDefault();
    if (e.key !== ' ') handlers.interact();
    switch (e.key) {
      case 'ArrowLeft': e.shiftKey ? handlers.pan(px, 0) : handlers.orbit(step, 0); break;
      case 'ArrowRight': e.shiftKey ? handlers.pan(-px, 0) : handlers.orbit(-step, 0); break;
      case 'ArrowUp': e.shiftKey ? handlers.pan(0, px) : handlers.orbit(0, step); break;
      case 'ArrowDown': e.shiftKey ? handlers.pan(0, -px) : handlers.orbit(0, -step); break;
      case '+': case '=': case 'PageUp': handlers.zoom(1 / 1.2); break;
      case '-': case '_': case 'PageDown': handlers.zoom(1.2); break;
      case '0': case 'Home': handlers.reset(); break;
      case ' ': handlers.togglePlay(); break;
      default: break;
    }
  });
}
