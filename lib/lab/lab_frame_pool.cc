#include "lab/lab_frame_pool.h"

#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_ring.h>
#include <sys/mman.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace fcswitch::lab {

namespace {

constexpr size_t kHugePageBytes = 2u << 20;  // x86's transparent huge page
constexpr unsigned kMinChunkFrames = 4096;   // 1.8 MB: the default pool of 32 767 in 8 steps
constexpr unsigned kChunksAtMost = 32;
constexpr char kOpsName[] = "fclab_growing";

// The pool's mempool ops state: a ring of its free objects, and the mapping
// that the objects are carved from, chunk by chunk, as the ring runs dry.
struct GrowingPool {
  void* mapping = nullptr;
  size_t mapping_bytes = 0;
  char* next = nullptr;  // the first byte no chunk has taken yet
  char* end = nullptr;
  size_t chunk_bytes = 0;
  rte_ring* free_objects = nullptr;
  rte_mempool_objhdr* last_initialised = nullptr;  // the pool's element list is in order
  bool growing = true;
  // Threads of fclab --threads allocate from one pool: one of them carves at a time.
  std::mutex carving;
};

// rte_mempool_set_ops_byname keeps it as the pool's config, before ops_alloc runs.
GrowingPool& state_of(const rte_mempool* pool) {
  return *static_cast<GrowingPool*>(pool->pool_config);
}

// The objects that a carving on this thread is populating: ops_enqueue holds them back from the
// free ring until each is an mbuf, since rte_mempool_populate_iova enqueues each as it places
// it, and another thread's allocation (fclab --threads) must never get one before. Per thread
// rather than per pool because the ops get no context but the pool, which every thread shares.
thread_local std::vector<void*>* carved_here = nullptr;

// The next chunk of objects into the pool, each made an mbuf. False when every one is there.
bool grow(rte_mempool* pool) {
  GrowingPool& g = state_of(pool);
  if (!g.growing || g.next >= g.end || pool->populated_size >= pool->size) return false;
  const size_t bytes = std::min<size_t>(g.chunk_bytes, static_cast<size_t>(g.end - g.next));
  std::vector<void*> carved;
  // Room for every object first: ops_enqueue must not throw through DPDK's C.
  carved.reserve(bytes / (pool->header_size + pool->elt_size + pool->trailer_size) + 1);
  carved_here = &carved;
  const int placed = rte_mempool_populate_iova(pool, g.next, RTE_BAD_IOVA, bytes, nullptr, nullptr);
  carved_here = nullptr;
  if (placed <= 0) return false;
  g.next += bytes;
  rte_mempool_objhdr* h =
      g.last_initialised ? STAILQ_NEXT(g.last_initialised, next) : STAILQ_FIRST(&pool->elt_list);
  for (; h; h = STAILQ_NEXT(h, next)) {
    rte_pktmbuf_init(pool, nullptr, h + 1, 0);
    g.last_initialised = h;
  }
  return rte_ring_enqueue_bulk(g.free_objects, carved.data(), static_cast<unsigned>(carved.size()),
                               nullptr) == carved.size();
}

int ops_alloc(rte_mempool* pool) {
  GrowingPool& g = state_of(pool);
  g.free_objects = rte_ring_create(fmt::format("{}_free", pool->name).c_str(),
                                   rte_align32pow2(pool->size + 1), SOCKET_ID_ANY, 0);
  if (!g.free_objects) return -rte_errno;
  pool->pool_data = &g;
  return 0;
}

// Called by rte_mempool_free whether or not ops_alloc ran: the state is the pool's config.
void ops_free(rte_mempool* pool) {
  auto* g = static_cast<GrowingPool*>(pool->pool_config);
  if (!g) return;
  rte_ring_free(g->free_objects);
  munmap(g->mapping, g->mapping_bytes);
  delete g;
  pool->pool_config = pool->pool_data = nullptr;
}

int ops_enqueue(rte_mempool* pool, void* const* objects, unsigned n) {
  if (carved_here) {
    carved_here->insert(carved_here->end(), objects, objects + n);
    return 0;
  }
  return rte_ring_enqueue_bulk(state_of(pool).free_objects, objects, n, nullptr) ? 0 : -ENOBUFS;
}

// Grows only when the free objects cannot serve the request: an allocation fails exactly when
// every one of the pool's `size` mbufs is out, as in a pool made whole at the start, so a run
// is the same whichever it has.
int ops_dequeue(rte_mempool* pool, void** objects, unsigned n) {
  GrowingPool& g = state_of(pool);
  if (rte_ring_dequeue_bulk(g.free_objects, objects, n, nullptr)) return 0;
  const std::lock_guard<std::mutex> carving(g.carving);
  // Another thread may have carved while this one waited.
  while (!rte_ring_dequeue_bulk(g.free_objects, objects, n, nullptr))
    if (!grow(pool)) return -ENOBUFS;
  return 0;
}

// The free objects and those not carved yet, which an allocation gets as well: what a pool
// made whole would count, so rte_mempool_in_use_count is what is out.
unsigned ops_count(const rte_mempool* pool) {
  const GrowingPool& g = state_of(pool);
  return rte_ring_count(g.free_objects) + (g.growing ? pool->size - pool->populated_size : 0);
}

// Registered once per process, as DPDK's drivers register theirs: it holds no state (each
// pool's is its config). The name is kOpsName's.
rte_mempool_ops growing_ops = {
    .name = "fclab_growing",
    .alloc = ops_alloc,
    .free = ops_free,
    .enqueue = ops_enqueue,
    .dequeue = ops_dequeue,
    .get_count = ops_count,
    .calc_mem_size = nullptr,
    .populate = nullptr,
    .get_info = nullptr,
    .dequeue_contig_blocks = nullptr,
};

RTE_MEMPOOL_REGISTER_OPS(growing_ops);

[[noreturn]] void fail(rte_mempool* pool, const std::string& name, unsigned mbufs, const char* step,
                       int error) {
  rte_mempool_free(pool);
  throw std::runtime_error(
      fmt::format("lab frame pool {} of {} mbufs: {}: {}", name, mbufs, step, rte_strerror(error)));
}

}  // namespace

rte_mempool* create_lab_frame_pool(const std::string& name, unsigned mbufs, unsigned cache,
                                   uint16_t buffer_bytes) {
  constexpr unsigned kFlags = RTE_MEMPOOL_F_NO_IOVA_CONTIG;
  rte_mempool* pool =
      rte_mempool_create_empty(name.c_str(), mbufs, sizeof(rte_mbuf) + buffer_bytes, cache,
                               sizeof(rte_pktmbuf_pool_private), SOCKET_ID_ANY, kFlags);
  if (!pool) fail(nullptr, name, mbufs, "create", rte_errno);
  const size_t object_bytes = pool->header_size + pool->elt_size + pool->trailer_size;
  const size_t bytes = RTE_ALIGN_CEIL(object_bytes * mbufs, kHugePageBytes);
  void* base = mmap(nullptr, bytes + kHugePageBytes, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) fail(pool, name, mbufs, "mmap", errno);
  auto* g = new GrowingPool;
  g->mapping = base;
  g->mapping_bytes = bytes + kHugePageBytes;
  g->next = RTE_PTR_ALIGN_CEIL(static_cast<char*>(base), kHugePageBytes);
  g->end = g->next + bytes;
  g->chunk_bytes = object_bytes * std::max(kMinChunkFrames, mbufs / kChunksAtMost + 1);
  // Where huge pages are not given this is 4 KB pages, as before: nothing to report. Pages are
  // taken as chunks are carved.
  (void)madvise(g->next, bytes, MADV_HUGEPAGE);
  if (const int r = rte_mempool_set_ops_byname(pool, kOpsName, g)) {
    munmap(base, g->mapping_bytes);
    delete g;
    fail(pool, name, mbufs, "ops", -r);
  }
  rte_pktmbuf_pool_private room{};
  room.mbuf_data_room_size = buffer_bytes;
  rte_pktmbuf_pool_init(pool, &room);
  if (!grow(pool)) fail(pool, name, mbufs, "populate", ENOMEM);  // ops_free unmaps
  return pool;
}

void stop_lab_frame_pool_growing(rte_mempool* pool) {
  state_of(pool).growing = false;
}

void free_lab_frame_pool(rte_mempool* pool) {
  if (!pool) return;
  stop_lab_frame_pool_growing(pool);
  rte_mempool_free(pool);
}

}  // namespace fcswitch::lab
