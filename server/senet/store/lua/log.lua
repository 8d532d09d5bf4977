-- KEYS: head, log. Missing head -> nil; else every log entry.

if redis.call('EXISTS', KEYS[1]) == 0 then
  return false
end
return redis.call('LRANGE', KEYS[2], 0, -1)
