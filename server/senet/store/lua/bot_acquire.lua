-- Bot-decision queue. KEYS: due, owner, info (see bot_post.lua).
-- ARGV: worker, capacity, lease ms, now ms. Takes up to capacity due entries,
-- pushes their free-at past the lease and sets their owner -> flat {member,
-- info, expires ms}...

local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[4], 'LIMIT', 0, ARGV[2])
local until_ms = tonumber(ARGV[4]) + tonumber(ARGV[3])
local out = {}
for _, member in ipairs(due) do
  redis.call('ZADD', KEYS[1], until_ms, member)
  redis.call('HSET', KEYS[2], member, ARGV[1])
  table.insert(out, member)
  table.insert(out, redis.call('HGET', KEYS[3], member) or '0 0 ')
  table.insert(out, tostring(until_ms))
end
return out
