-- KEYS: settled matches (hash), the game's ratings (hash), the game's
-- leaderboard (sorted set), then one recent-results list per player, in the
-- order of the players in ARGV. ARGV: match id, now (Unix ms), recent results
-- kept, player count, then per player: subject, expected rating ("-" for
-- none, else "=" and the document), new rating document, leaderboard score,
-- result document. Reply: "duplicate" when the match was settled before,
-- "conflict" (nothing written) when a player's rating is not the expected
-- one, else "settled" with every write done and the match marked settled.

if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  return 'duplicate'
end
local count = tonumber(ARGV[4])
for i = 0, count - 1 do
  local base = 5 + i * 5
  local current = redis.call('HGET', KEYS[2], ARGV[base])
  local expected = ARGV[base + 1]
  if expected == '-' then
    if current then return 'conflict' end
  elseif current ~= string.sub(expected, 2) then
    return 'conflict'
  end
end
local keep = tonumber(ARGV[3])
for i = 0, count - 1 do
  local base = 5 + i * 5
  redis.call('HSET', KEYS[2], ARGV[base], ARGV[base + 2])
  redis.call('ZADD', KEYS[3], tonumber(ARGV[base + 3]), ARGV[base])
  redis.call('LPUSH', KEYS[4 + i], ARGV[base + 4])
  redis.call('LTRIM', KEYS[4 + i], 0, keep - 1)
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 'settled'
