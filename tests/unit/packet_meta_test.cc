#include "core/packet_meta.h"

#include <gtest/gtest.h>

#include <cstring>

namespace fcswitch {
namespace {

// make_packet_meta composes the fields in one word, assuming the psABI's bit-field layout: each
// reads back as given (a compile-time check too, where the compiler can evaluate it).
TEST(PacketMeta, ComposedFieldsReadBack) {
  const PacketMeta m = make_packet_meta(1, 2, 3, true, PaboSubqueue::kBounce, 7);
  EXPECT_EQ(m.ingress_port, 1);
  EXPECT_EQ(m.priority, 2);
  EXPECT_EQ(m.egress_queue, 3);
  EXPECT_EQ(m.lossy, 1);
  EXPECT_EQ(m.pabo, static_cast<uint8_t>(PaboSubqueue::kBounce));
  EXPECT_EQ(m.charged_bytes, 7u);
}

// same_charges compares the low four bytes under a mask: each field it must see tells two
// packets apart, and their bytes and the padding bits beside the fields do not.
TEST(PacketMeta, SameChargesSeesEveryChargedFieldAndNotTheBytes) {
  const PacketMeta base = make_packet_meta(7, 3, 3, false, PaboSubqueue::kNone, 64);
  EXPECT_TRUE(same_charges(base, make_packet_meta(7, 3, 3, false, PaboSubqueue::kNone, 1500)));
  EXPECT_FALSE(same_charges(base, make_packet_meta(8, 3, 3, false, PaboSubqueue::kNone, 64)));
  EXPECT_FALSE(same_charges(base, make_packet_meta(7, 4, 3, false, PaboSubqueue::kNone, 64)));
  EXPECT_FALSE(same_charges(base, make_packet_meta(7, 3, 8, false, PaboSubqueue::kNone, 64)));
  EXPECT_FALSE(same_charges(base, make_packet_meta(7, 3, 3, true, PaboSubqueue::kNone, 64)));
  EXPECT_FALSE(same_charges(base, make_packet_meta(7, 3, 3, false, PaboSubqueue::kNormal, 64)));
  EXPECT_FALSE(same_charges(base, make_packet_meta(7, 3, 3, false, PaboSubqueue::kBounce, 64)));
  EXPECT_FALSE(same_charges(make_packet_meta(255, 255, 255, true, PaboSubqueue::kBounce, 0),
                            make_packet_meta(255, 255, 255, true, PaboSubqueue::kNormal, 0)));
  // A PacketMeta made field by field (a lab host's) has padding bits of any value beside them.
  PacketMeta padded = base;
  uint32_t low;
  std::memcpy(&low, &padded, sizeof low);
  low |= 0xF8000000u;  // bits 27..31: no field
  std::memcpy(&padded, &low, sizeof low);
  EXPECT_TRUE(same_charges(base, padded));
}

}  // namespace
}  // namespace fcswitch
