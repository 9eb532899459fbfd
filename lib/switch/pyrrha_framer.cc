#include "switch/pyrrha_framer.h"

#include <rte_mbuf.h>
#include <rte_ring.h>
#include <rte_ring_elem.h>

#include <algorithm>

#include "switch/pyrrha_wire.h"
#include "wire/pyrrha_frame.h"

namespace fcswitch {

PyrrhaFramer::PyrrhaFramer(const PyrrhaFramerSettings& settings, rte_ring* messages)
    : settings_(settings), messages_(messages) {}

bool PyrrhaFramer::pending() const {
  return count_ || !rte_ring_empty(messages_);
}

bool PyrrhaFramer::ready() const {
  return !count_ && !starved_ && !rte_ring_empty(messages_);
}

bool PyrrhaFramer::build() {
  const unsigned want = std::min<unsigned>(kMaxFrames - count_, rte_ring_count(messages_));
  if (!want) return false;
  // The mbufs first, then as many messages as there are mbufs: a message with no mbuf never
  // leaves the ring, so nothing is held aside and the order stays FWD's.
  rte_mbuf** mbufs = frames_ + count_;
  unsigned got = want;
  if (rte_pktmbuf_alloc_bulk(settings_.pool, mbufs, want) != 0) {
    // The pool has fewer than a bulk: as many as it gives, the rest next time.
    for (got = 0; got < want; ++got)
      if (!(mbufs[got] = rte_pktmbuf_alloc(settings_.pool))) break;
  }
  starved_ = got < want;
  if (starved_) control_alloc_failures_.increment();
  if (!got) return false;
  pyrrha::Message messages[kMaxFrames];
  // We are the ring's only consumer: the `want` we counted are still there.
  rte_ring_sc_dequeue_bulk_elem(messages_, messages, sizeof(pyrrha::Message), got, nullptr);
  for (unsigned i = 0; i < got; ++i) {
    auto* data = reinterpret_cast<uint8_t*>(rte_pktmbuf_append(mbufs[i], wire::kPyrrhaFrameBytes));
    wire::encode_pyrrha(to_pyrrha_frame(messages[i], settings_.mac, settings_.priority), data);
    kinds_[count_ + i] = messages[i].kind;
  }
  count_ = static_cast<uint16_t>(count_ + got);
  return true;
}

bool PyrrhaFramer::send(PortIo& io) {
  if (!count_) return false;
  const uint16_t sent = io.tx_burst(frames_, count_);
  std::array<uint64_t, pyrrha::kMessageKinds> by_kind{};
  for (uint16_t i = 0; i < sent; ++i) ++by_kind[static_cast<size_t>(kinds_[i])];
  for (size_t k = 0; k < pyrrha::kMessageKinds; ++k)
    if (by_kind[k]) sent_[k].add(by_kind[k]);
  for (uint16_t i = sent; i < count_; ++i) {
    frames_[i - sent] = frames_[i];
    kinds_[i - sent] = kinds_[i];
  }
  count_ = static_cast<uint16_t>(count_ - sent);
  return sent > 0;
}

unsigned PyrrhaFramer::take_held(rte_mbuf** out, unsigned max) {
  unsigned n = 0;
  for (uint16_t i = 0; i < count_ && n < max; ++i) out[n++] = frames_[i];
  count_ = 0;
  return n;
}

}  // namespace fcswitch
