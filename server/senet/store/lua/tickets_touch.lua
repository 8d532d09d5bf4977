-- KEYS: tickets (hash), queue by age (sorted set), expiries (sorted set).
-- ARGV: mode ("touch": ticket id and new expiry in Unix ms follow; "update":
-- ticket id and document follow). A touch pushes back a queued ticket's
-- expiry; an update rewrites an existing ticket's document. Reply: 1 when
-- done, 0 when the ticket is not queued (touch) or gone (update).

if ARGV[1] == 'touch' then
  if not redis.call('ZSCORE', KEYS[2], ARGV[2]) then
    return 0
  end
  redis.call('ZADD', KEYS[3], tonumber(ARGV[3]), ARGV[2])
  return 1
end
if redis.call('HEXISTS', KEYS[1], ARGV[2]) == 0 then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
return 1
