-- KEYS: tickets (hash), locks (hash), ticket locks (hash), queue by age
-- (sorted set), queue by rating (sorted set), expiries (sorted set). ARGV:
-- mode ("cancel": the ticket id follows; "expire": now in Unix ms and the
-- most tickets follow). A cancel drops the ticket if it is queued (reply 1,
-- else 0). An expiry drops every ticket past its expiry, up to the most
-- (reply: their ids). A queued ticket dropped frees the lock it holds; a
-- matched one keeps it until its match is released (players_release).

local function drop(id)
  local queued = redis.call('ZSCORE', KEYS[4], id)
  local lock = redis.call('HGET', KEYS[3], id)
  if queued and lock and redis.call('HGET', KEYS[2], lock) == id then
    redis.call('HDEL', KEYS[2], lock)
  end
  redis.call('HDEL', KEYS[1], id)
  redis.call('HDEL', KEYS[3], id)
  redis.call('ZREM', KEYS[4], id)
  redis.call('ZREM', KEYS[5], id)
  redis.call('ZREM', KEYS[6], id)
end

if ARGV[1] == 'cancel' then
  if not redis.call('ZSCORE', KEYS[4], ARGV[2]) then
    return 0
  end
  drop(ARGV[2])
  return 1
end
local due = redis.call('ZRANGEBYSCORE', KEYS[6], '-inf', ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(due) do
  drop(id)
end
return due
