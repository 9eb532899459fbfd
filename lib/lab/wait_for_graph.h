#pragma once
// A wait-for graph: vertex v waits for each vertex in edges[v]. A cycle is a set of waits no
// member can end by itself — with blocked queues as vertices, a deadlock.

#include <vector>

namespace fcswitch::lab {

// One cycle, as the vertices in wait order (each waits for the next, the last for the
// first); empty when the graph has none. Deterministic: the search starts at the lowest
// vertex and follows edges in the order given.
std::vector<int> find_cycle(const std::vector<std::vector<int>>& edges);

}  // namespace fcswitch::lab
