// What the examples share: the Senet protos, loaded from proto/ at the repository's
// top (a third party would point this at its own copy), and the command line.

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";

const here = dirname(fileURLToPath(import.meta.url));
export const PROTO_DIR = join(here, "..", "..", "..", "proto");

// uint64 fields (versions, seeds) exceed 2^53: decode them as decimal strings,
// or a seed loses digits and the commitment check fails.
const LOAD_OPTIONS = { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true };

/** The senet.v1 package of the given files (paths below proto/). */
export function loadSenet(files) {
  return grpc.loadPackageDefinition(protoLoader.loadSync(files, { ...LOAD_OPTIONS, includeDirs: [PROTO_DIR] }))
    .senet.v1;
}

/** The value after `--name` on the command line, or `fallback`. */
export function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
}

/** The server: the first argument unless it is an option, else 127.0.0.1:50051. */
export const target =
  process.argv[2] && !process.argv[2].startsWith("--") ? process.argv[2] : "127.0.0.1:50051";
