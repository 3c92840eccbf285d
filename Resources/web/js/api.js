// Requests to the API, relative to the page so the viewer works behind a path prefix
// (`/solar/` serves `/solar/v1/scene`). Every failure becomes an ApiError whose message is
// readable: the problem+json `detail` when the server sent one.

export class ApiError extends Error {
  constructor(message, { status = 0, title = '', path = '' } = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.title = title;
    this.path = path;
  }
}

/** `v1/scene` + {date: '…'} → `v1/scene?date=…` (values encoded, undefined and null left out). */
export function apiURL(path, params = {}) {
  const query = Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
  return query ? `${path}?${query}` : path;
}

/** Answers asked ahead (`prefetchJSON`), each handed to the first getJSON of the same URL. */
const early = new Map();

/** Starts a GET whose answer a later getJSON of the same path and parameters takes over. */
export function prefetchJSON(path, params = {}) {
  const url = apiURL(path, params);
  if (!early.has(url)) {
    const job = getJSON(path, params);
    job.catch(() => {}); // the getJSON that takes it over reports the failure
    early.set(url, job);
  }
}

/** GET a JSON answer; throws ApiError with the problem's detail on any failure. */
export async function getJSON(path, params = {}, { signal } = {}) {
  const url = apiURL(path, params);
  if (early.has(url) && !signal) {
    const job = early.get(url);
    early.delete(url);
    return job;
  }
  let response;
  try {
    response = await fetch(url, { headers: { Accept: 'application/json' }, signal });
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(`The server could not be reached (${url}).`, { path: url });
  }
  if (!response.ok) throw await problem(response, url);
  try {
    return await response.json();
  } catch {
    throw new ApiError(`The answer to ${url} was not valid JSON.`, { status: response.status, path: url });
  }
}

async function problem(response, url) {
  let detail = '';
  let title = response.statusText;
  try {
    const body = await response.json();
    detail = body.detail || '';
    title = body.title || title;
  } catch { /* not problem+json: the status says enough */ }
  const message = detail || `${response.status} ${title}`;
  return new ApiError(message, { status: response.status, title, path: url });
}
