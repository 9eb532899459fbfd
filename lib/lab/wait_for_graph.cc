#include "lab/wait_for_graph.h"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace fcswitch::lab {

std::vector<int> find_cycle(const std::vector<std::vector<int>>& edges) {
  enum : uint8_t { kUnseen, kOnPath, kDone };
  const int n = static_cast<int>(edges.size());
  std::vector<uint8_t> state(edges.size(), kUnseen);
  // Depth-first, without recursion: (vertex, next edge to follow) along the current path.
  std::vector<std::pair<int, size_t>> path;
  for (int root = 0; root < n; ++root) {
    if (state[root] != kUnseen) continue;
    path.emplace_back(root, 0);
    state[root] = kOnPath;
    while (!path.empty()) {
      auto& [v, next] = path.back();
      if (next == edges[v].size()) {
        state[v] = kDone;
        path.pop_back();
        continue;
      }
      const int w = edges[v][next++];
      if (w < 0 || w >= n || state[w] == kDone) continue;
      if (state[w] == kOnPath) {  // back to the path: the cycle is w … v
        std::vector<int> cycle;
        auto from = std::find_if(path.begin(), path.end(),
                                 [w](const auto& step) { return step.first == w; });
        for (auto it = from; it != path.end(); ++it) cycle.push_back(it->first);
        return cycle;
      }
      state[w] = kOnPath;
      path.emplace_back(w, 0);
    }
  }
  return {};
}

}  // namespace fcswitch::lab
