#include "wire/pyrrha_frame.h"

#include "wire/big_endian.h"
#include "wire/ether_type.h"
#include "wire/local_experimental.h"

namespace fcswitch::wire {

namespace {

constexpr size_t kVersionOffset = 15;
constexpr size_t kOpcodeOffset = 16;
constexpr size_t kPriorityOffset = 17;
constexpr size_t kHopsOffset = 18;
constexpr size_t kRootOffset = 20;
constexpr size_t kOldRootOffset = 26;
constexpr uint8_t kMaxPriority = 7;

void store_root(uint8_t* at, PyrrhaRoot root) {
  store_be32(at, root.switch_id);
  store_be16(at + 4, root.port_id);
}

PyrrhaRoot load_root(const uint8_t* at) {
  return PyrrhaRoot{load_be32(at), load_be16(at + 4)};
}

bool known_opcode(uint8_t op) {
  return op >= static_cast<uint8_t>(PyrrhaOpcode::kPause) &&
         op <= static_cast<uint8_t>(PyrrhaOpcode::kDealloc);
}

// PAUSE and MERGE tell the receiver its distance to the root: 0 would put the root itself
// upstream of the receiver (the authors' code asserts hop > 0 on both).
bool names_distance(PyrrhaOpcode op) {
  return op == PyrrhaOpcode::kPause || op == PyrrhaOpcode::kMerge;
}

}  // namespace

void encode_pyrrha(const PyrrhaFrame& frame, uint8_t* out) {
  write_control_header(out, kPyrrhaFrameBytes, frame.source, kEtherTypeLocalExperimental1);
  out[14] = static_cast<uint8_t>(LocalSubtype::kPyrrha);
  out[kVersionOffset] = kPyrrhaFrameVersion;
  out[kOpcodeOffset] = static_cast<uint8_t>(frame.opcode);
  out[kPriorityOffset] = frame.priority;
  out[kHopsOffset] = frame.hops;
  store_root(out + kRootOffset, frame.root);
  if (frame.opcode == PyrrhaOpcode::kMerge) store_root(out + kOldRootOffset, frame.old_root);
}

PyrrhaDecodeResult decode_pyrrha(const uint8_t* data, size_t length) {
  PyrrhaDecodeResult r;
  r.status = check_control_header(data, length, kPyrrhaPayloadEndBytes);
  if (r.status != ControlDecodeStatus::kOk) return r;
  if (data[kVersionOffset] != kPyrrhaFrameVersion) {
    r.status = ControlDecodeStatus::kBadVersion;
    return r;
  }
  if (!known_opcode(data[kOpcodeOffset])) {
    r.status = ControlDecodeStatus::kUnknownOpcode;
    return r;
  }
  const auto opcode = static_cast<PyrrhaOpcode>(data[kOpcodeOffset]);
  const uint8_t priority = data[kPriorityOffset];
  const uint8_t hops = data[kHopsOffset];
  if (priority > kMaxPriority || (names_distance(opcode) && hops == 0)) {
    r.status = ControlDecodeStatus::kBadField;
    return r;
  }
  r.frame.source = MacAddress::from_bytes(data + 6);
  r.frame.opcode = opcode;
  r.frame.priority = priority;
  r.frame.hops = hops;
  r.frame.root = load_root(data + kRootOffset);
  if (opcode == PyrrhaOpcode::kMerge) r.frame.old_root = load_root(data + kOldRootOffset);
  r.status = ControlDecodeStatus::kOk;
  return r;
}

}  // namespace fcswitch::wire
