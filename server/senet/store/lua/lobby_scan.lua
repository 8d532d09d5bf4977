-- KEYS: lobby order, lobby hints. ARGV: after (a member; '' = from the newest),
-- limit, budget, game id ('' = any), status ('' = any), open seat ('' = any,
-- '1' = some open seat, '0' = none), rated ('' = any, '1' = rated, '0' = casual;
-- a hint that does not say passes).
-- Reply: {{member, hint, member, hint, ...}, next, looked} with at most limit entries
-- whose hints pass the filters, out of at most budget looked at; next is the
-- last member looked at, or '' when the end of the lobby was reached; looked
-- counts the entries looked at. An entry
-- without a hint passes (the reader checks it on the match anyway).

local min = '-'
if ARGV[1] ~= '' then
  min = '(' .. ARGV[1]
end
local limit = tonumber(ARGV[2])
local budget = tonumber(ARGV[3])
local members = redis.call('ZRANGEBYLEX', KEYS[1], min, '+', 'LIMIT', 0, budget)
local found = {}
local last = ''
local looked = 0
for _, member in ipairs(members) do
  if #found >= 2 * limit then
    break
  end
  looked = looked + 1
  last = member
  local colon = string.find(member, ':', 1, true)
  local hint = redis.call('HGET', KEYS[2], string.sub(member, colon + 1))
  local admitted = true
  if hint then
    local h = cjson.decode(hint)
    if ARGV[4] ~= '' and h['g'] ~= ARGV[4] then
      admitted = false
    elseif ARGV[5] ~= '' and h['s'] ~= ARGV[5] then
      admitted = false
    elseif ARGV[6] == '1' and h['o'] <= 0 then
      admitted = false
    elseif ARGV[6] == '0' and h['o'] > 0 then
      admitted = false
    elseif ARGV[7] ~= '' and h['r'] ~= nil and tostring(h['r']) ~= ARGV[7] then
      admitted = false
    end
  else
    hint = ''
  end
  if admitted then
    found[#found + 1] = member
    found[#found + 1] = hint
  end
end
if looked == #members and #members < budget then
  last = ''
end
return {found, last, looked}
