-- KEYS: tickets (hash), queue by age (sorted set), queue by rating (sorted
-- set), expiries (sorted set), queued matches (hash). ARGV: kept until (Unix
-- ms), the match id, its queued-match record, ticket count, the ids, then their
-- matched documents in the same order. Reply: 0 with nothing changed when any
-- ticket is no longer queued (another replica placed it, it was cancelled or it
-- expired); else 1: every ticket left the queue, holds its matched document and
-- is kept until the given time, and the match's record is written.

local count = tonumber(ARGV[4])
for i = 1, count do
  if not redis.call('ZSCORE', KEYS[2], ARGV[4 + i]) then
    return 0
  end
end
for i = 1, count do
  local id = ARGV[4 + i]
  redis.call('ZREM', KEYS[2], id)
  redis.call('ZREM', KEYS[3], id)
  redis.call('HSET', KEYS[1], id, ARGV[4 + count + i])
  redis.call('ZADD', KEYS[4], tonumber(ARGV[1]), id)
end
redis.call('HSET', KEYS[5], ARGV[2], ARGV[3])
return 1
