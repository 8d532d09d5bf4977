-- KEYS: head, seats. ARGV: seat, claim. Missing head -> -1, taken -> 0, won -> 1.
-- A new seats hash inherits the head's expiry so the match still expires whole;
-- claiming is not a commit and does not extend the match's life.

if redis.call('EXISTS', KEYS[1]) == 0 then
  return -1
end
local won = redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2])
if won == 1 then
  local pttl = redis.call('PTTL', KEYS[1])
  if pttl > 0 then
    redis.call('PEXPIRE', KEYS[2], pttl)
  end
end
return won
