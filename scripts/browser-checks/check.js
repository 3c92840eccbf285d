// Shared by the browser check pages (scripts/browser-check.sh). A page lists its checks with
// `check(name, async () => { ... })`; a check passes when its function resolves and fails when
// it throws (use `expect`). `run()` runs them in order and posts the results to the runner.
// The page's query string carries what the runner set up: `api` (the server, CORS for any
// origin), `apiListed` (a second server whose --cors-origins lists only this page's origin),
// `stream` (a proxy in front of `api` that cuts the first event-stream connection), `report`
// (where results go).
"use strict";

const params = new URLSearchParams(location.search);
const API = params.get("api");
const API_LISTED = params.get("apiListed");
const STREAM = params.get("stream");
const checks = [];

function check(name, fn) { checks.push({ name, fn }); }

function expect(condition, message) {
    if (!condition) throw new Error(message);
}

function sleep(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }

/// Resolves when `promise` does, rejects after `ms` milliseconds.
function within(ms, promise, what) {
    return Promise.race([promise, sleep(ms).then(() => { throw new Error(`${what}: no answer within ${ms} ms`); })]);
}

/// Loads `url` into a new <img> (with `crossOrigin` when given); resolves to the element on load,
/// or to null on error when `errorIsFine` (a JSON body is not an image, but it is still fetched
/// and cached).
function loadImage(url, { crossOrigin = null, errorIsFine = false } = {}) {
    return within(10000, new Promise((resolve, reject) => {
        const img = new Image();
        if (crossOrigin !== null) img.crossOrigin = crossOrigin;
        img.onload = () => resolve(img);
        img.onerror = () => (errorIsFine ? resolve(null) : reject(new Error(`image ${url} did not load`)));
        img.src = url;
    }), `image ${url}`);
}

async function run() {
    const results = [];
    for (const c of checks) {
        const started = performance.now();
        try {
            await c.fn();
            results.push({ name: c.name, ok: true, ms: Math.round(performance.now() - started) });
        } catch (e) {
            results.push({ name: c.name, ok: false, error: String(e && e.message ? e.message : e) });
        }
    }
    const page = location.pathname.split("/").pop();
    await fetch(params.get("report"), { method: "POST", body: JSON.stringify({ page, results }) });
}
