-- Bot-seat queue. KEYS: due (zset, member "<match>:<seat>" -> free-at ms),
-- owner (hash, member -> worker id), strategy (hash, member -> strategy name).
-- ARGV: member, strategy. Queues the seat, free at once, owned by nobody -> 1.

redis.call('ZADD', KEYS[1], 0, ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
return 1
