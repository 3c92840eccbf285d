// A mission replay from the server-sent-event stream (`v1/missions/{id}/stream`): telemetry
// for the panel, each mission event once (deduplicated by time and name, whatever the
// connection did), `end` at the mission's end. The browser's EventSource reconnects by itself
// after a network cut, sending Last-Event-ID so the server resumes where it stopped; a
// connection that goes silent is replaced by one that asks `from` the last mission time seen.

import { apiURL } from './api.js';

/** Telemetry comes at `rate` Hz; this long without any means the connection is stuck. */
const SILENCE_MS = 6000;
const MAX_RESTARTS = 5;

export class MissionReplay {
  /** `detail`: `/v1/missions/{id}`; `callbacks`: telemetry(t), event(e), status(text), ended(), failed(message). */
  constructor(detail, callbacks) {
    this.detail = detail;
    this.callbacks = callbacks;
    this.source = null;
    this.seen = new Set();
    this.events = []; // {t, name}, in arrival order, each once
    this.deliveries = 0; // mission-event messages received, duplicates included
    this.reconnects = 0;
    this.restarts = 0;
    this.lastEventId = null;
    this.lastHours = 0;
    this.ended = false;
    this.running = false;
    this.speed = detail.autoTimeScale;
    this.watchdog = null;
    this.lastMessageAt = 0;
  }

  /** Starts (or resumes) the replay at `fromHours` with `speed` mission seconds per second. */
  start(fromHours, speed) {
    this.stop();
    if (this.ended && fromHours >= this.detail.replayEndHours) return;
    if (fromHours === 0) {
      // From the launch again: every event is new again.
      this.seen.clear();
      this.events = [];
      this.lastHours = 0;
    }
    this.ended = false;
    this.restarts = 0;
    this.speed = speed;
    this.running = true;
    this.open(fromHours);
    this.lastMessageAt = performance.now();
    this.watchdog = setInterval(() => this.checkSilence(), 1000);
  }

  open(fromHours) {
    const url = apiURL(`v1/missions/${encodeURIComponent(this.detail.id)}/stream`, {
      speed: this.speed, rate: 10, from: fromHours > 0 ? fromHours.toFixed(6) : undefined,
    });
    const source = new EventSource(url);
    this.source = source;
    source.addEventListener('open', () => {
      this.lastMessageAt = performance.now();
      this.callbacks.status('');
    });
    source.addEventListener('telemetry', (m) => {
      this.touch(m);
      const t = JSON.parse(m.data);
      this.lastHours = Math.max(this.lastHours, t.t);
      this.callbacks.telemetry(t);
    });
    source.addEventListener('mission-event', (m) => {
      this.touch(m);
      const e = JSON.parse(m.data);
      this.deliveries += 1;
      const key = `${e.t}|${e.name}`;
      if (this.seen.has(key)) return;
      this.seen.add(key);
      this.events.push({ t: e.t, name: e.name });
      this.callbacks.event(e);
    });
    source.addEventListener('end', (m) => {
      this.touch(m);
      this.finish();
    });
    source.addEventListener('error', () => {
      if (source !== this.source || !this.running) return;
      if (source.readyState === EventSource.CONNECTING) {
        // A network cut: the browser reconnects with Last-Event-ID by itself.
        this.reconnects += 1;
        this.callbacks.status('Connection lost — reconnecting…');
      } else if (source.readyState === EventSource.CLOSED) {
        // Closed for good: a 204 (nothing left to replay) or a failed reconnect.
        if (this.lastHours >= this.detail.replayEndHours * 0.999) this.finish();
        else this.restart('The replay stream closed');
      }
    });
  }

  touch(m) {
    this.lastMessageAt = performance.now();
    if (m.lastEventId) this.lastEventId = m.lastEventId;
  }

  checkSilence() {
    if (this.running && performance.now() - this.lastMessageAt > SILENCE_MS) this.restart('The replay stream went silent');
  }

  /** Replaces the connection by one that starts at the last mission time seen. */
  restart(reason) {
    if (this.restarts >= MAX_RESTARTS) {
      this.stop();
      this.callbacks.failed(`${reason}; gave up after ${MAX_RESTARTS} attempts.`);
      return;
    }
    this.restarts += 1;
    this.reconnects += 1;
    this.callbacks.status(`${reason} — reconnecting…`);
    this.source?.close();
    this.source = null;
    this.lastMessageAt = performance.now();
    setTimeout(() => { if (this.running) this.open(this.lastHours); }, 1000);
  }

  finish() {
    this.ended = true;
    this.stop();
    this.callbacks.ended();
  }

  /** Closes the stream (pause, another mission, the end). */
  stop() {
    this.running = false;
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    this.source?.close();
    this.source = null;
  }
}
