#include "dpdk/interrupt_thread_park.h"

#include <rte_errno.h>
#include <rte_interrupts.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include <condition_variable>
#include <memory>
#include <mutex>

namespace fcswitch::dpdk {

namespace {

struct ParkState {
  std::mutex mutex;
  std::condition_variable changed;
  bool asked = false;
  bool parked = false;
};

// The callback of an eventfd of ours: says it is parked, then waits for a wake-up that never comes.
// The state is shared: the thread still waits on it while the process ends.
void park(void* arg) {
  std::unique_ptr<std::shared_ptr<ParkState>> owned(static_cast<std::shared_ptr<ParkState>*>(arg));
  const std::shared_ptr<ParkState> state = *owned;
  owned.reset();
  std::unique_lock lock(state->mutex);
  state->parked = true;
  state->changed.notify_all();
  state->changed.wait(lock, [] { return false; });
}

}  // namespace

bool park_interrupt_thread(std::chrono::milliseconds timeout) {
  if (rte_thread_is_intr()) return false;
  // One interrupt thread a process, so one state a process.
  static const auto state = std::make_shared<ParkState>();
  std::unique_lock lock(state->mutex);
  if (!state->asked) {
    // Not an alarm: rte_eal_cleanup waits for the alarm's callback to return. An interrupt
    // source of our own that nothing unregisters: the EAL keeps a copy of the handle (in
    // malloc's memory, not DPDK's, which rte_eal_cleanup unmaps) and the eventfd open.
    // The handle's API is marked experimental in 22.11, the one every driver makes its handles
    // with.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    const int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    rte_intr_handle* handle = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
    auto arg = std::make_unique<std::shared_ptr<ParkState>>(state);
    const uint64_t one = 1;
    if (fd < 0 || handle == nullptr || rte_intr_fd_set(handle, fd) != 0 ||
        rte_intr_type_set(handle, RTE_INTR_HANDLE_EXT) != 0 ||
        rte_intr_callback_register(handle, park, arg.get()) != 0) {
      spdlog::warn("the EAL's interrupt thread could not be parked: {}", rte_strerror(rte_errno));
      if (handle) rte_intr_instance_free(handle);
      if (fd >= 0) close(fd);
      return false;
    }
    rte_intr_instance_free(handle);
#pragma GCC diagnostic pop
    arg.release();  // the callback's now
    state->asked = true;
    if (write(fd, &one, sizeof one) != sizeof one)
      spdlog::warn("the EAL's interrupt thread could not be woken to park");
  }
  if (state->changed.wait_for(lock, timeout, [&] { return state->parked; })) return true;
  spdlog::warn("the EAL's interrupt thread did not park within {} ms (busy in a handler)",
               timeout.count());
  return false;
}

}  // namespace fcswitch::dpdk
