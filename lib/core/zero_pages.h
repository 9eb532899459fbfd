#pragma once
// Zeroed memory that costs only the pages written: an anonymous mapping of its own, whose pages
// the kernel backs at their first write. For large tables of counters most of which stay 0 (a
// switch's counts by ingress and egress, of which a network uses a few): std::vector or calloc
// write every byte (glibc clears a chunk it takes from its heap), and all of it is resident.

#include <cstddef>

namespace fcswitch {

class ZeroPages {
 public:
  // Throws std::system_error when the mapping cannot be made.
  explicit ZeroPages(size_t bytes);
  ~ZeroPages();
  ZeroPages(const ZeroPages&) = delete;
  ZeroPages& operator=(const ZeroPages&) = delete;

  // Page-aligned; every byte 0 until written.
  void* data() const { return data_; }
  size_t bytes() const { return bytes_; }
  // The bytes of the pages the kernel backs now (mincore): those written, and those read that
  // it chose to back.
  size_t resident_bytes() const;

 private:
  void* data_;
  size_t bytes_;
};

}  // namespace fcswitch
