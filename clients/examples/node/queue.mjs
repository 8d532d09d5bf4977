// Play now, rated, from Node.js: PlayerService written from proto/ alone (see
// the "Players, the queue and ratings" section of docs/protocol.md).
//
// It registers a guest identity, queues a rated ticket for a two-player
// Mykerinos match that bots may fill at once, follows the ticket until it is
// matched, plays its seat to the end over a compact PlayMatch stream (a random
// legal action each turn), then reads its rating from GetPlayer and finds
// itself on the leaderboard once the server has settled the match.
//
//   npm ci && node queue.mjs [host:port]      (default 127.0.0.1:50051)
//
// It prints one JSON line with what it saw and exits 0 when every check held.

import { randomUUID } from "node:crypto";

import * as grpc from "@grpc/grpc-js";

import { loadSenet, target } from "./senet.mjs";

const GAME = "mykerinos";

const senet = loadSenet(["senet/v1/match_service.proto", "senet/v1/player_service.proto"]);
const players = new senet.PlayerService(target, grpc.credentials.createInsecure());
const matches = new senet.MatchService(target, grpc.credentials.createInsecure());

function unary(client, method, request, headers = {}) {
  const metadata = new grpc.Metadata();
  for (const [key, value] of Object.entries(headers)) metadata.set(key, value);
  return new Promise((resolve, reject) => {
    client[method](request, metadata, { deadline: Date.now() + 10_000 }, (error, reply) =>
      error ? reject(error) : resolve(reply),
    );
  });
}

// FindMatch: every report until MATCHED, which carries the match, seat and token.
function findMatch(identity) {
  return new Promise((resolve, reject) => {
    const metadata = new grpc.Metadata();
    metadata.set("x-senet-identity", identity);
    const ticket = {
      game_id: GAME,
      min_seats: 2,
      max_seats: 2,
      mode: "MATCH_MODE_RATED",
      bot_fill_after_s: 0,
    };
    const stream = players.FindMatch({ ticket }, metadata);
    const stages = [];
    stream.on("data", (report) => {
      stages.push(report.stage);
      if (report.stage === "TICKET_STAGE_MATCHED") resolve({ report, stages });
    });
    stream.on("error", (error) => {
      if (error.code !== grpc.status.CANCELLED) reject(error);
    });
    stream.on("end", () => reject(new Error(`the stream ended unmatched: ${stages}`)));
  });
}

// A compact PlayMatch stream: a random legal action whenever prompted, to the end.
function playToTheEnd(matchId, token) {
  return new Promise((resolve, reject) => {
    const metadata = new grpc.Metadata();
    metadata.set("authorization", `Bearer ${token}`);
    const stream = matches.PlayMatch(metadata);
    let moves = 0;
    let status = "";
    stream.on("data", (message) => {
      let turn = message.turn;
      if (message.message === "your_turn") turn = message.your_turn;
      if (message.message === "update") {
        status = message.update.status;
        if (message.request_id) moves += 1;
      }
      if (turn) {
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
    stream.on("end", () => {
      stream.end();
      resolve({ moves, status });
    });
    stream.on("error", reject);
    stream.write({ hello: { match_id: matchId, compact: true } });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const guest = await unary(players, "RegisterGuest", { display_name: "Node" });
  const me = { "x-senet-identity": guest.identity_token };
  const { report, stages } = await findMatch(guest.identity_token);
  const played = await playToTheEnd(report.match_id, report.seat_token);
  // The server settles a rated match shortly after it ends (any replica).
  let page = null;
  for (let i = 0; i < 100; i += 1) {
    page = await unary(players, "GetPlayer", {}, me);
    if (page.ratings.some((r) => r.game_id === GAME && r.matches === 1)) break;
    await sleep(200);
  }
  const rating = page.ratings.find((r) => r.game_id === GAME);
  const board = await unary(players, "ListLeaderboard", { game_id: GAME, page_size: 100 });
  const onBoard = board.entries.some((e) => e.subject === guest.subject);
  // The lobby filtered on rated matches lists it; filtered on casual ones, not.
  const listed = async (rated) =>
    (await unary(matches, "ListMatches", { rated, page_size: 200 })).matches.find(
      (m) => m.match_id === report.match_id,
    );
  const checks = {
    queuedFirst: stages[0] === "TICKET_STAGE_QUEUED",
    rated: report.mode === "MATCH_MODE_RATED",
    finished: played.status === "MATCH_STATUS_FINISHED",
    ratedOnce: rating?.matches === 1,
    resultNamesTheMatch: page.recent[0]?.match_id === report.match_id,
    onTheLeaderboard: onBoard,
    inTheRatedLobby: (await listed(true))?.rated === true,
    notInTheCasualLobby: (await listed(false)) === undefined,
  };
  const ok = Object.values(checks).every(Boolean);
  console.log(
    JSON.stringify({
      ok,
      matchId: report.match_id,
      moves: played.moves,
      rating: rating?.rating,
      place: page.recent[0]?.place,
      checks,
    }),
  );
  process.exit(ok ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
