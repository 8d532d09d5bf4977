-- KEYS: head, events. ARGV: exclusive start id, count. Missing head -> nil;
-- else the XRANGE entries.

if redis.call('EXISTS', KEYS[1]) == 0 then
  return false
end
return redis.call('XRANGE', KEYS[2], ARGV[1], '+', 'COUNT', ARGV[2])
