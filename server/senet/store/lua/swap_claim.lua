-- KEYS: head, seats, events. ARGV: seat, expected claim, new claim ('' removes
-- it: the seat reopens). Missing head -> -1; the seat's claim is not the
-- expected one -> 0; a removal in a match that has started (its events stream
-- holds the start or a commit, see claim.lua) -> 2; else the claim is replaced
-- or removed (the seats hash keeps the head's expiry) -> 1.

if redis.call('EXISTS', KEYS[1]) == 0 then
  return -1
end
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then
  return 0
end
if ARGV[3] == '' then
  if redis.call('EXISTS', KEYS[3]) == 1 then
    return 2
  end
  redis.call('HDEL', KEYS[2], ARGV[1])
else
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
  local pttl = redis.call('PTTL', KEYS[1])
  if pttl > 0 then
    redis.call('PEXPIRE', KEYS[2], pttl)
  end
end
return 1
