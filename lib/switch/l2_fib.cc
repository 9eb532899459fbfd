#include "switch/l2_fib.h"

#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_jhash.h>

#include <fmt/format.h>

#include <stdexcept>

namespace fcswitch {

namespace {
// The hash stores a void* per key: port + 1 (so that 0 means nothing) and a static flag.
constexpr uintptr_t kStaticFlag = uintptr_t{1} << 31;
}  // namespace

L2Fib::L2Fib(const std::string& name, uint32_t capacity) {
  rte_hash_parameters params{};
  params.name = name.c_str();
  params.entries = capacity;
  params.key_len = sizeof(uint64_t);
  params.hash_func = rte_jhash;
  params.socket_id = SOCKET_ID_ANY;
  hash_ = rte_hash_create(&params);
  if (!hash_) throw std::runtime_error(fmt::format("fib {}: {}", name, rte_strerror(rte_errno)));
}

L2Fib::~L2Fib() {
  rte_hash_free(hash_);
}

bool L2Fib::store(wire::MacAddress mac, int port, bool is_static) {
  const uintptr_t data = static_cast<uintptr_t>(port + 1) | (is_static ? kStaticFlag : 0);
  return rte_hash_add_key_data(hash_, &mac.value, reinterpret_cast<void*>(data)) == 0;
}

bool L2Fib::add_static(wire::MacAddress mac, int port) {
  return store(mac, port, true);
}

int L2Fib::lookup(wire::MacAddress mac) const {
  void* data = nullptr;
  if (rte_hash_lookup_data(hash_, &mac.value, &data) < 0) return kUnknown;
  return static_cast<int>((reinterpret_cast<uintptr_t>(data) & ~kStaticFlag) - 1);
}

bool L2Fib::learn(wire::MacAddress mac, int port) {
  void* data = nullptr;
  if (rte_hash_lookup_data(hash_, &mac.value, &data) >= 0) {
    const auto value = reinterpret_cast<uintptr_t>(data);
    if ((value & kStaticFlag) || static_cast<int>(value - 1) == port) return true;
  }
  return store(mac, port, false);
}

void L2Fib::clear() {
  rte_hash_reset(hash_);
}

int32_t L2Fib::size() const {
  return rte_hash_count(hash_);
}

}  // namespace fcswitch
