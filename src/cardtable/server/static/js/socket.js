// @ts-check
// The table's websocket: JSON messages in both directions, reconnecting after a drop. A refusal
// (no profile, not seated, no such table) is final: it is reported once and never retried.
// Moves are never queued: a move made while the connection is down is refused at once, so
// nothing the player did not see is sent later.
// The socket asks for patches (`?patches=1`, docs/protocol.md): after a whole state the server
// sends what changed since it, and the socket hands the page whole states, merged here. A patch
// for another version than the one held (a frame lost on the way) makes it connect again, which
// brings a whole state.

const RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000, 8000];
/** Close codes the server uses to refuse a seat (see server/protocol/websocket.py). */
const REFUSALS = new Set([4401, 4403, 4404]);
/** Error codes sent just before such a refusal. */
const REFUSAL_CODES = new Set(["not-seated", "no-table", "not-member"]);

export class TableSocket {
  /**
   * @param {string} tableId
   * @param {(message: object) => void} onMessage called for every server message
   * @param {(connected: boolean) => void} onStatus called when the connection opens or drops
   * @param {(reason: string) => void} onRefused called once when the server refuses the seat
   */
  constructor(tableId, onMessage, onStatus = () => {}, onRefused = () => {}) {
    this.tableId = tableId;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.onRefused = onRefused;
    this.closed = false;
    this.attempt = 0;
    this.ws = null;
    this.pingTimer = null;
    this.retryTimer = null;
    this.connect();
  }

  get connected() {
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN);
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.tableId)}?patches=1`;
    const ws = new WebSocket(url);
    this.ws = ws;
    /** The last whole state of this connection, which the next patch applies to. */
    this.state = null;
    let refusal = "";
    ws.addEventListener("open", () => {
      this.attempt = 0;
      this.onStatus(true);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
    });
    ws.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      // A refusal arrives as an error message just before the closing frame.
      if (message.type === "error" && REFUSAL_CODES.has(message.code)) {
        refusal = message.message || "";
        return;
      }
      // Removed from a shared table by its host: the closing frame (4403) follows.
      if (message.type === "removed") refusal = message.message || "";
      if (message.type === "patch") {
        message = this.merge(message);
        if (message === null) {
          ws.close(); // out of step: connecting again brings the whole state
          return;
        }
      }
      if (message.type === "state") this.state = message;
      else if (message.type === "room" && this.state) this.state = { ...this.state, room: message.room };
      this.onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      clearInterval(this.pingTimer);
      if (this.closed || this.ws !== ws) return;
      if (REFUSALS.has(event.code)) {
        this.closed = true;
        this.onRefused(refusal || event.reason || "");
        return;
      }
      this.onStatus(false);
      const delay = RETRY_DELAYS_MS[Math.min(this.attempt, RETRY_DELAYS_MS.length - 1)];
      this.attempt += 1;
      this.retryTimer = setTimeout(() => {
        if (!this.closed) this.connect();
      }, delay);
    });
  }

  /**
   * The whole state a patch leads to from the one held, or null when it applies to another one.
   * @param {{base: number, version: number, set: object, view: object, append: object}} patch
   */
  merge(patch) {
    const state = this.state;
    if (!state || state.version !== patch.base) return null;
    const view = { ...state.view, ...patch.view };
    for (const [name, items] of Object.entries(patch.append)) view[name] = [...view[name], ...items];
    return { ...state, ...patch.set, type: "state", version: patch.version, view };
  }

  /** Send a message now; returns false (and sends nothing, ever) when not connected. */
  send(message) {
    if (!this.connected) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    if (this.ws) this.ws.close();
  }
}
