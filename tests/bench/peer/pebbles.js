'use strict';
/**
 * Pebbles for boardgame.io: the rules of Senet's test-suite game
 * (tests/pebbles/core/), written the way a boardgame.io game is, so that the
 * peer benchmark compares the two servers on the same game.
 *
 * Each seat holds a hidden hand of numbered pebbles drawn from a shuffled bag.
 * On its turn a seat plays one pebble on the shared pile: higher than the pile's
 * top scores its value; anything else knocks the pile down (top back to 0) and
 * scores nothing. The seat then draws a pebble while the bag has any. The match
 * ends when every hand is empty; the highest score wins.
 *
 * Drawing needs the hidden bag, so the move runs on the server only
 * (`client: false`), and `playerView` shows each seat its own hand alone.
 */
const { INVALID_MOVE } = require('boardgame.io/core');

const VALUES = 8;
const COPIES = 3;
const HAND_SIZE = 3;

function insort(hand, tile) {
  let i = 0;
  while (i < hand.length && hand[i] <= tile) i += 1;
  hand.splice(i, 0, tile);
}

function nextSeat(G, seat) {
  const seats = G.hands.length;
  for (let step = 1; step <= seats; step += 1) {
    const candidate = (seat + step) % seats;
    if (G.hands[candidate].length > 0) return candidate;
  }
  return (seat + 1) % seats; // nobody holds a pebble: endIf has ended the match
}

function ranking(points) {
  return points.map((mine) => 1 + points.filter((other) => other > mine).length);
}

const Pebbles = {
  name: 'pebbles',
  minPlayers: 2,
  maxPlayers: 4,

  setup: ({ ctx, random }) => {
    const all = [];
    for (let value = 1; value <= VALUES; value += 1) {
      for (let copy = 0; copy < COPIES; copy += 1) all.push(value);
    }
    const bag = random.Shuffle(all);
    const hands = [];
    for (let seat = 0; seat < ctx.numPlayers; seat += 1) {
      hands.push(bag.splice(bag.length - HAND_SIZE, HAND_SIZE).sort((a, b) => a - b));
    }
    return { hands, bag, pile: [], top: 0, points: hands.map(() => 0) };
  },

  moves: {
    play: {
      move: ({ G, playerID }, tile) => {
        const seat = Number(playerID);
        const hand = G.hands[seat];
        const at = hand.indexOf(tile);
        if (!Number.isInteger(tile) || at < 0) return INVALID_MOVE;
        hand.splice(at, 1);
        G.pile.push(tile);
        if (tile > G.top) {
          G.points[seat] += tile;
          G.top = tile;
        } else {
          G.top = 0;
        }
        if (G.bag.length > 0) insort(hand, G.bag.pop());
        return undefined;
      },
      client: false,
    },
  },

  turn: {
    minMoves: 1,
    maxMoves: 1,
    order: {
      first: () => 0,
      next: ({ G, ctx }) => nextSeat(G, Number(ctx.currentPlayer)),
    },
  },

  endIf: ({ G }) =>
    G.hands.every((hand) => hand.length === 0)
      ? { scores: [...G.points], places: ranking(G.points) }
      : undefined,

  playerView: ({ G, playerID }) => ({
    hand: playerID === null || playerID === undefined ? null : [...G.hands[Number(playerID)]],
    handSizes: G.hands.map((hand) => hand.length),
    bagSize: G.bag.length,
    pile: [...G.pile],
    top: G.top,
    points: [...G.points],
  }),
};

module.exports = { Pebbles };
