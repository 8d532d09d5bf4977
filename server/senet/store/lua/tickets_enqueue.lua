-- KEYS: tickets (hash id -> document), locks (hash lock -> ticket id), ticket
-- locks (hash id -> lock), queue by age (sorted set), queue by rating (sorted
-- set), expiries (sorted set). ARGV: ticket id, lock ("<subject>|<game>"),
-- document, rating, creation (Unix ms), expiry (Unix ms). Reply: the id of the
-- ticket holding the lock: this one, queued now, or the one that held it.

local holder = redis.call('HGET', KEYS[2], ARGV[2])
if holder then
  return holder
end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('ZADD', KEYS[4], tonumber(ARGV[5]), ARGV[1])
redis.call('ZADD', KEYS[5], tonumber(ARGV[4]), ARGV[1])
redis.call('ZADD', KEYS[6], tonumber(ARGV[6]), ARGV[1])
return ARGV[1]
