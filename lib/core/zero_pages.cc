#include "core/zero_pages.h"

#include <sys/mman.h>

#include <unistd.h>

#include <cerrno>
#include <system_error>
#include <vector>

namespace fcswitch {

ZeroPages::ZeroPages(size_t bytes) : bytes_(bytes ? bytes : 1) {
  data_ = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
               -1, 0);
  if (data_ == MAP_FAILED) throw std::system_error(errno, std::generic_category(), "mmap");
}

ZeroPages::~ZeroPages() {
  munmap(data_, bytes_);
}

size_t ZeroPages::resident_bytes() const {
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> resident((bytes_ + page - 1) / page);
  if (mincore(data_, bytes_, resident.data()) != 0)
    throw std::system_error(errno, std::generic_category(), "mincore");
  size_t pages = 0;
  for (const unsigned char r : resident) pages += r & 1u;
  return pages * page;
}

}  // namespace fcswitch
