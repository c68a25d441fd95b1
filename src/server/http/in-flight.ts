// How much one server process takes on at once. Node's own back-pressure stops reading a
// connection only once answers are written and not drained; a lookup's answer waits for the
// usage commit (group commit + WAL flush), so a client pipelining requests without reading the
// answers had every request it sent parsed, worked on and held. Here:
// - per connection, at most `perConnection` requests are worked on or have an answer not yet
//   handed to the kernel; further ones wait, unstarted, and the socket is no longer read until
//   half of them are done (node parses the whole 64 KB it read, so some always arrive late);
// - per process, beyond `working` requests started and not yet answered, a request is refused
//   at once with 503 (no database work). Answers waiting for a client that does not read them
//   are not work: connections that stall cannot make everyone else refused.
// The values and why: docs/http-limits.md.
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

export interface InFlightLimits {
  /** Requests of one connection worked on or not yet written; then it is no longer read. */
  perConnection: number;
  /** Requests of the whole process started and not answered yet; beyond, 503. */
  working: number;
}

/**
 * 32 is beyond any pipelining depth clients use (undici's default is 1, browsers do not
 * pipeline). 2048 answers pending at once are one group commit of a few tens of ms.
 */
export const IN_FLIGHT_LIMITS: InFlightLimits = { perConnection: 32, working: 2048 };

type Route = (req: IncomingMessage, res: ServerResponse) => void;

class Conn {
  /** Requests of this connection received and not yet written (started or waiting). */
  unfinished = 0;
  /** Started and not yet written. */
  started = 0;
  /** Started and not yet answered (their share of InFlight.working). */
  working = 0;
  readonly waiting: [IncomingMessage, CountedResponse][] = [];
  /** Reading stopped by this count (node may also stop it on its own, for unwritten output). */
  paused = false;
  closed = false;

  constructor(
    readonly owner: InFlight,
    readonly socket: Socket,
  ) {}
}

/**
 * The http server's response class (createServer's `ServerResponse` option): end() tells the
 * count that the answer exists, without a listener or closure per request.
 */
export class CountedResponse extends ServerResponse {
  conn: Conn | undefined;
  working = false;

  override end(cb?: () => void): this;
  override end(chunk: unknown, cb?: () => void): this;
  override end(chunk: unknown, encoding: BufferEncoding, cb?: () => void): this;
  override end(a?: unknown, b?: unknown, c?: unknown): this {
    if (this.working) this.conn!.owner.answered(this);
    // Missing arguments and undefined ones mean the same to node.
    return super.end(a, b as BufferEncoding, c as () => void);
  }
}

function onFinish(this: CountedResponse): void {
  this.conn!.owner.written(this);
}

export class InFlight {
  private working = 0;
  private readonly conns = new WeakMap<Socket, Conn>();

  constructor(
    private readonly limits: InFlightLimits,
    /** Works on an admitted request. */
    private readonly route: Route,
    /** Answers a request refused for being over the process's bound (503). */
    private readonly refuse: Route,
  ) {}

  /** Requests started and not answered yet. */
  get count(): number {
    return this.working;
  }

  /** Every request goes through here: started now, later (its connection is full) or refused. */
  admit(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    let c = this.conns.get(socket);
    if (c === undefined) c = this.connect(socket);
    const r = res as unknown as CountedResponse;
    r.conn = c;
    c.unfinished++;
    r.on('finish', onFinish);
    if (c.unfinished >= this.limits.perConnection && !c.paused) {
      c.paused = true;
      socket.pause();
    }
    if (c.started < this.limits.perConnection && c.waiting.length === 0) this.start(c, req, r);
    else c.waiting.push([req, r]);
  }

  private connect(socket: Socket): Conn {
    const c = new Conn(this, socket);
    this.conns.set(socket, c);
    // Answers queued behind one the client never read get no 'finish': the close releases
    // whatever the connection still holds, and what waits is never started.
    socket.once('close', () => {
      c.closed = true;
      this.working -= c.working;
      c.working = 0;
      c.waiting.length = 0;
    });
    // Node resumes a socket it paused itself (for unwritten output) once that output drains,
    // whatever this count says: this pause holds as node's own does (its 'resume' handler).
    socket.on('resume', () => {
      if (c.paused) socket.pause();
    });
    return c;
  }

  private start(c: Conn, req: IncomingMessage, res: CountedResponse): void {
    c.started++;
    if (this.working >= this.limits.working) return this.refuse(req, res);
    this.working++;
    c.working++;
    res.working = true;
    // A request whose body is still to come must be able to read it.
    if (!req.complete && c.paused) {
      c.paused = false;
      c.socket.resume();
    }
    this.route(req, res);
  }

  /** The answer exists (end() called): no longer work, whether or not the client reads it. */
  answered(res: CountedResponse): void {
    res.working = false;
    const c = res.conn!;
    if (c.closed) return;
    c.working--;
    this.working--;
  }

  /** The answer was handed to the kernel. */
  written(res: CountedResponse): void {
    const c = res.conn!;
    // A plain ServerResponse (not the server's class) reports its answer only here.
    if (res.working) this.answered(res);
    if (c.closed) return;
    c.unfinished--;
    c.started--;
    while (c.started < this.limits.perConnection && c.waiting.length > 0) {
      const [req, next] = c.waiting.shift()!;
      this.start(c, req, next);
    }
    if (c.paused && c.unfinished <= this.limits.perConnection >> 1) {
      c.paused = false;
      // Node's own pause (unwritten output) still holds: its 'resume' handler pauses again.
      c.socket.resume();
    }
  }
}
