-- Bot-seat queue. KEYS: due, owner, strategy (see bot_enqueue.lua).
-- ARGV: worker, member... Drops the members owned by the worker -> 1.

for i = 2, #ARGV do
  if redis.call('HGET', KEYS[2], ARGV[i]) == ARGV[1] then
    redis.call('ZREM', KEYS[1], ARGV[i])
    redis.call('HDEL', KEYS[2], ARGV[i])
    redis.call('HDEL', KEYS[3], ARGV[i])
  end
end
return 1
