-- KEYS: head, seats, meta, events. ARGV: seat, claim, idle ttl ms (0 = no
-- expiry), then the seats whose claims start the match (its open seats; none:
-- this claim starts nothing). Missing head -> -1, taken -> 0, won -> 1, won and
-- the match started with it -> 2.
--
-- The start is written here, with the claim that completes the open seats, as
-- entry 0-1 of the events stream: it wakes every watcher of the match on every
-- replica, and swap_claim.lua refuses to reopen a seat once it (or any commit)
-- is there, so reopening and starting exclude each other. A started match's
-- keys get the idle ttl; a new seats hash otherwise inherits the head's expiry
-- (claiming is not a commit and does not extend a waiting match's life).

if redis.call('EXISTS', KEYS[1]) == 0 then
  return -1
end
local won = redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2])
if won == 0 then
  return 0
end
local starts = #ARGV > 3
for i = 4, #ARGV do
  if redis.call('HEXISTS', KEYS[2], ARGV[i]) == 0 then
    starts = false
    break
  end
end
if starts and redis.call('EXISTS', KEYS[4]) == 0 then
  redis.call('XADD', KEYS[4], '0-1', 's', '1')
  local ttl = tonumber(ARGV[3])
  for i = 1, 4 do
    if ttl > 0 then
      redis.call('PEXPIRE', KEYS[i], ttl)
    else
      redis.call('PERSIST', KEYS[i])
    end
  end
  return 2
end
local pttl = redis.call('PTTL', KEYS[1])
if pttl > 0 then
  redis.call('PEXPIRE', KEYS[2], pttl)
end
return 1
