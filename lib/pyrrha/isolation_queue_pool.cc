#include "pyrrha/isolation_queue_pool.h"

#include <algorithm>

namespace fcswitch::pyrrha {

// At least one queue per port: the config reader refuses 0 (pyrrha_params_problem), and the
// exhaustion hash needs something to divide by.
IsolationQueuePool::IsolationQueuePool(uint16_t num_ports, uint16_t queues_per_port)
    : num_ports_(num_ports),
      per_port_(std::max<uint16_t>(queues_per_port, 1)),
      queues_(size_t{num_ports} * per_port_),
      free_(size_t{num_ports} * per_port_),
      free_top_(num_ports, per_port_) {
  // Queue 0 on top: the first root of a port gets IQ 0, the next IQ 1, ...
  for (uint16_t p = 0; p < num_ports; ++p) {
    for (uint16_t i = 0; i < per_port_; ++i) {
      free_[size_t{p} * per_port_ + i] = static_cast<uint16_t>(per_port_ - 1 - i);
    }
  }
}

IsolationQueuePool::Grant IsolationQueuePool::acquire(uint16_t egress, RootId root) {
  Grant grant;
  uint16_t& top = free_top_[egress];
  if (top > 0) {
    --top;
    grant.iq = free_[size_t{egress} * per_port_ + top];
    max_in_use_ = std::max(max_in_use_, ++in_use_);
    max_in_use_on_a_port_ = std::max(max_in_use_on_a_port_, in_use(egress));
  } else {
    grant.iq = static_cast<uint16_t>(RootIdHash{}(root) % per_port_);
    grant.shared = true;
  }
  ++at(egress, grant.iq).users;
  return grant;
}

void IsolationQueuePool::release(uint16_t egress, uint16_t iq) {
  Queue& q = at(egress, iq);
  if (q.users == 0) return;
  if (--q.users > 0) return;
  q = Queue{};
  free_[size_t{egress} * per_port_ + free_top_[egress]++] = iq;
  --in_use_;
}

void IsolationQueuePool::remove_bytes(uint16_t egress, uint16_t iq, uint32_t bytes) {
  Queue& q = at(egress, iq);
  q.bytes = q.bytes > bytes ? q.bytes - bytes : 0;
}

uint16_t IsolationQueuePool::in_use(uint16_t egress) const {
  return static_cast<uint16_t>(per_port_ - free_top_[egress]);
}

}  // namespace fcswitch::pyrrha
