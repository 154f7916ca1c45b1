// @ts-check
// HTTP calls to the cardtable server (JSON in, JSON out); errors carry the server's sentence.
// Requests that change something always go as application/json (the server refuses anything
// else, so that no page of another site can send them with a form). Loading the page gives the
// browser its profile; if the cookie is gone (cleared while the page was open), the first call
// answered 401 asks for a new profile once and is sent again.

import { newContribution } from "./fairness.js";

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function request(method, path, body, retried = false) {
  /** @type {RequestInit & { headers: Record<string, string> }} */
  const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (method !== "GET") init.headers["Content-Type"] = "application/json";
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await fetch(path, init);
  if (response.status === 401 && !retried) {
    await request("POST", "/api/profile", undefined, true);
    return request(method, path, body, true);
  }
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
  // A fair deal: the server commits to its seed first, then the page adds its own random value.
  createTable: async (spec) => {
    const { commitment } = await request("POST", "/api/commitments");
    return request("POST", "/api/tables", { ...spec, commitment, contribution: newContribution() });
  },
  finishedGames: () => request("GET", "/api/replays"),
  replay: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/replay`),
  sharedReplay: (token) => request("GET", `/api/replays/${encodeURIComponent(token)}`),
  share: (id) => request("POST", `/api/tables/${encodeURIComponent(id)}/share`),
  analysis: (id, seat) => request("GET", `/api/tables/${encodeURIComponent(id)}/analysis?seat=${seat}`),
  handAnalyses: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/analysis/hands`),
  handAnalysis: (id, hand) => request("GET", `/api/tables/${encodeURIComponent(id)}/analysis/hands/${hand}`),
  sharedAnalysis: (token, seat) => request("GET", `/api/replays/${encodeURIComponent(token)}/analysis?seat=${seat}`),
  tables: () => request("GET", "/api/tables"),
  // Shared tables: the invite token travels in request bodies only, never in a path or query.
  peekInvite: (token) => request("POST", "/api/invites/peek", { token }),
  joinInvite: (body) => request("POST", "/api/invites/join", { ...body, contribution: newContribution() }),
  lobby: () => request("GET", "/api/lobby"),
  table: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}`),
  leaveTable: (id) => request("DELETE", `/api/tables/${encodeURIComponent(id)}`),
  options: () => request("GET", "/api/options"),
  profile: () => request("GET", "/api/profile"),
  saveProfile: (changes) => request("PUT", "/api/profile", changes),
  record: () => request("GET", "/api/record"),
  exportProfile: () => request("GET", "/api/profile/export"),
  importProfile: (doc) => request("POST", "/api/profile/import", doc),
};
