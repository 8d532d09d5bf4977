'use strict';
/**
 * The boardgame.io load generator of the peer benchmark:
 * `node load.js HOST:PORT IN_FLIGHT`.
 *
 * It plays Pebbles on a boardgame.io server as real players do, over the
 * network: one socket.io connection per seat (the transport boardgame.io's own
 * client uses), `IN_FLIGHT` matches at a time with 4 seats each. A seat joins a
 * match with boardgame.io's `sync` message and moves with its `update` message
 * (the MAKE_MOVE action its client sends); the server answers every seat with
 * its player view. A move's latency runs from sending it to the mover receiving
 * the state it produced. Connections stay open across matches (a seat syncs to
 * its next match on the same socket), as the gRPC streams of the Senet side
 * share one channel.
 *
 * Driven by the Python benchmark through JSON lines: on stdin
 *   {"cmd": "prepare", "matches": N}   create matches and join their seats
 *                                      (lobby API), outside any timed section
 *   {"cmd": "window", "seconds": S, "inflight": K}
 *                                      play for S seconds, K matches in flight
 *                                      (at most IN_FLIGHT)
 *   {"cmd": "quit"}
 * and on stdout one JSON object per command ({"ready": ...} first, once
 * every connection is open). Talks to the given loopback address only.
 */
const readline = require('node:readline');
const { performance } = require('node:perf_hooks');
const { io } = require('socket.io-client');

const GAME = 'pebbles';
const SEATS = 4;
const SETUP_PARALLELISM = 8;
// A window that has not ended this long after its deadline is stuck: give up.
const STUCK_MS = 30000;

const [address, inFlightArg] = process.argv.slice(2);
const inFlight = Number(inFlightArg);
const base = `http://${address}`;

function reply(object) {
  process.stdout.write(`${JSON.stringify(object)}\n`);
}

async function post(path, body) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${path}: HTTP ${response.status}`);
  return response.json();
}

/** Create a 4-player match and claim every seat; returns its id and credentials. */
async function createMatch() {
  const { matchID } = await post(`/games/${GAME}/create`, { numPlayers: SEATS });
  const credentials = [];
  for (let seat = 0; seat < SEATS; seat += 1) {
    const joined = await post(`/games/${GAME}/${matchID}/join`, {
      playerID: String(seat),
      playerName: `bench ${seat}`,
    });
    credentials.push(joined.playerCredentials);
  }
  return { matchID, credentials };
}

const ready = [];
let createdInline = 0;

async function prepare(count) {
  let missing = count - ready.length;
  const workers = [];
  for (let i = 0; i < SETUP_PARALLELISM; i += 1) {
    workers.push(
      (async () => {
        while (missing > 0) {
          missing -= 1;
          ready.push(await createMatch());
        }
      })(),
    );
  }
  await Promise.all(workers);
}

async function take() {
  if (ready.length > 0) return ready.shift();
  createdInline += 1;
  return createMatch();
}

/** One seat's connection; it follows whichever match its slot is playing. */
class Seat {
  constructor(slot, index) {
    this.slot = slot;
    this.playerID = String(index);
    this.stateID = -1;
    this.pending = null; // {stateID, sent} of the move awaiting its state
    this.socket = io(`${base}/${GAME}`, { transports: ['websocket'], forceNew: true });
    this.socket.on('sync', (matchID, info) => this.slot.onState(this, matchID, info.state));
    this.socket.on('update', (matchID, state) => this.slot.onState(this, matchID, state));
  }

  connected() {
    if (this.socket.connected) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.socket.once('connect', resolve);
      this.socket.once('connect_error', reject);
    });
  }

  join(match) {
    this.stateID = -1;
    this.pending = null;
    const seat = Number(this.playerID);
    this.socket.emit('sync', match.matchID, this.playerID, match.credentials[seat], SEATS);
  }
}

/** A match in flight: four seats playing one match after another. */
class Slot {
  constructor(latencies) {
    this.latencies = latencies;
    this.seats = [];
    for (let i = 0; i < SEATS; i += 1) this.seats.push(new Seat(this, i));
    this.match = null;
    this.done = null;
  }

  /** Play `match` until it ends or `deadline`; resolves to the moves completed. */
  play(match, deadline) {
    this.match = match;
    this.deadline = deadline;
    this.moves = 0;
    return new Promise((resolve) => {
      this.done = resolve;
      for (const seat of this.seats) seat.join(match);
    });
  }

  onState(seat, matchID, state) {
    if (this.match === null || matchID !== this.match.matchID || !state) return;
    if (state._stateID <= seat.stateID) return;
    seat.stateID = state._stateID;
    const now = performance.now();
    if (seat.pending !== null && state._stateID > seat.pending.stateID) {
      this.latencies.push(now - seat.pending.sent);
      this.moves += 1;
      seat.pending = null;
    }
    const over = state.ctx.gameover !== undefined;
    if (over) {
      this.match.finished = true;
    } else if (
      state.ctx.currentPlayer === seat.playerID &&
      seat.pending === null &&
      now < this.deadline
    ) {
      this.move(seat, state, now);
      return;
    }
    // Over, or out of time: once every move sent has reached its mover.
    if ((over || now >= this.deadline) && this.seats.every((s) => s.pending === null)) {
      this.finish();
    }
  }

  move(seat, state, now) {
    const hand = state.G.hand;
    const tile = hand[Math.floor(Math.random() * hand.length)];
    seat.pending = { stateID: state._stateID, sent: now };
    const action = {
      type: 'MAKE_MOVE',
      payload: {
        type: 'play',
        args: [tile],
        playerID: seat.playerID,
        credentials: this.match.credentials[Number(seat.playerID)],
      },
    };
    seat.socket.emit('update', action, state._stateID, this.match.matchID, seat.playerID);
  }

  finish() {
    const done = this.done;
    if (done === null) return;
    this.done = null;
    this.match = null;
    done(this.moves);
  }
}

async function window(seconds, inflight) {
  const playing = slots.slice(0, inflight);
  const latencies = [];
  for (const slot of playing) slot.latencies = latencies;
  const createdBefore = createdInline;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  let stuck;
  const timeout = new Promise((_, reject) => {
    stuck = setTimeout(
      () => reject(new Error('a window did not end: the server stopped answering')),
      seconds * 1000 + STUCK_MS,
    );
  });
  const loops = playing.map(async (slot) => {
    let moves = 0;
    while (performance.now() < deadline) {
      const match = await take();
      moves += await slot.play(match, deadline);
      if (!match.finished) ready.unshift(match); // the rest is played next window
    }
    return moves;
  });
  const counts = await Promise.race([Promise.all(loops), timeout]);
  clearTimeout(stuck);
  const elapsed = (performance.now() - start) / 1000;
  return {
    moves: counts.reduce((a, b) => a + b, 0),
    seconds: elapsed,
    latencies_ms: latencies.map((x) => Math.round(x * 1000) / 1000),
    created_inline: createdInline - createdBefore,
  };
}

const slots = [];

async function main() {
  for (let i = 0; i < inFlight; i += 1) slots.push(new Slot([]));
  await Promise.all(slots.flatMap((slot) => slot.seats.map((seat) => seat.connected())));
  reply({ ready: slots.length * SEATS });
  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    const command = JSON.parse(line);
    if (command.cmd === 'prepare') {
      await prepare(command.matches);
      reply({ prepared: ready.length });
    } else if (command.cmd === 'window') {
      reply(await window(command.seconds, command.inflight));
    } else if (command.cmd === 'quit') {
      break;
    }
  }
  for (const slot of slots) for (const seat of slot.seats) seat.socket.close();
  process.exit(0);
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
