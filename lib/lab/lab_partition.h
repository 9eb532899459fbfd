#pragma once
// How fclab --threads N splits a network among its threads. Each thread polls its part's nodes
// and links on a schedule of its own (lab_schedule.h); a link between two parts is polled at
// its sending end by one and at its receiving end by the other. The threads step their virtual
// clocks together in windows as long as the smallest delay of such a link (the lookahead:
// nothing sent in a window can arrive within it), so that each node sees what it sees on one
// thread, step for step: conservative synchronisation.
//
// A host stays with its switch, and nodes that a link without delay joins stay together. The
// parts are grown one at a time (greedy graph growing): each starts from the node not yet
// placed with the fewest links (the first of those), and takes next the node with the most
// links into the part less those out of it, until the part holds its share of the ports. A
// fat-tree splits by pods, its cores shared.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "scenario/lab_scenario.h"

namespace fcswitch::lab {

struct LabPartition {
  int parts = 1;
  std::vector<int> part_of_node;  // [node]: 0 … parts − 1
  uint64_t lookahead_ns = 0;      // the smallest delay of a link between two parts; 0: one part
  size_t links_between = 0;       // links whose ends are in two parts
};

// Throws std::invalid_argument saying why a scenario cannot run on `threads` threads: a clock
// other than "virtual", closed-loop workloads (a flow's end starts its host's next flow at the
// same instant, wherever the two are), fewer parts than threads.
LabPartition partition_lab(const LabScenario& scenario, int threads);

}  // namespace fcswitch::lab
