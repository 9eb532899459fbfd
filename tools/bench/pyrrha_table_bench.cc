// Cost of Pyrrha's congestion-root table on the per-packet path (lib/pyrrha), never a test:
// what FWD asks of it for every packet (classify a 4-hop onward path, enqueue) and what TX
// asks (dequeue), for an OQ packet that matches no root and for an IQ packet under two
// hierarchical roots, with the table holding a few or many roots. Prints ns/packet (Google
// Benchmark); under `valgrind --tool=callgrind` the inclusive Ir of classify/enqueued/dequeued
// divided by their calls gives load-independent instruction counts.

#include <benchmark/benchmark.h>

#include <vector>

#include "params/pyrrha_params.h"
#include "pyrrha/congestion_root_table.h"

namespace fcswitch::pyrrha {
namespace {

constexpr uint16_t kPorts = 32;
constexpr uint32_t kFrameBytes = 1000;

config::PyrrhaParams params() {
  config::PyrrhaParams p;
  p.k_pause_bytes = 128'000;
  p.k_resume_bytes = 64'000;
  p.max_isolation_queues = 100;
  p.max_roots = 4096;
  return p;
}

// A table that knows `roots` roots, two of them on egress 0 for the IQ path (near {100, 1},
// far {300, 7}), both resumed with a resumed child on ingress 2 so that they stay (a leaf with
// an empty resumed IQ would release its root after every packet).
CongestionRootTable table_with(uint32_t roots) {
  CongestionRootTable t(1, kPorts, params());
  const RootId near{100, 1};
  const RootId far{300, 7};
  t.received(0, Message{MessageKind::kPause, near, {}, 1, 0});
  t.received(0, Message{MessageKind::kPause, far, {}, 3, 0});
  for (uint32_t r = 2; r < roots; ++r) {
    t.received(
        static_cast<uint16_t>(1 + r % (kPorts - 1)),
        Message{MessageKind::kPause, RootId{1000 + r, static_cast<uint16_t>(r % 48)}, {}, 2, 0});
  }
  for (const std::vector<PathHop>& path :
       {std::vector<PathHop>{near}, std::vector<PathHop>{{100, 2}, {200, 5}, far}}) {
    const QueueChoice q = t.classify(0, path);
    t.enqueued(0, q, 2, 200'000, path);  // pauses ingress 2 for the root
    t.received(0, Message{MessageKind::kResume, path.back(), {}, 0, 0});
    t.dequeued(0, q, 2, 200'000, path);  // resumes it: a child until it sends DEALLOC
  }
  return t;
}

void BM_OutputQueuePacket(benchmark::State& state) {
  CongestionRootTable t = table_with(static_cast<uint32_t>(state.range(0)));
  const std::vector<PathHop> path{{100, 2}, {200, 5}, {300, 8}, {400, 1}};
  for (auto _ : state) {
    const QueueChoice q = t.classify(0, path);
    benchmark::DoNotOptimize(t.enqueued(0, q, 3, kFrameBytes, path));
    benchmark::DoNotOptimize(t.dequeued(0, q, 3, kFrameBytes, path));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_OutputQueuePacket)->Arg(2)->Arg(64)->Arg(4000);

// Classified into IQ(near), moved into IQ(far), then into the OQ and out: four table events.
void BM_TwoTierIqPacket(benchmark::State& state) {
  CongestionRootTable t = table_with(static_cast<uint32_t>(state.range(0)));
  const std::vector<PathHop> path{{100, 1}, {200, 5}, {300, 7}, {400, 1}};
  if (t.classify(0, path).level != 1) state.SkipWithError("the path matches no IQ");
  for (auto _ : state) {
    QueueChoice q = t.classify(0, path);
    t.enqueued(0, q, 3, kFrameBytes, path);
    q = t.dequeued(0, q, 3, kFrameBytes, path).next;
    t.enqueued(0, q, 3, kFrameBytes, path);
    q = t.dequeued(0, q, 3, kFrameBytes, path).next;
    t.enqueued(0, q, 3, kFrameBytes, path);
    benchmark::DoNotOptimize(t.dequeued(0, q, 3, kFrameBytes, path));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_TwoTierIqPacket)->Arg(2)->Arg(64)->Arg(4000);

}  // namespace
}  // namespace fcswitch::pyrrha

BENCHMARK_MAIN();
