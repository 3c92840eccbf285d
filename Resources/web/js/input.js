// What the person does: the toolbar's controls (date, Now, Play, speed, focus, mission), the
// view's checkboxes and Picture link, the mission panel's Show/Hide, the error banner's ×, and
// the canvas's pointer and keys (controls.js), each handed to the module that owns its state.

import { attachControls } from './controls.js';
import { parseDateInput } from './time.js';

/** A tap selects the nearest body whose drawn disc is within this many CSS px of it. */
const TAP_SLOP_PX = 8;

/**
 * Wires every control. `ui`: main.js's elements; `page`: task; `drawn()`: the last frame's
 * layout (render.js overlayContent's result: where each body was drawn); `updatePicture()`:
 * points the Picture link at this view.
 */
export function attachInput({ ui, page, timeline, viewpoint, missions, smallBodies, drawn, requestDraw, updatePicture }) {
  ui.dismiss.addEventListener('click', () => { ui.error.hidden = true; });

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
    if (missions.current) missions.select('').then(() => { ui.mission.value = ''; timeline.setDate(ms); });
    else timeline.setDate(ms);
  });
  ui.now.addEventListener('click', () => {
    ui.date.value = 'now';
    ui.form.requestSubmit();
  });
  ui.play.addEventListener('click', () => timeline.togglePlay());
  for (const type of ['pointerdown', 'focus', 'contextmenu']) ui.picture.addEventListener(type, updatePicture);
  ui.smallBodies.addEventListener('change', () => {
    smallBodies.on = ui.smallBodies.checked;
    if (smallBodies.stale(timeline.simMs)) page.task(() => smallBodies.load(timeline.simMs));
    requestDraw();
  });
  ui.speed.addEventListener('change', () => timeline.changeSpeed(Number(ui.speed.value)));
  ui.focus.addEventListener('change', () => page.task(() => viewpoint.applyFocus(ui.focus.value)));
  ui.mission.addEventListener('change', () => page.task(() => missions.select(ui.mission.value)));
  ui.labels.addEventListener('change', requestDraw);
  ui.panelToggle.addEventListener('click', () => missions.togglePanel());

  attachControls(ui.canvas, {
    interact: () => viewpoint.interact(),
    orbit: (dAz, dEl) => viewpoint.orbit(dAz, dEl),
    pan: (dx, dy) => viewpoint.panBy(dx, dy),
    zoom: (factor) => viewpoint.zoom(factor),
    reset() {
      // Counted as pending, so the page is not `ready` until the flight toward the preset has begun.
      if (viewpoint.focus === 'mission') viewpoint.frameMission(missions.current?.framing);
      else page.task(() => viewpoint.applyFocus(viewpoint.focus));
    },
    togglePlay: () => timeline.togglePlay(),
    /** A tap: the body drawn under it (the nearest within its disc + TAP_SLOP_PX) becomes the focus. */
    select(x, y) {
      const last = drawn();
      if (!last) return;
      let best = null;
      for (const [id, s] of last.screen) {
        if (!s.visible || id === 'iss') continue;
        const d = Math.hypot(s.x - x, s.y - y);
        if (d <= s.r + TAP_SLOP_PX && (!best || d - s.r < best.d)) best = { id, d: d - s.r };
      }
      if (!best || ![...ui.focus.options].some((o) => o.value === best.id)) return;
      if (best.id === viewpoint.focus) return;
      page.task(() => viewpoint.applyFocus(best.id));
    },
  });
}
