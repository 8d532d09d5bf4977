-- KEYS: head, req. ARGV: request key. Missing head -> nil; unknown key -> 0;
-- else the version the request produced.

if redis.call('EXISTS', KEYS[1]) == 0 then
  return false
end
return tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or 0)
