-- Bot-decision queue. KEYS: due (zset, member "<match>:<seat>" -> free-at ms),
-- owner (hash, member -> worker id), info (hash, member -> "<version> <posted ms>
-- <strategy>"). ARGV: member, version, now ms, strategy, due ms. Queues the
-- seat's decision at that version, free at the due time, owned by nobody
-- (replacing any earlier entry of the seat and its lease) -> 1.

redis.call('ZADD', KEYS[1], ARGV[5], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2] .. ' ' .. ARGV[3] .. ' ' .. ARGV[4])
return 1
