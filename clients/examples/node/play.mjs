// A Senet client in Node.js, written from proto/ alone (see docs/protocol.md).
//
// It creates a two-player Mykerinos match against a bot, joins the open seat,
// watches the match as a spectator while playing it to the end over a compact
// PlayMatch stream (a random legal action each turn), decodes the details of an
// error the server returns on purpose, verifies the seed commitment from the
// export, and asks for a rematch.
//
//   npm ci && node play.mjs [host:port]      (default 127.0.0.1:50051)
//
// Then, in every game, it does what a client usually does: each seat joins and
// opens its PlayMatch stream at once, before the match has started; the start
// reaches every waiting stream as a snapshot (started: true) with the turn of
// the seats that must decide, and the seats play a few moves.
//
// It prints one JSON line with what it saw and exits 0 when every check held.

import { createHash, randomBytes, randomUUID } from "node:crypto";
import { join } from "node:path";

import * as grpc from "@grpc/grpc-js";
import { getProtoPath } from "google-proto-files";
import protobuf from "protobufjs";

import { loadSenet, target } from "./senet.mjs";

const senet = loadSenet(["senet/v1/match_service.proto"]);
// The error details: google/rpc/status.proto and error_details.proto from
// googleapis, here through the npm package google-proto-files, read with protobufjs.
const rpc = new protobuf.Root();
rpc.resolvePath = (_origin, file) => join(getProtoPath(".."), file);
rpc.loadSync(["google/rpc/status.proto", "google/rpc/error_details.proto"]);
const Status = rpc.lookupType("google.rpc.Status");

const client = new senet.MatchService(target, grpc.credentials.createInsecure());

function call(method, request, token) {
  const metadata = new grpc.Metadata();
  if (token) metadata.set("authorization", `Bearer ${token}`);
  return new Promise((resolve, reject) => {
    client[method](request, metadata, { deadline: Date.now() + 10_000 }, (error, reply) =>
      error ? reject(error) : resolve(reply),
    );
  });
}

// The ErrorInfo (and RetryInfo) a failed call carries in grpc-status-details-bin.
function errorDetails(error) {
  const [raw] = error.metadata?.get("grpc-status-details-bin") ?? [];
  if (!raw) return null;
  const status = Status.decode(raw);
  const found = { code: status.code, message: status.message };
  for (const any of status.details) {
    const type = any.type_url.split("/").pop(); // "google.rpc.ErrorInfo"
    found[type] = rpc.lookupType(type).toObject(rpc.lookupType(type).decode(any.value));
  }
  return found;
}

function watchToTheEnd(matchId) {
  return new Promise((resolve, reject) => {
    let updates = 0;
    let status = "";
    let from = 0; // the snapshot's version: the updates follow it
    const stream = client.WatchMatch({ match_id: matchId });
    stream.on("data", (message) => {
      if (message.snapshot) from = Number(message.snapshot.match.version);
      if (message.update) {
        updates += 1;
        status = message.update.status;
      }
    });
    stream.on("end", () => resolve({ updates, status, from }));
    stream.on("error", reject);
  });
}

// A compact stream (hello.compact): one message per committed action. The prompt
// rides on the update at whose version the seat must decide (`turn`), and the
// update of our own submission is its reply (`request_id` set).
function playToTheEnd(matchId, token) {
  return new Promise((resolve, reject) => {
    const metadata = new grpc.Metadata();
    metadata.set("authorization", `Bearer ${token}`);
    const stream = client.PlayMatch(metadata);
    const sent = new Set();
    let moves = 0;
    let errors = 0;
    let unknownReplies = 0;
    let status = "";
    stream.on("data", (message) => {
      let turn = message.turn; // null unless it rides on this snapshot or update
      switch (message.message) {
        case "your_turn": // alone: on resuming, or after a refused submission
          turn = message.your_turn;
          break;
        case "update":
          status = message.update.status;
          if (message.request_id) {
            if (sent.delete(message.request_id)) moves += 1;
            else unknownReplies += 1;
          }
          break;
        case "submitted": // only for a request id sent again (a duplicate)
          status = message.submitted.status;
          break;
        case "error":
          errors += 1; // e.g. STALE_VERSION after a race; a new prompt follows
          break;
        default:
          break;
      }
      if (turn) {
        const { actions, version } = turn;
        const choice = actions[Math.floor(Math.random() * actions.length)];
        const requestId = randomUUID();
        sent.add(requestId);
        stream.write({
          submit: {
            match_id: matchId,
            notation: choice.notation,
            expected_version: version,
            request_id: requestId,
          },
        });
      }
    });
    // The server ends the stream once the match is over.
    stream.on("end", () => {
      stream.end();
      resolve({ moves, errors, status, unanswered: sent.size, unknownReplies });
    });
    stream.on("error", reject);
    stream.write({ hello: { match_id: matchId, compact: true } });
  });
}

// A seat's compact stream, opened as soon as the seat has joined: it reports the
// snapshots it gets and plays a random legal action whenever it is prompted,
// until `stop` is called.
function openSeatStream(matchId, token, seat, onMove) {
  const metadata = new grpc.Metadata();
  metadata.set("authorization", `Bearer ${token}`);
  const stream = client.PlayMatch(metadata);
  const seen = { seat, snapshots: [], prompts: 0, failed: null };
  let resolveStart;
  let resolveFirst;
  seen.started = new Promise((resolve) => (resolveStart = resolve));
  seen.first = new Promise((resolve) => (resolveFirst = resolve));
  stream.on("data", (message) => {
    let turn = message.turn;
    if (message.message === "snapshot") {
      const { started, deciding_seats: deciding } = message.snapshot.match;
      seen.snapshots.push({ started, deciding, turn: Boolean(turn) });
      resolveFirst();
      if (started) resolveStart({ deciding, turn: Boolean(turn) });
    }
    if (message.message === "your_turn") turn = message.your_turn;
    if (message.message === "update" && message.request_id) onMove();
    if (turn) {
      seen.prompts += 1;
      const choice = turn.actions[Math.floor(Math.random() * turn.actions.length)];
      stream.write({
        submit: {
          match_id: matchId,
          notation: choice.notation,
          expected_version: turn.version,
          request_id: randomUUID(),
        },
      });
    }
  });
  stream.on("error", (error) => {
    if (error.code !== grpc.status.CANCELLED) seen.failed = error.message;
  });
  stream.write({ hello: { match_id: matchId, compact: true } });
  seen.stop = () => stream.cancel();
  return seen;
}

function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// One match of open seats: every seat but the last joins and opens its stream
// while the match waits; the last join starts it. Whoever decides first is the
// fair deal's choice, so a match whose first turn went to the last joiner alone
// proves nothing about waiting streams: another is dealt then.
async function streamsOpenedBeforeTheStart(gameId, seatCount) {
  for (let attempt = 1; attempt <= 20; attempt += 1) {
    // Unlisted: out of the lobby, so no stranger takes one of its open seats.
    const created = await call("CreateMatch", {
      game_id: gameId,
      seats: Array.from({ length: seatCount }, () => ({ kind: "SEAT_KIND_OPEN" })),
      unlisted: true,
    });
    const matchId = created.match_id;
    let moves = 0;
    let enoughMoves;
    const played = new Promise((resolve) => (enoughMoves = resolve));
    const onMove = () => {
      moves += 1;
      if (moves >= 4) enoughMoves();
    };
    const streams = [];
    let waitingOk = true;
    for (let seat = 0; seat < seatCount - 1; seat += 1) {
      const joined = await call("JoinMatch", {
        match_id: matchId, seat, display_name: `node ${seat}`, entropy: randomBytes(8).toString("hex"),
      });
      waitingOk &&= !joined.match.started;
      const seen = openSeatStream(matchId, joined.token, seat, onMove);
      streams.push(seen);
      // The stream has shown the waiting match before the next seat joins.
      await withTimeout(seen.first, 10_000, `first snapshot on ${gameId}`);
    }
    const last = await call("JoinMatch", {
      match_id: matchId, seat: seatCount - 1, display_name: "node last",
      entropy: randomBytes(8).toString("hex"),
    });
    const deciding = last.match.deciding_seats;
    const starts = await withTimeout(
      Promise.all(streams.map((seen) => seen.started)), 10_000, `start on ${gameId}`,
    );
    const waiting = streams.map((seen) => seen.snapshots[0]);
    const lobby = await call("ListMatches", { game_id: gameId, page_size: 200 });
    const check = {
      attempt,
      unlisted: last.match.unlisted === true && !lobby.matches.some((m) => m.match_id === matchId),
      startedOnJoin: last.match.started === true && waitingOk,
      waitingSnapshots: waiting.every((snap) => snap && !snap.started && snap.deciding.length === 0),
      startsAgree: starts.every((start) => start.deciding.join() === deciding.join()),
      // A waiting stream of a deciding seat gets its turn with the start, no other.
      promptedAtStart: starts.every((start, seat) => start.turn === deciding.includes(seat)),
    };
    if (!streams.some((seen) => deciding.includes(seen.seat))) {
      streams.forEach((seen) => seen.stop());
      continue; // only the last joiner decides first: deal another match
    }
    // The last seat plays too, so the match moves whoever's turn comes.
    streams.push(openSeatStream(matchId, last.token, seatCount - 1, onMove));
    await withTimeout(played, 30_000, `moves on ${gameId}`);
    streams.forEach((seen) => seen.stop());
    check.moves = moves;
    check.ok =
      check.unlisted && check.startedOnJoin && check.waitingSnapshots && check.startsAgree &&
      check.promptedAtStart && streams.every((seen) => seen.failed === null);
    return check;
  }
  return { ok: false, reason: "the first turn always went to the last joiner" };
}

async function main() {
  const checks = {};
  const games = await call("ListGames", {});
  const mykerinos = games.games.find((game) => game.id === "mykerinos");
  checks.hostsMykerinos = mykerinos !== undefined;

  const created = await call("CreateMatch", {
    game_id: "mykerinos",
    seats: [{ kind: "SEAT_KIND_OPEN" }, { kind: "SEAT_KIND_BOT", bot_strategy: "random" }],
  });
  const matchId = created.match_id;
  const commitment = created.match.seed_commitment;
  // This seat's share of the deal: the server alone cannot aim it.
  const entropy = randomBytes(16).toString("hex");
  const joined = await call("JoinMatch", { match_id: matchId, display_name: "node", entropy });

  // An error on purpose: acting on a version that does not exist.
  try {
    await call(
      "SubmitAction",
      { match_id: matchId, notation: "pass", expected_version: "999", request_id: randomUUID() },
      joined.token,
    );
    checks.staleRefused = false;
  } catch (error) {
    const details = errorDetails(error);
    const info = details?.["google.rpc.ErrorInfo"];
    checks.staleRefused = error.code === grpc.status.ABORTED && info?.reason === "STALE_VERSION";
    checks.errorFacts = info?.metadata ?? {};
  }

  const [watched, played] = await Promise.all([
    watchToTheEnd(matchId),
    playToTheEnd(matchId, joined.token),
  ]);
  checks.finished = played.status === "MATCH_STATUS_FINISHED" && watched.status === played.status;
  // Every submission was answered by its own update, and no other.
  checks.everyMoveAnswered = played.moves > 0 && played.unanswered === 0 && played.unknownReplies === 0;

  const exported = await call("ExportMatch", { match_id: matchId });
  const opened = createHash("sha256")
    .update(`${exported.seed_salt}:${exported.seed}`, "utf8")
    .digest("hex");
  checks.commitmentVerified = opened === commitment && exported.seed_commitment === commitment;
  // The deal: SHA-256 of "<seed>:<entropy of seat 0>:...", first 8 bytes big-endian.
  const dealt = createHash("sha256")
    .update([exported.seed, ...exported.seat_entropy].join(":"), "utf8")
    .digest()
    .readBigUInt64BE(0)
    .toString();
  checks.dealVerified =
    !exported.seed_chosen &&
    exported.seat_entropy[joined.seat] === entropy &&
    exported.dealt_seed === dealt;
  checks.everyUpdateWatched = watched.from + watched.updates === exported.actions.length;
  // Replay only under the rules the match was played under: the version it was
  // dealt under, and each action's.
  const rulesVersion = {
    server: mykerinos?.rules_version,
    match: exported.rules_version,
    actions: [...new Set(exported.actions.map((action) => action.rules_version))],
  };
  checks.rulesRecorded =
    rulesVersion.server >= 1 &&
    rulesVersion.match === rulesVersion.server &&
    rulesVersion.actions.every((version) => version === rulesVersion.server);

  // The same table again: the rematch moves this seat on by one, beside the same
  // bot; asking again answers the same seat and token, and the finished match
  // names its rematch. Then this seat resigns it (the server plays it out).
  const asked = { match_id: matchId, entropy: randomBytes(16).toString("hex") };
  const rematch = await call("RequestRematch", asked, joined.token);
  const retried = await call("RequestRematch", asked, joined.token);
  const finished = await call("GetMatch", { match_id: matchId });
  checks.rematch =
    rematch.match_id !== matchId &&
    rematch.seat === (joined.seat + 1) % 2 &&
    rematch.match.started === true &&
    rematch.match.seats[joined.seat].bot_strategy === "random" &&
    retried.token === rematch.token &&
    finished.rematch_match_id === rematch.match_id &&
    rematch.match.rematch_of === matchId;
  // This seat's rematch has started: it is played or left, not declined.
  try {
    await call("DeclineRematch", { match_id: matchId }, joined.token);
    checks.startedRematchNotDeclined = false;
  } catch (error) {
    const info = errorDetails(error)?.["google.rpc.ErrorInfo"];
    checks.startedRematchNotDeclined =
      error.code === grpc.status.FAILED_PRECONDITION && info?.reason === "REMATCH_STARTED";
  }
  await call("LeaveMatch", { match_id: rematch.match_id }, rematch.token);

  const starts = {};
  for (const [gameId, seatCount] of [["mykerinos", 2], ["archeos", 2], ["marenostrum", 3]]) {
    starts[gameId] = await streamsOpenedBeforeTheStart(gameId, seatCount);
  }
  checks.promptedAfterWaiting = Object.values(starts).every((start) => start.ok === true);
  checks.starts = starts;

  const ok = Object.entries(checks).every(
    ([key, value]) => key === "errorFacts" || key === "starts" || value === true,
  );
  console.log(
    JSON.stringify({
      ok,
      matchId,
      seat: joined.seat,
      ...played,
      watched: watched.updates,
      rulesVersion,
      checks,
    }),
  );
  client.close();
  process.exitCode = ok ? 0 : 1;
}

main().catch((error) => {
  console.error(`failed: ${error.message ?? error}`);
  client.close();
  process.exitCode = 2;
});
