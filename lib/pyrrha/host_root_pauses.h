#pragma once
// The congestion roots that hold an end-host's flows (Pyrrha §4.4, "Cooperation on end-hosts":
// "end-hosts can respond to PAUSE (or RESUME and MERGE) frames … to pause and resume at a
// per-flow granularity"). The host keeps the set of roots its switch has paused; a flow whose
// path crosses one of them (leaves switch `root.switch_id` by port `root.port`) waits, the
// others go on. The messages act as the authors' ns-3 code has its NICs act on them
// (NASA-NJU/Pyrrha-NS3, QbbNetDevice::Receive, CI signals):
//   PAUSE(R)          R is paused (again: no change);
//   RESUME(R)         R is not (unknown: no change);
//   MERGE{R, old}     old is not paused, and neither is R: the new root starts resumed
//                     (NOTES.md "Pyrrha"), the relaying switch pauses it later if it must;
//   DEALLOC           goes downstream, never to a host: counted, ignored.
// A host learns no hop distance and keeps no queue per root: it is the leaf of every tree.
//
// Pure (docs/architecture.md): sized once from PyrrhaParams::max_roots, nothing allocated after; a
// PAUSE for a new root once every slot is taken is counted and ignored, as the switch's table
// does (PyrrhaCounters::table_full_ignored).

#include <array>
#include <cstdint>
#include <span>

#include "params/pyrrha_params.h"
#include "pyrrha/pyrrha_message.h"
#include "pyrrha/root_id.h"
#include "pyrrha/root_index.h"

namespace fcswitch::pyrrha {

class HostRootPauses {
 public:
  explicit HostRootPauses(const config::PyrrhaParams& params);

  // Acts on one received message; returns whether the set of paused roots changed.
  bool apply(const Message& message);
  // Whether a path (every switch hop {switch, egress port} from the host to the destination)
  // crosses a paused root. An empty path (no prediction: static routes) never does.
  bool blocks(std::span<const RootId> path) const;
  bool paused(RootId root) const { return index_.find(root) != RootIndex::kNone; }

  // Bumped by every change of the paused set: a flow's cached verdict is stale when its
  // generation differs (no per-packet lookup while nothing changes).
  uint64_t generation() const { return generation_; }
  uint32_t roots_paused() const { return index_.size(); }
  // Messages applied, by MessageKind (a repeated PAUSE or an unknown RESUME too).
  uint64_t received(MessageKind kind) const { return received_[static_cast<size_t>(kind)]; }
  uint64_t table_full_ignored() const { return table_full_ignored_; }

 private:
  bool resume(RootId root);

  RootIndex index_;
  uint64_t generation_ = 0;
  std::array<uint64_t, kMessageKinds> received_{};
  uint64_t table_full_ignored_ = 0;
};

}  // namespace fcswitch::pyrrha
