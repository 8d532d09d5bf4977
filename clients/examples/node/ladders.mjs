// The ladders of a Senet server from Node.js: LadderService.ListLadders written
// from proto/ alone (see the "Ladders" section of docs/protocol.md).
//
// It reads every page of the index (page_size, next_page_token sent back as
// page_token with the same game filter), then checks that each listed id is
// the one GetLadder answers for, and that a page size over the limit is refused
// with INVALID_ARGUMENT.
//
//   npm ci && node ladders.mjs [host:port] [--game mykerinos] [--page-size 20]
//
// It prints one JSON line (each ladder's id, game, seats, state, clock, counts
// and leader) and exits 0 when every check held.

import * as grpc from "@grpc/grpc-js";

import { loadSenet, option, target } from "./senet.mjs";

const game = option("game", "");
const pageSize = Number(option("page-size", "20"));

const senet = loadSenet(["senet/v1/ladder_service.proto"]);
const ladder = new senet.LadderService(target, grpc.credentials.createInsecure());

function unary(method, request) {
  return new Promise((resolve, reject) => {
    ladder[method](request, new grpc.Metadata(), { deadline: Date.now() + 10_000 }, (error, reply) =>
      error ? reject(error) : resolve(reply),
    );
  });
}

// Every page, until the token comes back empty. A refused call (an unknown
// game, say) is reported as the JSON line too, with its status code.
const ladders = [];
let pages = 0;
let total = 0;
let token = "";
try {
  do {
    const page = await unary("ListLadders", { game_id: game, page_size: pageSize, page_token: token });
    pages += 1;
    total = page.total;
    ladders.push(...page.ladders);
    token = page.next_page_token;
  } while (token);
} catch (error) {
  console.log(JSON.stringify({ ok: false, code: grpc.status[error.code], error: error.details }));
  process.exit(1);
}

// The id is the link: GetLadder answers for it with the same settings.
let linked = true;
for (const summary of ladders) {
  const got = await unary("GetLadder", { ladder_id: summary.ladder_id, recent: 1 });
  linked &&= got.ladder_id === summary.ladder_id && got.spec.seat_count === summary.spec.seat_count;
}

let malformedRefused = false;
try {
  await unary("ListLadders", { page_size: 101 });
} catch (error) {
  malformedRefused = error.code === grpc.status.INVALID_ARGUMENT;
}

const sorted = ladders.every((s, i) => i === 0 || ladders[i - 1].ladder_id < s.ladder_id);
const report = {
  ok: linked && malformedRefused && sorted && ladders.length === total,
  pages,
  total,
  checks: { linked, malformedRefused, sorted },
  ladders: ladders.map((s) => {
    const leader = s.leaders.find((row) => row.matches > 0);
    return {
      ladder_id: s.ladder_id,
      game_id: s.spec.game_id,
      seat_count: s.spec.seat_count,
      state: s.state,
      decision_ms: s.spec.decision_ms,
      in_flight: s.in_flight,
      max_in_flight: s.spec.max_in_flight,
      active_bots: s.active_bots,
      bots: s.bots,
      matches_played: Number(s.matches_played),
      leader: leader ? { name: leader.bot.name, rating: leader.rating.conservative } : null,
    };
  }),
};
console.log(JSON.stringify(report));
ladder.close();
process.exit(report.ok ? 0 : 1);
