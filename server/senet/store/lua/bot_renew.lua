-- Bot-decision queue. KEYS: due, owner, info (see bot_post.lua).
-- ARGV: worker, lease ms, now ms, then member, version pairs -> the members
-- still owned by the worker at that version, their leases renewed.

local until_ms = tonumber(ARGV[3]) + tonumber(ARGV[2])
local out = {}
for i = 4, #ARGV, 2 do
  local member = ARGV[i]
  local info = redis.call('HGET', KEYS[3], member)
  if redis.call('HGET', KEYS[2], member) == ARGV[1] and info
      and string.match(info, '^(%d+) ') == ARGV[i + 1] then
    redis.call('ZADD', KEYS[1], until_ms, member)
    table.insert(out, member)
  end
end
return out
