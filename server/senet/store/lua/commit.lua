-- KEYS: meta, seats, head, log, req, events.
-- ARGV: expected version, request key, log entry, events, snapshot, status,
--       idle ttl ms, finished ttl ms (0 = no expiry), acting seat and its expected
--       claim (seat '' = no claim check; a different claim -> conflict), the
--       next seat and its expected claim ('' = unclaimed; seat '' = no check).
-- Missing head -> nil; else {outcome, version} as in CommitOutcome.
--
-- Expiry: an active match's keys are kept at least the idle ttl after its last
-- commit, and at most 1/64 longer. Renewing six keys is the costliest part of
-- the script, so a commit renews them (to ttl + ttl/64) only when the head has
-- less than the idle ttl left, on the first commit (which creates the log, req
-- and events keys) and when the match ends (to the finished ttl, exactly).

local current = redis.call('HGET', KEYS[3], 'version')
if not current then
  return false
end
current = tonumber(current)
local done = redis.call('HGET', KEYS[5], ARGV[2])
if done then
  return {'duplicate', tonumber(done)}
end
if ARGV[9] ~= '' and redis.call('HGET', KEYS[2], ARGV[9]) ~= ARGV[10] then
  return {'conflict', current}
end
if ARGV[11] and ARGV[11] ~= ''
    and (redis.call('HGET', KEYS[2], ARGV[11]) or '') ~= ARGV[12] then
  return {'conflict', current}
end
if current ~= tonumber(ARGV[1]) then
  return {'conflict', current}
end
local v = current + 1
local id = string.format('%d-0', v)
redis.call('HSET', KEYS[3], 'version', v, 'snapshot', ARGV[5], 'status', ARGV[6])
redis.call('RPUSH', KEYS[4], ARGV[3])
redis.call('HSET', KEYS[5], ARGV[2], v)
redis.call('XADD', KEYS[6], id, 'e', ARGV[4])
local ttl = tonumber(ARGV[7])
local renew = v == 1 or ARGV[6] ~= 'active'
if ARGV[6] ~= 'active' then
  ttl = tonumber(ARGV[8])
elseif not renew then
  local left = redis.call('PTTL', KEYS[3])
  if ttl > 0 then
    renew = left < ttl
  else
    renew = left ~= -1
  end
end
if renew then
  if ttl > 0 and ARGV[6] == 'active' then
    ttl = ttl + math.floor(ttl / 64)
  end
  for i = 1, #KEYS do
    if ttl > 0 then
      redis.call('PEXPIRE', KEYS[i], ttl)
    else
      redis.call('PERSIST', KEYS[i])
    end
  end
end
return {'committed', v}
