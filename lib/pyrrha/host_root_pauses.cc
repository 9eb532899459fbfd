#include "pyrrha/host_root_pauses.h"

namespace fcswitch::pyrrha {

HostRootPauses::HostRootPauses(const config::PyrrhaParams& params) : index_(params.max_roots) {}

bool HostRootPauses::resume(RootId root) {
  if (!paused(root)) return false;
  index_.erase(root);
  return true;
}

bool HostRootPauses::apply(const Message& m) {
  ++received_[static_cast<size_t>(m.kind)];
  bool changed = false;
  switch (m.kind) {
    case MessageKind::kPause: {
      if (index_.insert(m.root, changed) == RootIndex::kNone) ++table_full_ignored_;
      break;
    }
    case MessageKind::kResume:
      changed = resume(m.root);
      break;
    case MessageKind::kMerge:
      // Both, as the authors' NIC does (QbbNetDevice::Receive): the old root's pause is void,
      // and the new root starts resumed (NOTES.md "Pyrrha").
      changed = resume(m.old_root);
      changed = resume(m.root) || changed;
      break;
    case MessageKind::kDealloc:
      break;
  }
  if (changed) ++generation_;
  return changed;
}

bool HostRootPauses::blocks(std::span<const RootId> path) const {
  if (index_.size() == 0) return false;
  for (const RootId& hop : path)
    if (paused(hop)) return true;
  return false;
}

}  // namespace fcswitch::pyrrha
