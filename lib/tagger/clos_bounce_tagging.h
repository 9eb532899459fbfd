#pragma once
// Tagger's scheme for Clos (§4.3): packets start with tag 1; a ToR or leaf that sends a packet
// up after it came down (a bounce) raises its tag by one; spines never change it. With ELP =
// shortest up-down paths plus every path of up to `bounces` bounces this needs bounces + 1
// lossless tags, which is optimal (§4.4). A packet bouncing once more gets no rule: lossy.

#include "tagger/switch_tag_rules.h"
#include "topology/topology.h"

namespace fcswitch::tagger {

// Needs every switch's tier. Rules for every tag a port can see: host ports only the first
// tag, switch-facing ports every tag 1 … bounces + 1.
SwitchTagRules clos_bounce_rules(const topology::Topology& topo, int bounces);

}  // namespace fcswitch::tagger
