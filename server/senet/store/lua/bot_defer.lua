-- Bot-decision queue. KEYS: due, owner, info (see bot_post.lua).
-- ARGV: worker, free-at ms, then member, version pairs. The worker's entries at
-- that version are owned by nobody again, free at the given time -> 1.

for i = 3, #ARGV, 2 do
  local member = ARGV[i]
  local info = redis.call('HGET', KEYS[3], member)
  if redis.call('HGET', KEYS[2], member) == ARGV[1] and info
      and string.match(info, '^(%d+) ') == ARGV[i + 1] then
    redis.call('ZADD', KEYS[1], ARGV[2], member)
    redis.call('HDEL', KEYS[2], member)
  end
end
return 1
