#include "switch/control_pool.h"

#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include <fmt/format.h>

#include <stdexcept>

#include "wire/credit_frame.h"
#include "wire/pfc_frame.h"
#include "wire/pyrrha_frame.h"

namespace fcswitch {

namespace {
constexpr uint16_t kControlDataRoomBytes = RTE_PKTMBUF_HEADROOM + 128;
static_assert(wire::kCreditFrameBytes <= 128 && wire::kPfcFrameBytes <= 128 &&
              wire::kPyrrhaFrameBytes <= 128);
}  // namespace

rte_mempool* create_control_pool(const std::string& name, unsigned mbufs, unsigned cache) {
  const int socket = static_cast<int>(rte_socket_id());
  rte_mempool* pool = rte_pktmbuf_pool_create(name.c_str(), mbufs, cache, 0, kControlDataRoomBytes,
                                              socket < 0 ? 0 : socket);
  if (!pool)
    throw std::runtime_error(
        fmt::format("control mempool {} of {} mbufs: {}", name, mbufs, rte_strerror(rte_errno)));
  return pool;
}

}  // namespace fcswitch
