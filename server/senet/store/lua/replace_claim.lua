-- KEYS: head, seats. ARGV: seat, claim. Missing head -> 0; else the claim is
-- overwritten (the seats hash keeps the head's expiry) -> 1.

if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
local pttl = redis.call('PTTL', KEYS[1])
if pttl > 0 then
  redis.call('PEXPIRE', KEYS[2], pttl)
end
return 1
