-- Bot-seat queue. KEYS: due, owner, strategy (see bot_enqueue.lua).
-- ARGV: worker, lease ms, now ms, member... -> the members still owned by the
-- worker, their leases renewed.

local until_ms = tonumber(ARGV[3]) + tonumber(ARGV[2])
local out = {}
for i = 4, #ARGV do
  if redis.call('HGET', KEYS[2], ARGV[i]) == ARGV[1]
      and redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    redis.call('ZADD', KEYS[1], until_ms, ARGV[i])
    table.insert(out, ARGV[i])
  end
end
return out
