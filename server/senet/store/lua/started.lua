-- KEYS: meta, seats, head. ARGV: idle ttl ms (0 = no expiry). A waiting match
-- has started: its keys get the idle ttl (log, req and events do not exist
-- before the first commit, which renews every key). Missing head -> 0, else 1.

if redis.call('EXISTS', KEYS[3]) == 0 then
  return 0
end
local ttl = tonumber(ARGV[1])
for i = 1, #KEYS do
  if ttl > 0 then
    redis.call('PEXPIRE', KEYS[i], ttl)
  else
    redis.call('PERSIST', KEYS[i])
  end
end
return 1
