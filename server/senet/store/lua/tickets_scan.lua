-- KEYS: tickets (hash), queue by age (sorted set). ARGV: most tickets. Reply:
-- the documents of the oldest queued tickets, oldest first.

local ids = redis.call('ZRANGE', KEYS[2], 0, tonumber(ARGV[1]) - 1)
if #ids == 0 then
  return {}
end
local docs = redis.call('HMGET', KEYS[1], unpack(ids))
local out = {}
for _, doc in ipairs(docs) do
  if doc then out[#out + 1] = doc end
end
return out
