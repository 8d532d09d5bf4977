-- KEYS: lobby order, lobby hints, lobby deadlines. ARGV: members to remove. A
-- match's hint and deadline go with its member (unless the hint already names
-- another member). Reply: 1.

for _, member in ipairs(ARGV) do
  redis.call('ZREM', KEYS[1], member)
  local colon = string.find(member, ':', 1, true)
  local match_id = string.sub(member, colon + 1)
  local hint = redis.call('HGET', KEYS[2], match_id)
  if hint and cjson.decode(hint)['k'] == member then
    redis.call('HDEL', KEYS[2], match_id)
    redis.call('ZREM', KEYS[3], match_id)
  end
end
return 1
