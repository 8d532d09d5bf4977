-- KEYS: queued matches (hash), locks (hash). ARGV: match id, then pairs of
-- lock and ticket id. Forgets the queued match and frees each lock still held
-- by the ticket named with it (a lock since taken by a newer ticket stays).
-- Reply: the number of locks freed.

redis.call('HDEL', KEYS[1], ARGV[1])
local freed = 0
for i = 2, #ARGV, 2 do
  if redis.call('HGET', KEYS[2], ARGV[i]) == ARGV[i + 1] then
    redis.call('HDEL', KEYS[2], ARGV[i])
    freed = freed + 1
  end
end
return freed
