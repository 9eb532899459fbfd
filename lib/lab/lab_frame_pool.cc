#include "lab/lab_frame_pool.h"

#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_mbuf_pool_ops.h>
#include <sys/mman.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace fcswitch::lab {

namespace {

constexpr size_t kHugePageBytes = 2u << 20;  // x86's transparent huge page
constexpr uint16_t kDataRoomBytes = RTE_PKTMBUF_HEADROOM + kLabFrameCarriedBytes;

struct Mapping {
  void* base;
  size_t bytes;
};

// rte_mempool_free calls it for the one chunk the pool has.
void unmap_chunk(rte_mempool_memhdr*, void* opaque) {
  auto* mapping = static_cast<Mapping*>(opaque);
  munmap(mapping->base, mapping->bytes);
  delete mapping;
}

[[noreturn]] void fail(rte_mempool* pool, const std::string& name, unsigned mbufs, const char* step,
                       int error) {
  rte_mempool_free(pool);
  throw std::runtime_error(
      fmt::format("lab frame pool {} of {} mbufs: {}: {}", name, mbufs, step, rte_strerror(error)));
}

}  // namespace

rte_mempool* create_lab_frame_pool(const std::string& name, unsigned mbufs, unsigned cache) {
  constexpr unsigned kFlags = RTE_MEMPOOL_F_NO_IOVA_CONTIG;
  rte_mempool* pool =
      rte_mempool_create_empty(name.c_str(), mbufs, sizeof(rte_mbuf) + kDataRoomBytes, cache,
                               sizeof(rte_pktmbuf_pool_private), SOCKET_ID_ANY, kFlags);
  if (!pool) fail(nullptr, name, mbufs, "create", rte_errno);
  if (const int r = rte_mempool_set_ops_byname(pool, rte_mbuf_best_mempool_ops(), nullptr))
    fail(pool, name, mbufs, "ops", -r);
  rte_pktmbuf_pool_private room{};
  room.mbuf_data_room_size = kDataRoomBytes;
  rte_pktmbuf_pool_init(pool, &room);

  const size_t object_bytes = pool->header_size + pool->elt_size + pool->trailer_size;
  const size_t bytes = RTE_ALIGN_CEIL(object_bytes * mbufs, kHugePageBytes);
  void* base = mmap(nullptr, bytes + kHugePageBytes, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) fail(pool, name, mbufs, "mmap", errno);
  auto* mapping = new Mapping{base, bytes + kHugePageBytes};
  char* start = RTE_PTR_ALIGN_CEIL(static_cast<char*>(base), kHugePageBytes);
  // Where huge pages are not given this is 4 KB pages, as before: nothing to report.
  (void)madvise(start, bytes, MADV_HUGEPAGE);
  const int populated =
      rte_mempool_populate_iova(pool, start, RTE_BAD_IOVA, bytes, unmap_chunk, mapping);
  if (populated < 0 || pool->populated_size != pool->size) {
    if (populated <= 0) unmap_chunk(nullptr, mapping);  // not the pool's chunk yet
    fail(pool, name, mbufs, "populate", populated < 0 ? -populated : ENOMEM);
  }
  rte_mempool_obj_iter(pool, rte_pktmbuf_init, nullptr);
  return pool;
}

}  // namespace fcswitch::lab
