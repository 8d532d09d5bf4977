-- KEYS: lobby deadlines (sorted set). ARGV: now (Unix ms), then pairs of match
-- id and new deadline (Unix ms; 0: none). Each entry checked and found alive
-- gets its match's own expiry as its new deadline, unless a lobby write set a
-- newer one meanwhile (its deadline is then in the future). Reply: 1.

local now = tonumber(ARGV[1])
for i = 2, #ARGV, 2 do
  local current = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if current and tonumber(current) <= now then
    if tonumber(ARGV[i + 1]) > 0 then
      redis.call('ZADD', KEYS[1], tonumber(ARGV[i + 1]), ARGV[i])
    else
      redis.call('ZREM', KEYS[1], ARGV[i])
    end
  end
end
return 1
