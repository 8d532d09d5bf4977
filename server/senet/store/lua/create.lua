-- KEYS: meta, seats, head, log, req, events. ARGV: meta, snapshot, status, ttl_ms.
-- Existing meta or head -> 0; else the match is written at version 0 -> 1.
-- Leftovers of an expired match with the same id are deleted so the new match
-- starts clean.

if redis.call('EXISTS', KEYS[1], KEYS[3]) > 0 then
  return 0
end
redis.call('DEL', KEYS[2], KEYS[4], KEYS[5], KEYS[6])
redis.call('SET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[3], 'version', 0, 'snapshot', ARGV[2], 'status', ARGV[3])
local ttl = tonumber(ARGV[4])
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[1], ttl)
  redis.call('PEXPIRE', KEYS[3], ttl)
end
return 1
