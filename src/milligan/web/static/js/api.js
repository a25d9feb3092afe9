// The server's JSON API.

export class ApiError extends Error {
  constructor(status, body) {
    super(body.message || body.error || `HTTP ${status}`);
    this.status = status;
    this.code = body.error || "error";
    this.cards = body.cards || [];
    this.reason = body.reason || null;  // a refusal's {code, params}: docs/API.md
    this.body = body;
  }
}

// Deal numbers go up to 2**64 - 1, beyond JavaScript's exact integers: they travel as
// digit strings inside the page and as plain JSON numbers on the wire.
function keepBigDeal(key, value, context) {
  if (key === "deal" && typeof value === "number" && !Number.isSafeInteger(value)
    && context && context.source) {
    return context.source;
  }
  return value;
}

function encode(body) {
  const text = JSON.stringify(body);
  if (typeof body.deal === "string" && /^\d+$/.test(body.deal)) {
    return text.replace(`"deal":"${body.deal}"`, `"deal":${body.deal}`);
  }
  return text;
}

/** One request to the API: the answer's JSON, or an ApiError for a 4xx or 5xx. */
export async function call(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = encode(body);
  }
  const response = await fetch(path, options);
  let data = {};
  try {
    data = JSON.parse(await response.text(), keepBigDeal);
  } catch {
    data = {};
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const api = {
  create: (variant, deal, winnable = false) =>
    call("POST", "/api/games", deal === null || deal === undefined
      ? (winnable ? { variant, winnable } : { variant }) : { variant, deal }),
  game: (id) => call("GET", `/api/games/${encodeURIComponent(id)}`),
  playing: () => call("GET", "/api/games?status=playing"),
  move: (id, move, expect) =>
    call("POST", `/api/games/${encodeURIComponent(id)}/moves`, { move, expect }),
  action: (id, name, expect) =>
    call("POST", `/api/games/${encodeURIComponent(id)}/${name}`, { expect }),
  hint: (id) => call("GET", `/api/games/${encodeURIComponent(id)}/hint`),
  solution: (id) => call("GET", `/api/games/${encodeURIComponent(id)}/solution`),
  analysis: (id) => call("GET", `/api/games/${encodeURIComponent(id)}/analysis`),
  record: (id) => call("GET", `/api/games/${encodeURIComponent(id)}/record`),
  importRecord: (record) => call("POST", "/api/games/import", record),
  stats: () => call("GET", "/api/stats"),
  dailyStats: () => call("GET", "/api/daily/stats"),
  variants: () => call("GET", "/api/variants"),
};
