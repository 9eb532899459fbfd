#include "wire/pabo_shim.h"

#include <cstring>

#include "wire/big_endian.h"
#include "wire/ether_type.h"
#include "wire/local_experimental.h"

namespace fcswitch::wire {

PaboShim read_pabo_shim(const uint8_t* shim) {
  return PaboShim{load_be16(shim + 4), shim[6], shim[7], load_be16(shim + 8)};
}

void write_pabo_shim(uint8_t* shim, const PaboShim& fields) {
  store_be16(shim, kEtherTypeLocalExperimental1);
  shim[2] = static_cast<uint8_t>(LocalSubtype::kPabo);
  shim[3] = kPaboShimVersion;
  store_be16(shim + 4, fields.bounces);
  shim[6] = fields.distance;
  shim[7] = fields.max_distance;
  store_be16(shim + 8, fields.hops);
}

uint8_t* insert_pabo_shim(uint8_t* frame, size_t shim_offset, const PaboShim& fields) {
  uint8_t* start = frame - kPaboShimBytes;
  std::memmove(start, frame, shim_offset);
  write_pabo_shim(start + shim_offset, fields);
  return start;
}

uint8_t* remove_pabo_shim(uint8_t* frame, size_t shim_offset) {
  uint8_t* start = frame + kPaboShimBytes;
  std::memmove(start, frame, shim_offset);
  return start;
}

}  // namespace fcswitch::wire
