// The table's websocket: JSON messages in both directions, reconnecting after a drop.

const RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000];

export class TableSocket {
  /**
   * @param {string} tableId
   * @param {(message: object) => void} onMessage called for every server message
   * @param {(connected: boolean) => void} onStatus called when the connection opens or drops
   */
  constructor(tableId, onMessage, onStatus = () => {}) {
    this.tableId = tableId;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.closed = false;
    this.attempt = 0;
    this.pending = [];
    this.ws = null;
    this.pingTimer = null;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`;
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.attempt = 0;
      this.onStatus(true);
      for (const message of this.pending.splice(0)) ws.send(JSON.stringify(message));
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
    });
    ws.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(message);
    });
    ws.addEventListener("close", () => {
      clearInterval(this.pingTimer);
      if (this.closed) return;
      this.onStatus(false);
      const delay = RETRY_DELAYS_MS[Math.min(this.attempt, RETRY_DELAYS_MS.length - 1)];
      this.attempt += 1;
      setTimeout(() => {
        if (!this.closed) this.connect();
      }, delay);
    });
  }

  /** Send a message now, or as soon as the connection is open. */
  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
    } else if (message.type !== "ping") {
      this.pending.push(message);
    }
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
  }
}
