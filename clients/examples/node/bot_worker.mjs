// A remote bot for the Senet ladder in Node.js, written from proto/ alone.
//
// It signs up as a guest (PlayerService.RegisterGuest), or uses the identity
// token in SENET_IDENTITY (the operator's provider's, which a server with an
// admin key asks for; the same owner and name keep the same bot and rating from
// run to run, where a new guest each run registers a new bot), registers a bot
// for a game (LadderService.RegisterBot) and keeps the bot key it is handed. Then it
// works as any bot worker does, in any language: it leases its bot's decisions
// over BotService with the key as "x-senet-bot-key" metadata, plays each one
// with the seat token of the decision (a random legal action, submitted at the
// decision's version), and releases it. A worker that stops is handled by the
// match's clock, and the ladder benches the bot after repeated timeouts (for a
// rest: the same key plays again once it is over). A bot of a new guest is
// retired when the worker stops (LadderService.RetireBot with its own key):
// nobody could play it again.
//
//   npm ci && node bot_worker.mjs [host:port] [--game mykerinos] [--name node-random]
//                                 [--seconds N]   (default: run until interrupted)
//
// It prints one JSON line when it stops: the bot's id and subject, the moves made,
// and whether it retired the bot.
// It stops with status 2 when the server refuses its key (the bot registered again
// elsewhere), as retrying cannot help.

import { randomUUID } from "node:crypto";

import * as grpc from "@grpc/grpc-js";

import { loadSenet, option, target } from "./senet.mjs";

const game = option("game", "mykerinos");
const name = option("name", "node-random");
const seconds = Number(option("seconds", "0"));

const senet = loadSenet([
  "senet/v1/match_service.proto",
  "senet/v1/bot_service.proto",
  "senet/v1/player_service.proto",
  "senet/v1/ladder_service.proto",
]);
const credentials = grpc.credentials.createInsecure();
const services = {
  match: new senet.MatchService(target, credentials),
  bots: new senet.BotService(target, credentials),
  players: new senet.PlayerService(target, credentials),
  ladder: new senet.LadderService(target, credentials),
};

function call(service, method, request, headers = {}) {
  const metadata = new grpc.Metadata();
  for (const [key, value] of Object.entries(headers)) metadata.set(key, value);
  return new Promise((resolve, reject) => {
    services[service][method](request, metadata, { deadline: Date.now() + 40_000 }, (error, reply) =>
      error ? reject(error) : resolve(reply),
    );
  });
}

const identity = process.env.SENET_IDENTITY
  || (await call("players", "RegisterGuest", { display_name: "node author" })).identity_token;
const registered = await call(
  "ladder", "RegisterBot", { name, game_ids: [game] }, { "x-senet-identity": identity },
);
const botKey = { "x-senet-bot-key": registered.bot_key };
const workerId = `node-${randomUUID().slice(0, 8)}`;
let moves = 0;
let stopping = false;
process.on("SIGTERM", () => { stopping = true; });
process.on("SIGINT", () => { stopping = true; });
if (seconds > 0) setTimeout(() => { stopping = true; }, seconds * 1000);

async function play(decision) {
  const seat = { authorization: `Bearer ${decision.token}` };
  try {
    const legal = await call("match", "ListLegalActions", { match_id: decision.match_id }, seat);
    if (legal.version === decision.version && legal.actions.length > 0) {
      const pick = legal.actions[Math.floor(Math.random() * legal.actions.length)];
      await call("match", "SubmitAction", {
        match_id: decision.match_id,
        notation: pick.notation,
        expected_version: decision.version,
        request_id: `node-${decision.seat}-${decision.version}`,
      }, seat);
      moves += 1;
    }
  } catch (error) {
    // The match moved on, or the lease was lost: the release below settles it.
  }
  const ref = { match_id: decision.match_id, seat: decision.seat, version: decision.version };
  await call("bots", "ReleaseBotDecisions", { worker_id: workerId, decisions: [ref] }, botKey).catch(() => {});
}

// A refused key never works again (registering the bot again replaces it): stop and
// say so. Anything else (a server restarting, a store outage) is worth another try.
const REFUSED = [grpc.status.UNAUTHENTICATED, grpc.status.PERMISSION_DENIED];
let refused = false;
while (!stopping) {
  let got;
  try {
    got = await call("bots", "AcquireBotDecisions",
      { worker_id: workerId, capacity: 4, lease_ms: 5000, wait_ms: 1000 }, botKey);
  } catch (error) {
    if (REFUSED.includes(error.code)) {
      console.error(`the server refuses this bot's key: ${error.details}`);
      refused = true;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    continue;
  }
  await Promise.all(got.decisions.map(play));
}
let retired = false;
let retiredMs = "0";
if (!refused && !process.env.SENET_IDENTITY) {
  await call("ladder", "RetireBot", {}, botKey).then(() => { retired = true; }, (error) => {
    console.error(`could not retire the bot: ${error.details}`);
  });
  // Its page stays: GetBot answers a retired bot too (no credentials needed).
  const got = await call("ladder", "GetBot", { bot_id: registered.bot.bot_id });
  retiredMs = got.retired_ms;
}
console.log(JSON.stringify({
  bot_id: registered.bot.bot_id, subject: registered.bot.subject, moves, retired,
  retired_ms: retiredMs,
}));
process.exit(refused ? 2 : 0);
