-- KEYS: lobby hints (hash), lobby deadlines (sorted set). ARGV: now (Unix ms),
-- limit. Reply: the members of up to limit entries whose deadline has passed,
-- for the caller to check their matches. A deadline without a hint (its entry
-- is gone) is removed.

local due = {}
for _, match_id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))) do
  local hint = redis.call('HGET', KEYS[1], match_id)
  if hint then
    due[#due + 1] = cjson.decode(hint)['k']
  else
    redis.call('ZREM', KEYS[2], match_id)
  end
end
return due
