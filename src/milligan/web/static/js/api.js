// The server's JSON API.

export class ApiError extends Error {
  constructor(status, body) {
    super(body.message || body.error || `HTTP ${status}`);
    this.status = status;
    this.code = body.error || "error";
    this.cards = body.cards || [];
    this.body = body;
  }
}

async function call(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let data = {};
  try {
    data = await response.json();
  } catch {
    data = {};
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const api = {
  create: (variant, deal) =>
    call("POST", "/api/games", deal === null || deal === undefined ? { variant } : { variant, deal }),
  game: (id) => call("GET", `/api/games/${encodeURIComponent(id)}`),
  playing: () => call("GET", "/api/games?status=playing"),
  move: (id, move, expect) =>
    call("POST", `/api/games/${encodeURIComponent(id)}/moves`, { move, expect }),
  action: (id, name, expect) =>
    call("POST", `/api/games/${encodeURIComponent(id)}/${name}`, { expect }),
  hint: (id) => call("GET", `/api/games/${encodeURIComponent(id)}/hint`),
  solution: (id) => call("GET", `/api/games/${encodeURIComponent(id)}/solution`),
  record: (id) => call("GET", `/api/games/${encodeURIComponent(id)}/record`),
  importRecord: (record) => call("POST", "/api/games/import", record),
  stats: () => call("GET", "/api/stats"),
  variants: () => call("GET", "/api/variants"),
};
