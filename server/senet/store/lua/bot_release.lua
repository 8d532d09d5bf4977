-- Bot-decision queue. KEYS: due, owner, info (see bot_post.lua).
-- ARGV: worker, then member, version pairs. Drops the entries owned by the
-- worker at that version (a newer post of the seat stays) -> 1.

for i = 2, #ARGV, 2 do
  local member = ARGV[i]
  local info = redis.call('HGET', KEYS[3], member)
  if redis.call('HGET', KEYS[2], member) == ARGV[1] and info
      and string.match(info, '^(%d+) ') == ARGV[i + 1] then
    redis.call('ZREM', KEYS[1], member)
    redis.call('HDEL', KEYS[2], member)
    redis.call('HDEL', KEYS[3], member)
  end
end
return 1
