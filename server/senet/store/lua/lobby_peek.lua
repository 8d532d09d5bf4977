-- KEYS: meta, seats, head. Missing head or meta -> nil; else {meta, seats (flat),
-- version, status, head's remaining TTL in ms (-1: none)}: what the lobby shows,
-- without the snapshot.

local head = redis.call('HMGET', KEYS[3], 'version', 'status')
if not head[1] then
  return false
end
local meta = redis.call('GET', KEYS[1])
if not meta then
  return false
end
return {meta, redis.call('HGETALL', KEYS[2]), head[1], head[2], redis.call('PTTL', KEYS[3])}
