// HTTP calls to the cardtable server (JSON in, JSON out); errors carry the server's sentence.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function request(method, path, body) {
  const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!response.ok) {
    const detail = data && typeof data === "object" ? data.detail ?? data.message : data;
    const message = typeof detail === "string" ? detail : JSON.stringify(detail ?? response.statusText);
    throw new ApiError(response.status, message);
  }
  return data;
}

export const api = {
  games: () => request("GET", "/api/games"),
  rules: (game) => request("GET", `/api/rules/${encodeURIComponent(game)}`),
  createTable: (spec) => request("POST", "/api/tables", spec),
  tables: () => request("GET", "/api/tables"),
  table: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}`),
  leaveTable: (id) => request("DELETE", `/api/tables/${encodeURIComponent(id)}`),
  profile: () => request("GET", "/api/profile"),
  saveProfile: (changes) => request("PUT", "/api/profile", changes),
  record: () => request("GET", "/api/record"),
  exportProfile: () => request("GET", "/api/profile/export"),
  importProfile: (doc) => request("POST", "/api/profile/import", doc),
};
