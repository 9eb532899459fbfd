#pragma once
// What the congestion-root table asks the datapath to send (Pyrrha §4.1, §4.4): PAUSE, RESUME
// and MERGE go upstream out of an ingress port; DEALLOC goes downstream out of an egress port.
// DEALLOC is not in the paper's text; the authors' ns-3 code sends it to dissolve a tree from
// its leaves (switch-node.cc, CheckAndSendDealloc), and §4.3 needs an equivalent.

#include <array>
#include <cstdint>
#include <string_view>

#include "pyrrha/root_id.h"

namespace fcswitch::pyrrha {

enum class MessageKind : uint8_t { kPause, kResume, kMerge, kDealloc };
inline constexpr size_t kMessageKinds = 4;

inline constexpr std::array<std::string_view, kMessageKinds> kMessageKindNames = {
    "pause", "resume", "merge", "dealloc"};

inline std::string_view name(MessageKind kind) {
  return kMessageKindNames[static_cast<size_t>(kind)];
}

struct Message {
  MessageKind kind = MessageKind::kPause;
  RootId root;      // MERGE: the new (real) root
  RootId old_root;  // MERGE only: the false-positive root being merged into `root`
  // Hops from the receiver to the root's switch: 1 from the root itself, +1 per relay (the
  // authors' CITag hop). PAUSE and MERGE carry it; the receiver's IQ level is its distance.
  uint16_t hop = 0;
  // Sent: the port to send it out of. Received: ignored (the port is an argument).
  uint16_t port = 0;

  friend bool operator==(const Message&, const Message&) = default;
};

}  // namespace fcswitch::pyrrha
