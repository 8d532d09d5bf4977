'use strict';
/**
 * The boardgame.io server of the peer benchmark: `node server.js`.
 *
 * A stock boardgame.io Server (Koa, socket.io transport, in-memory store,
 * lobby API on the same port) hosting Pebbles, bound to 127.0.0.1 on a free
 * port. Prints `boardgame.io is serving on 127.0.0.1:PORT` once it listens,
 * which the benchmark waits for; stops on SIGTERM.
 */
const { Server } = require('boardgame.io/server');
const { Pebbles } = require('./pebbles');

const server = Server({ games: [Pebbles], origins: [] });
// Koa's listen binds every interface; the benchmark talks to loopback only.
const listen = server.app.listen.bind(server.app);
server.app.listen = (port, callback) => listen(port, '127.0.0.1', callback);

server.run(0).then(({ appServer }) => {
  const { address, port } = appServer.address();
  process.stdout.write(`boardgame.io is serving on ${address}:${port}\n`);
});

process.on('SIGTERM', () => process.exit(0));
