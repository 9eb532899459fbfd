#include "tagger/landmark_reachability.h"

#include <algorithm>

namespace fcswitch::tagger {

namespace {

constexpr int kLandmarks = 64;  // one bit each in a uint64_t

}  // namespace

void LandmarkReachability::push(std::vector<uint64_t>& mask, int start, uint64_t bits,
                                const Adjacency& next, std::vector<Push>& stack) {
  stack.assign(1, {start, bits});
  while (!stack.empty()) {
    const Push p = stack.back();
    stack.pop_back();
    const uint64_t fresh = p.bits & ~mask[p.node];
    if (!fresh) continue;
    mask[p.node] |= fresh;
    for (int x : next[p.node])
      if (fresh & ~mask[x]) stack.push_back({x, fresh});
  }
}

void LandmarkReachability::edge_added(int u, int v, const Adjacency& out, const Adjacency& in) {
  if (const uint64_t bits = from_landmarks_[u] & ~from_landmarks_[v])
    push(from_landmarks_, v, bits, out, stack_);
  if (const uint64_t bits = to_landmarks_[v] & ~to_landmarks_[u])
    push(to_landmarks_, u, bits, in, stack_);
}

void LandmarkReachability::choose(const std::vector<int>& topological, const Adjacency& out,
                                  const Adjacency& in) {
  std::vector<int> best = topological;
  const auto weight = [&](int x) { return static_cast<uint64_t>(in[x].size()) * out[x].size(); };
  const size_t landmarks = std::min<size_t>(kLandmarks, best.size());
  // Ties by node id, so that the choice is the same whatever the order was.
  std::partial_sort(
      best.begin(), best.begin() + static_cast<std::ptrdiff_t>(landmarks), best.end(),
      [&](int a, int b) { return weight(a) != weight(b) ? weight(a) > weight(b) : a < b; });
  std::fill(from_landmarks_.begin(), from_landmarks_.end(), 0);
  std::fill(to_landmarks_.begin(), to_landmarks_.end(), 0);
  for (size_t i = 0; i < landmarks; ++i) {
    from_landmarks_[best[i]] = to_landmarks_[best[i]] = uint64_t{1} << i;
  }
  // In topological order a node's predecessors are final before it is read, and backwards
  // its successors.
  for (int x : topological)
    for (int p : in[x]) from_landmarks_[x] |= from_landmarks_[p];
  for (auto it = topological.rbegin(); it != topological.rend(); ++it)
    for (int s : out[*it]) to_landmarks_[*it] |= to_landmarks_[s];
}

}  // namespace fcswitch::tagger
