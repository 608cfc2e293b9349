// The WebSocket to a room: reconnects with backoff and resumes its seat (the server sends a
// full snapshot after every connect, and the others only a small presence message), keeps
// the line alive with pings.

const PING_MS = 20000;
const MAX_DELAY_MS = 8000;

export class RoomSocket {
  /** onMessage(msg) for every server message; onStatus("open"|"closed"|"retrying") for the line. */
  constructor(room, token, { onMessage, onStatus }) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const query = token ? `?token=${encodeURIComponent(token)}` : "";
    this.url = `${scheme}//${location.host}/ws/${encodeURIComponent(room)}${query}`;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.delay = 500;
    this.stopped = false;
    this.queue = [];
    this.connect();
  }

  connect() {
    // A connection that gets an error before any snapshot was refused (unknown room, wrong
    // token): retrying would only be refused again.
    let snapshot = false;
    let refused = false;
    this.ws = new WebSocket(this.url);
    this.ws.addEventListener("open", () => {
      this.delay = 500;
      this.onStatus("open");
      for (const msg of this.queue.splice(0)) this.ws.send(JSON.stringify(msg));
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_MS);
    });
    this.ws.addEventListener("message", (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      if (msg.type === "state") snapshot = true;
      if (msg.type === "error" && !snapshot) refused = true;
      if (msg.type !== "pong") this.onMessage(msg);
    });
    this.ws.addEventListener("close", (event) => {
      clearInterval(this.pinger);
      // 4xxx codes, like an error before any snapshot, are the server refusing us for good.
      if (this.stopped || refused || event.code >= 4000) {
        this.onStatus("closed");
        return;
      }
      this.onStatus("retrying");
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, MAX_DELAY_MS);
    });
  }

  /** Send now, or as soon as the line is back. */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
    else if (msg.type !== "ping") this.queue.push(msg);
  }

  stop() {
    this.stopped = true;
    if (this.ws) this.ws.close();
  }
}
