-- Wireshark dissector for fcswitch's own frames (issue 19, item 3). The layouts are lib/wire's
-- headers, byte for byte; each decoder below names the header it follows.
--
--   0x88B5, subtype 0xCB  credit update of CBFC / time-based GFC      (lib/wire/credit_frame.h)
--   0x88B5, subtype 0xB0  PABO's bounce shim on a data frame            (lib/wire/pabo_shim.h)
--   0x88B5, subtype 0xB1  Pyrrha's PAUSE / RESUME / MERGE / DEALLOC     (lib/wire/pyrrha_frame.h)
--   0x88B5, first byte 0x01  a PFC-layout frame moved under 0x88B5 by a port's
--                         control_ether_type: the class-enable vector and per-priority
--                         times, which buffer-based GFC uses for its stage ids (GFC §5.1)
--   MAC Control (0x8808) with the stage opcode of preference `stage_opcode`: buffer-based
--                         GFC's stage frames sent with their own opcode (config/reference.toml,
--                         [flow_control] stage_opcode). Plain PFC (0x0101) and 802.3x PAUSE
--                         (0x0001) stay Wireshark's own ("Class Based Flow Control [CBFC] Pause").
--   0x88B5, anything else: not ours (the EtherType is IEEE 802's local experimental one, shared
--                         by everyone): handed back, Wireshark shows it as data.
--
-- Load it for one run:   tshark -X lua_script:tools/wireshark/fcswitch.lua -r capture.pcap
-- or for good:           cp tools/wireshark/fcswitch.lua ~/.local/lib/wireshark/plugins/
-- Filters: fcswitch.credit, fcswitch.credit.p3.fccl > 1000, fcswitch.stage.id,
-- fcswitch.pabo.bounces, fcswitch.pyrrha.opcode == 3, fcswitch.pyrrha.root == "7:3".
-- Preferences (-o fcswitch.NAME:VALUE): stage_opcode (e.g. 0x0102; empty: none),
-- control_ether_type (default 0x8808).
--
-- Written for Wireshark 4.0 (Debian 12, Lua 5.2); uses no bit library, so 5.3/5.4 builds work.
-- A short or malformed frame gets an expert info (fcswitch.too_short, ...), never a Lua error:
-- every read below is checked against the captured length first, and Wireshark's dissectors
-- called from here are called under pcall (their exceptions come back as Lua errors).

local fcswitch = Proto("fcswitch", "fcswitch flow control, PABO and Pyrrha")

local kLocalExperimental = 0x88B5
local kMacControl = 0x8808
local kSubtypeCredit = 0xCB -- lib/wire/local_experimental.h
local kSubtypePabo = 0xB0
local kSubtypePyrrha = 0xB1
local kPfcOpcode = 0x0101 -- lib/wire/pfc_frame.h
local kPauseOpcode = 0x0001
local kPfcDestinationHex = "0180C2000001"
local kCreditVersion = 1 -- kCreditFrameVersion
local kPaboVersion = 1 -- kPaboShimVersion
local kPyrrhaVersion = 1 -- kPyrrhaFrameVersion
-- Lengths counted from the byte after the EtherType, where this dissector's buffer starts.
local kCreditBytes = 82 - 14 -- kCreditFrameBytes
local kPfcLayoutBytes = 34 - 14 -- kPfcPayloadEndBytes: the eight times end there
local kPaboBytes = 10 -- kPaboShimBytes: subtype .. the frame's own EtherType
local kPyrrhaBytes = 32 - 14 -- kPyrrhaPayloadEndBytes: the fields end there, padding follows

local subtype_names = {
  [kSubtypeCredit] = "Credit update (CBFC / time-based GFC)",
  [kSubtypePabo] = "PABO bounce shim",
  [kSubtypePyrrha] = "Pyrrha control message",
  [0x01] = "PFC layout (opcode 0x01xx moved under 0x88B5)",
}

local bit_mask = { 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80 }
local function has_priority(vector, prio)
  return math.floor(vector / bit_mask[prio + 1]) % 2 == 1
end

local f = fcswitch.fields
f.subtype = ProtoField.uint8("fcswitch.subtype", "Subtype", base.HEX, subtype_names)

-- Credit update (lib/wire/credit_frame.h).
f.credit = ProtoField.none("fcswitch.credit", "Credit update (CBFC / time-based GFC)")
f.credit_version = ProtoField.uint8("fcswitch.credit.version", "Version")
f.credit_mask = ProtoField.uint8("fcswitch.credit.entry_mask", "Entry mask", base.HEX, nil, nil,
  "bit i: the entry of priority i is valid")
f.credit_reserved = ProtoField.uint8("fcswitch.credit.reserved", "Reserved", base.HEX)
f.credit_entry = ProtoField.none("fcswitch.credit.entry", "Entry")
f.credit_priority = ProtoField.uint8("fcswitch.credit.priority", "Priority")
f.credit_valid = ProtoField.bool("fcswitch.credit.valid", "Valid")
f.credit_fctbs = ProtoField.uint32("fcswitch.credit.fctbs", "FCTBS", base.DEC, nil, nil,
  "64-byte blocks the sender of this frame has sent at this priority (IBA vol. 1 §7.9.4)")
f.credit_fccl = ProtoField.uint32("fcswitch.credit.fccl", "FCCL", base.DEC, nil, nil,
  "credit limit, in 64-byte blocks, the sender of this frame grants at this priority")

-- Buffer-based GFC's stage frame: PFC's layout (lib/wire/pfc_frame.h), stage ids in the times.
f.stage = ProtoField.none("fcswitch.stage", "GFC stage frame (PFC layout)")
f.stage_opcode = ProtoField.uint16("fcswitch.stage.opcode", "Opcode", base.HEX)
f.stage_vector = ProtoField.uint16("fcswitch.stage.class_enable", "Class-enable vector", base.HEX,
  nil, nil, "bit i: the time (stage) of priority i applies")
f.stage_entry = ProtoField.none("fcswitch.stage.entry", "Entry")
f.stage_priority = ProtoField.uint8("fcswitch.stage.priority", "Priority")
f.stage_enabled = ProtoField.bool("fcswitch.stage.enabled", "Enabled")
f.stage_id = ProtoField.uint16("fcswitch.stage.id", "Stage", base.DEC, nil, nil,
  "buffer-based GFC stage k: send at C/2^k (GFC §5.1). Under opcode 0x0101 the same field is a "
    .. "PFC pause time in 512-bit quanta on a port that runs PFC")
f.stage_padding = ProtoField.bytes("fcswitch.stage.padding", "Padding")

-- Per-priority copies, hidden from the tree, so a filter can name one priority
-- (fcswitch.credit.p3.fccl > 1000) as Wireshark's macc.cbfc.pause_time.c3 does for PFC.
local credit_fctbs_p, credit_fccl_p, stage_id_p = {}, {}, {}
for prio = 0, 7 do
  credit_fctbs_p[prio] = ProtoField.uint32("fcswitch.credit.p" .. prio .. ".fctbs",
    "FCTBS, priority " .. prio)
  credit_fccl_p[prio] = ProtoField.uint32("fcswitch.credit.p" .. prio .. ".fccl",
    "FCCL, priority " .. prio)
  stage_id_p[prio] = ProtoField.uint16("fcswitch.stage.p" .. prio .. ".id",
    "Stage, priority " .. prio)
  f["credit_fctbs_p" .. prio] = credit_fctbs_p[prio]
  f["credit_fccl_p" .. prio] = credit_fccl_p[prio]
  f["stage_id_p" .. prio] = stage_id_p[prio]
end

-- PABO's bounce shim (lib/wire/pabo_shim.h).
f.pabo = ProtoField.none("fcswitch.pabo", "PABO bounce shim")
f.pabo_version = ProtoField.uint8("fcswitch.pabo.version", "Version")
f.pabo_bounces = ProtoField.uint16("fcswitch.pabo.bounces", "Bounces (n_p)", base.DEC, nil, nil,
  "+1 at each bounce (PABO's bouncedHop, the n_p of Eq. 4)")
f.pabo_distance = ProtoField.uint8("fcswitch.pabo.distance", "Distance", base.DEC, nil, nil,
  "hops behind the farthest switch reached normally (bouncedDistance)")
f.pabo_max_distance = ProtoField.uint8("fcswitch.pabo.max_distance", "Max distance", base.DEC,
  nil, nil, "the largest distance so far (maxBouncedDistance)")
f.pabo_hops = ProtoField.uint16("fcswitch.pabo.hops", "Hops", base.DEC, nil, nil,
  "switches that forwarded or bounced the frame since the shim was inserted")
f.pabo_ethertype = ProtoField.uint16("fcswitch.pabo.ethertype", "EtherType", base.HEX, nil, nil,
  "the frame's own EtherType, moved behind the shim")

-- Pyrrha's messages (lib/wire/pyrrha_frame.h): PyrrhaOpcode.
local kPyrrhaPause, kPyrrhaMerge = 1, 3
local pyrrha_opcode_names = { [1] = "PAUSE", [2] = "RESUME", [3] = "MERGE", [4] = "DEALLOC" }
f.pyrrha = ProtoField.none("fcswitch.pyrrha", "Pyrrha control message")
f.pyrrha_version = ProtoField.uint8("fcswitch.pyrrha.version", "Version")
f.pyrrha_opcode = ProtoField.uint8("fcswitch.pyrrha.opcode", "Opcode", base.DEC,
  pyrrha_opcode_names)
f.pyrrha_priority = ProtoField.uint8("fcswitch.pyrrha.priority", "Priority", base.DEC, nil, nil,
  "the class the message controls")
f.pyrrha_hops = ProtoField.uint8("fcswitch.pyrrha.hops", "Hops to the root", base.DEC, nil, nil,
  "the receiver's distance to the root in switches: 1 from the root itself; 0 on RESUME and "
    .. "DEALLOC (matched by root)")
f.pyrrha_reserved = ProtoField.uint8("fcswitch.pyrrha.reserved", "Reserved", base.HEX)
f.pyrrha_root = ProtoField.string("fcswitch.pyrrha.root", "Congestion root",
  base.ASCII, "switch-id:port-id (Pyrrha §4.4)")
f.pyrrha_root_switch = ProtoField.uint32("fcswitch.pyrrha.root.switch", "Root switch")
f.pyrrha_root_port = ProtoField.uint16("fcswitch.pyrrha.root.port", "Root port")
f.pyrrha_old_root = ProtoField.string("fcswitch.pyrrha.old_root", "Old root", base.ASCII,
  "MERGE: the false-positive root the new one replaces (Pyrrha §4.1)")
f.pyrrha_old_root_switch = ProtoField.uint32("fcswitch.pyrrha.old_root.switch", "Old root switch")
f.pyrrha_old_root_port = ProtoField.uint16("fcswitch.pyrrha.old_root.port", "Old root port")
f.pyrrha_padding = ProtoField.bytes("fcswitch.pyrrha.padding", "Padding")

local e = {
  too_short = ProtoExpert.new("fcswitch.too_short", "Frame too short for its format",
    expert.group.MALFORMED, expert.severity.ERROR),
  bad_version = ProtoExpert.new("fcswitch.bad_version", "Version fcswitch does not speak",
    expert.group.PROTOCOL, expert.severity.WARN),
  bad_destination = ProtoExpert.new("fcswitch.bad_destination",
    "Not sent to 01:80:c2:00:00:01: fcswitch's RX drops it (bad_destination)",
    expert.group.PROTOCOL, expert.severity.WARN),
  unknown_opcode = ProtoExpert.new("fcswitch.unknown_opcode",
    "Opcode fcswitch does not know: RX drops the frame (unknown_opcode)",
    expert.group.MALFORMED, expert.severity.ERROR),
  bad_field = ProtoExpert.new("fcswitch.bad_field",
    "Field out of its range: RX drops the frame (bad_field)",
    expert.group.MALFORMED, expert.severity.ERROR),
  stage_taken_for_data = ProtoExpert.new("fcswitch.stage_taken_for_data",
    "Under 0x88B5 only opcodes 0x01xx are told from fcswitch's subtypes "
      .. "(lib/wire/control_frame_kind.h): a switch forwards this frame as data",
    expert.group.PROTOCOL, expert.severity.WARN),
}
fcswitch.experts = { e.too_short, e.bad_version, e.bad_destination, e.unknown_opcode,
  e.bad_field, e.stage_taken_for_data }

fcswitch.prefs.stage_opcode = Pref.string("GFC stage opcode", "",
  "MAC Control opcode of buffer-based GFC's stage frames where a port sets [flow_control] "
    .. "stage_opcode to something other than PFC's 0x0101 (e.g. 0x0102). Empty: none")
fcswitch.prefs.control_ether_type = Pref.string("Control EtherType", "0x8808",
  "The ports' control_ether_type: where PFC and stage frames travel. 0x88B5 frames are always "
    .. "decoded")

local ether_types = DissectorTable.get("ethertype")
local data_dissector = Dissector.get("data")

-- The stage opcode of the preferences, or nil.
local stage_opcode = nil

local function parse_u16(text)
  local v = tonumber(text)
  if v and v >= 0 and v <= 0xFFFF and v == math.floor(v) then return v end
  return nil
end

-- Adds the too_short expert when `tvb` holds fewer than `needed` bytes; true if it does.
local function check_length(tvb, item, needed, what)
  if tvb:len() >= needed then return true end
  item:add_proto_expert_info(e.too_short, string.format(
    "%s: %d bytes after the EtherType, the format needs %d", what, tvb:len(), needed))
  return false
end

-- The frame's destination address, from its bytes: an Address would print as its resolved name
-- ("MAC-specific-ctrl-proto-01") where MAC name resolution is on, as it is in Wireshark's GUI.
local eth_dst = Field.new("eth.dst")

local function check_destination(item)
  local found = { eth_dst() }
  local innermost = found[#found]
  if innermost and innermost.range:bytes():tohex() ~= kPfcDestinationHex then
    item:add_proto_expert_info(e.bad_destination)
  end
end

-- The version at offset 1, after the subtype. One we do not speak gets an expert info and the
-- rest goes to data: its layout is not ours to guess (decode_credit and parse_frame_header
-- refuse it too).
local function version_known(tvb, pinfo, root, tree, field, speaks, what)
  local version = tvb(1, 1):uint()
  local item = tree:add(field, tvb(1, 1))
  if version == speaks then return true end
  item:add_proto_expert_info(e.bad_version,
    string.format("%s version %d, fcswitch speaks %d", what, version, speaks))
  if tvb:len() > 2 then data_dissector:call(tvb(2):tvb(), pinfo, root) end
  pinfo.cols.protocol = "fcswitch"
  pinfo.cols.info = string.format("%s [version %d]", what, version)
  return false
end

-- The start of a control frame under one of our subtypes, `tvb` from the subtype byte on: its
-- subtree, subtype, version, length and destination, checked as lib/wire's decoders check them.
-- Returns the subtree, or nil when the rest is not to be read (the expert info is added).
local function open_control_frame(tvb, pinfo, root, field, version_field, speaks, bytes, what)
  pinfo.cols.protocol = "fcswitch"
  local tree = root:add(fcswitch, tvb()):add(field, tvb())
  tree:add(f.subtype, tvb(0, 1))
  if tvb:len() >= 2 and not version_known(tvb, pinfo, root, tree, version_field, speaks, what) then
    return nil
  end
  if not check_length(tvb, tree, bytes, what) then
    pinfo.cols.info = what .. " [too short]"
    return nil
  end
  check_destination(tree)
  return tree
end

-- lib/wire/credit_frame.h; `tvb` starts at the subtype byte (offset 14 of the frame).
local function dissect_credit(tvb, pinfo, root)
  local tree = open_control_frame(tvb, pinfo, root, f.credit, f.credit_version, kCreditVersion,
    kCreditBytes, "Credit update")
  if not tree then return tvb:len() end
  local mask = tvb(2, 1):uint()
  local mask_item = tree:add(f.credit_mask, tvb(2, 1))
  tree:add(f.credit_reserved, tvb(3, 1))
  local info = {}
  for prio = 0, 7 do
    local at = 4 + 8 * prio
    local fctbs, fccl = tvb(at, 4):uint(), tvb(at + 4, 4):uint()
    local valid = has_priority(mask, prio)
    local entry = tree:add(f.credit_entry, tvb(at, 8))
    entry:set_text(string.format("Priority %d: FCTBS %d, FCCL %d blocks%s", prio, fctbs, fccl,
      valid and "" or " (not valid)"))
    entry:add(f.credit_priority, prio):set_generated()
    entry:add(f.credit_valid, valid):set_generated()
    entry:add(f.credit_fctbs, tvb(at, 4))
    entry:add(f.credit_fccl, tvb(at + 4, 4))
    entry:add(credit_fctbs_p[prio], tvb(at, 4)):set_hidden()
    entry:add(credit_fccl_p[prio], tvb(at + 4, 4)):set_hidden()
    if valid then info[#info + 1] = string.format("p%d FCTBS %d FCCL %d", prio, fctbs, fccl) end
  end
  mask_item:append_text(#info > 0 and "" or " (no valid entry)")
  pinfo.cols.info = "Credit update: " .. (#info > 0 and table.concat(info, ", ") or "no entry")
  return kCreditBytes
end

-- lib/wire/pfc_frame.h's layout; `tvb` starts at the opcode (offset 14 of the frame).
local function dissect_stage(tvb, pinfo, top, ether_type)
  pinfo.cols.protocol = "fcswitch"
  local tree = top:add(f.stage, tvb())
  if not check_length(tvb, tree, kPfcLayoutBytes, "PFC-layout frame") then
    pinfo.cols.info = "GFC stage frame [too short]"
    return tvb:len()
  end
  check_destination(tree)
  local opcode = tvb(0, 2):uint()
  local opcode_item = tree:add(f.stage_opcode, tvb(0, 2))
  if opcode == kPfcOpcode then
    opcode_item:append_text(" (PFC's: pause times on a pfc port, stage ids on a gfc-buffer one)")
  elseif ether_type == kLocalExperimental and math.floor(opcode / 256) ~= 0x01 then
    opcode_item:add_proto_expert_info(e.stage_taken_for_data)
  end
  -- 802.1Qbb: the first octet of the vector is reserved, e[7..0] in the second.
  local vector = tvb(3, 1):uint()
  tree:add(f.stage_vector, tvb(2, 2))
  local info = {}
  for prio = 0, 7 do
    local at = 4 + 2 * prio
    local id = tvb(at, 2):uint()
    local enabled = has_priority(vector, prio)
    local entry = tree:add(f.stage_entry, tvb(at, 2))
    entry:set_text(string.format("Priority %d: stage %d%s", prio, id,
      enabled and "" or " (not enabled)"))
    entry:add(f.stage_priority, prio):set_generated()
    entry:add(f.stage_enabled, enabled):set_generated()
    entry:add(f.stage_id, tvb(at, 2))
    entry:add(stage_id_p[prio], tvb(at, 2)):set_hidden()
    if enabled then info[#info + 1] = string.format("p%d stage %d", prio, id) end
  end
  if tvb:len() > kPfcLayoutBytes then tree:add(f.stage_padding, tvb(kPfcLayoutBytes)) end
  pinfo.cols.info = string.format("GFC stage frame (opcode 0x%04x): %s", opcode,
    #info > 0 and table.concat(info, ", ") or "no priority enabled")
  return tvb:len()
end

-- lib/wire/pabo_shim.h; `tvb` starts at the subtype byte, after the shim's EtherType.
local function dissect_pabo(tvb, pinfo, root)
  local top = root:add(fcswitch, tvb(0, math.min(tvb:len(), kPaboBytes)))
  local tree = top:add(f.pabo, tvb(0, math.min(tvb:len(), kPaboBytes)))
  tree:add(f.subtype, tvb(0, 1))
  if tvb:len() >= 2 and
      not version_known(tvb, pinfo, root, tree, f.pabo_version, kPaboVersion, "PABO shim") then
    return tvb:len()
  end
  if not check_length(tvb, tree, kPaboBytes, "PABO shim") then
    pinfo.cols.protocol = "fcswitch"
    pinfo.cols.info = "PABO shim [too short]"
    return tvb:len()
  end
  local bounces = tvb(2, 2):uint()
  tree:add(f.pabo_bounces, tvb(2, 2))
  tree:add(f.pabo_distance, tvb(4, 1))
  tree:add(f.pabo_max_distance, tvb(5, 1))
  tree:add(f.pabo_hops, tvb(6, 2))
  tree:add(f.pabo_ethertype, tvb(8, 2))
  tree:append_text(string.format(", bounces %d, distance %d (max %d), hops %d", bounces,
    tvb(4, 1):uint(), tvb(5, 1):uint(), tvb(6, 2):uint()))
  local consumed = tvb:len()
  if tvb:len() > kPaboBytes then
    -- The frame's own payload, decoded as if the shim were not there (IP, UDP, ...). A payload
    -- dissector's exception (a cut IP header) is already shown as Wireshark's malformed-packet
    -- item when DissectorTable:try turns it into a Lua error: caught, so it stays only that.
    local ok, inner = pcall(ether_types.try, ether_types, tvb(8, 2):uint(),
      tvb(kPaboBytes):tvb(), pinfo, root)
    if ok then consumed = kPaboBytes + inner end
  end
  -- After the payload's dissectors, which rewrite the columns.
  pinfo.cols.info:prepend(string.format("[PABO bounces %d] ", bounces))
  return consumed
end

-- lib/wire/pyrrha_frame.h; `tvb` starts at the subtype byte (offset 14 of the frame). Checked
-- as decode_pyrrha checks it, in its order; what it refuses is shown with an expert info.
local function dissect_pyrrha(tvb, pinfo, root)
  local tree = open_control_frame(tvb, pinfo, root, f.pyrrha, f.pyrrha_version, kPyrrhaVersion,
    kPyrrhaBytes, "Pyrrha message")
  if not tree then return tvb:len() end
  local opcode = tvb(2, 1):uint()
  local priority = tvb(3, 1):uint()
  local hops = tvb(4, 1):uint()
  local name = pyrrha_opcode_names[opcode]
  local opcode_item = tree:add(f.pyrrha_opcode, tvb(2, 1))
  local priority_item = tree:add(f.pyrrha_priority, tvb(3, 1))
  local hops_item = tree:add(f.pyrrha_hops, tvb(4, 1))
  tree:add(f.pyrrha_reserved, tvb(5, 1))
  local function add_root(at, field, switch_field, port_field)
    local text = string.format("%d:%d", tvb(at, 4):uint(), tvb(at + 4, 2):uint())
    local item = tree:add(field, tvb(at, 6), text)
    item:add(switch_field, tvb(at, 4))
    item:add(port_field, tvb(at + 4, 2))
    return text
  end
  local root_text = add_root(6, f.pyrrha_root, f.pyrrha_root_switch, f.pyrrha_root_port)
  local info = string.format("Pyrrha %s root %s", name or string.format("opcode %d", opcode),
    root_text)
  if opcode == kPyrrhaMerge then
    info = info .. " (was " .. add_root(12, f.pyrrha_old_root, f.pyrrha_old_root_switch,
      f.pyrrha_old_root_port) .. ")"
  end
  if tvb:len() > kPyrrhaBytes then tree:add(f.pyrrha_padding, tvb(kPyrrhaBytes)) end
  info = info .. string.format(", priority %d, hops %d", priority, hops)
  if not name then
    opcode_item:add_proto_expert_info(e.unknown_opcode,
      string.format("Pyrrha opcode %d: fcswitch knows 1..4", opcode))
    info = info .. " [unknown opcode]"
  elseif priority > 7 then
    priority_item:add_proto_expert_info(e.bad_field, string.format("Priority %d > 7", priority))
    info = info .. " [bad priority]"
  elseif hops == 0 and (opcode == kPyrrhaPause or opcode == kPyrrhaMerge) then
    hops_item:add_proto_expert_info(e.bad_field,
      name .. " with hops 0: the root is at least 1 switch away")
    info = info .. " [bad hops]"
  end
  tree:append_text(": " .. (name or "?") .. " " .. root_text)
  pinfo.cols.info = info
  return tvb:len()
end

-- Registered under 0x88B5, under the control EtherType of the preferences when a stage opcode is
-- set, and under a moved control EtherType. pinfo.match_uint says which.
local original_dissector = {} -- EtherType -> the dissector it had before us

function fcswitch.dissector(tvb, pinfo, tree)
  local ether_type = pinfo.match_uint
  if ether_type ~= kLocalExperimental then
    -- A control EtherType: ours are the stage opcode (and PFC's layout where PFC was moved).
    local opcode = tvb:len() >= 2 and tvb(0, 2):uint() or nil
    local ours = opcode ~= nil and opcode ~= kPauseOpcode and
        (opcode == stage_opcode or (ether_type ~= kMacControl and opcode == kPfcOpcode))
    if not ours then
      local original = original_dissector[ether_type]
      if not original then return 0 end
      -- A short PFC frame makes Wireshark's dissector throw; as in dissect_pabo, it is already
      -- shown as malformed when the call turns it into a Lua error.
      local ok, consumed = pcall(original.call, original, tvb, pinfo, tree)
      return ok and consumed or tvb:len()
    end
    return dissect_stage(tvb, pinfo, tree:add(fcswitch, tvb()), ether_type)
  end
  if tvb:len() < 1 then return 0 end
  local subtype = tvb(0, 1):uint()
  local first_two = tvb:len() >= 2 and tvb(0, 2):uint() or nil
  if subtype == kSubtypeCredit then
    return dissect_credit(tvb, pinfo, tree)
  elseif subtype == kSubtypePabo then
    return dissect_pabo(tvb, pinfo, tree)
  elseif subtype == kSubtypePyrrha then
    return dissect_pyrrha(tvb, pinfo, tree)
  elseif subtype == 0x01 or (first_two ~= nil and first_two == stage_opcode) then
    return dissect_stage(tvb, pinfo, tree:add(fcswitch, tvb()), ether_type)
  end
  return 0 -- not ours: Wireshark shows it as data
end

ether_types:add(kLocalExperimental, fcswitch)

-- The control EtherType we sit on, or nil. Plain PFC under 0x8808 is Wireshark's own, so we take
-- 0x8808 only while a stage opcode is set, and hand it every other frame.
local hooked_ether_type = nil

local function apply_preferences()
  stage_opcode = parse_u16(fcswitch.prefs.stage_opcode)
  if stage_opcode == kPfcOpcode or stage_opcode == kPauseOpcode then stage_opcode = nil end
  local control_ether_type = parse_u16(fcswitch.prefs.control_ether_type) or kMacControl
  local wanted = nil
  if control_ether_type ~= kLocalExperimental and
      (control_ether_type ~= kMacControl or stage_opcode ~= nil) then
    wanted = control_ether_type
  end
  if wanted == hooked_ether_type then return end
  if hooked_ether_type then
    ether_types:remove(hooked_ether_type, fcswitch)
    if original_dissector[hooked_ether_type] then
      ether_types:add(hooked_ether_type, original_dissector[hooked_ether_type])
    end
    hooked_ether_type = nil
  end
  if wanted then
    if original_dissector[wanted] == nil then
      original_dissector[wanted] = ether_types:get_dissector(wanted)
    end
    ether_types:add(wanted, fcswitch)
    hooked_ether_type = wanted
  end
end

function fcswitch.prefs_changed()
  apply_preferences()
end

function fcswitch.init()
  apply_preferences()
end
