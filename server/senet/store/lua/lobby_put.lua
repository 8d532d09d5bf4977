-- KEYS: lobby order (sorted set), lobby hints (hash), lobby deadlines (sorted
-- set). ARGV: member, match id, hint, sample size, deadline (Unix ms; 0: none),
-- due size, now (Unix ms). The member ("<inverted creation time>:<match id>",
-- all scores 0) places the entry; the hint (JSON with the member as "k") is what
-- readers filter on; the deadline (match id -> the earliest time its match can
-- have expired) says when to check it. An older member of the same match is
-- removed, so a match has one entry. Reply: {up to sample size random members,
-- up to due size members whose deadline has passed}, for the caller to check
-- that their matches still exist.

local old = redis.call('HGET', KEYS[2], ARGV[2])
if old then
  local member = cjson.decode(old)['k']
  if member and member ~= ARGV[1] then
    redis.call('ZREM', KEYS[1], member)
  end
end
redis.call('ZADD', KEYS[1], 0, ARGV[1])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
if tonumber(ARGV[5]) > 0 then
  redis.call('ZADD', KEYS[3], tonumber(ARGV[5]), ARGV[2])
else
  redis.call('ZREM', KEYS[3], ARGV[2])
end
local due = {}
for _, match_id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[7], 'LIMIT', 0, tonumber(ARGV[6]))) do
  local hint = redis.call('HGET', KEYS[2], match_id)
  if hint then
    due[#due + 1] = cjson.decode(hint)['k']
  else
    redis.call('ZREM', KEYS[3], match_id)
  end
end
return {redis.call('ZRANDMEMBER', KEYS[1], tonumber(ARGV[4])), due}
