-- KEYS: lobby order (sorted set), lobby hints (hash). ARGV: member, match id,
-- hint, sample size. The member ("<inverted creation time>:<match id>", all
-- scores 0) places the entry; the hint (JSON with the member as "k") is what
-- readers filter on. An older member of the same match is removed, so a match
-- has one entry. Reply: up to sample size random members, for the caller to
-- check that their matches still exist.

local old = redis.call('HGET', KEYS[2], ARGV[2])
if old then
  local member = cjson.decode(old)['k']
  if member and member ~= ARGV[1] then
    redis.call('ZREM', KEYS[1], member)
  end
end
redis.call('ZADD', KEYS[1], 0, ARGV[1])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
return redis.call('ZRANDMEMBER', KEYS[1], tonumber(ARGV[4]))
