// @ts-check
// The table's socket handling: the connection to /ws/tables/{id} (socket.js reconnects it), the
// server's messages routed by type to the handlers the table gives, a part's own messages first
// (a shared table's room, acks, quick messages), and the paused state while the connection is
// down. Moves are never queued: one made while offline is refused at once.

import { TableSocket } from "./socket.js";

/**
 * @typedef {object} MessageRoutes
 * @property {(message: any) => boolean} [intercept] a part's look at every message first; true
 *   when it dealt with the message itself
 * @property {Record<string, (message: any) => void>} handlers the table's handler per type
 * @property {(connected: boolean) => void} onStatus the connection opened or dropped
 * @property {(reason: string) => void} onRefused the server refused the seat (final)
 */

export class TableConnection {
  /**
   * @param {string} tableId
   * @param {MessageRoutes} routes
   */
  constructor(tableId, routes) {
    this.routes = routes;
    /** Down since the last drop, until the server's fresh state arrives. */
    this.offline = false;
    this.closed = false;
    this.socket = new TableSocket(
      tableId,
      (message) => this.route(message),
      (connected) => {
        this.offline = !connected;
        routes.onStatus(connected);
      },
      (reason) => routes.onRefused(reason),
    );
  }

  /** @param {any} message */
  route(message) {
    if (this.closed) return;
    if (message.type === "state") this.offline = false;
    if (this.routes.intercept?.(message)) return;
    this.routes.handlers[message.type]?.(message);
  }

  /** Whether moves can be sent now: connected, and the table's state since then has come. */
  get connected() {
    return this.socket.connected && !this.offline;
  }

  /**
   * Send a message now; false (and nothing is sent, ever) when not connected.
   * @param {object} message
   */
  send(message) {
    return this.socket.send(message);
  }

  close() {
    this.closed = true;
    this.socket.close();
  }
}
