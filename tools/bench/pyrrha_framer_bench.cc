// Cost of TX's part of Pyrrha (switch/pyrrha_framer.h), never a test: a TX poll of an idle port
// without Pyrrha and with Pyrrha's ring empty (what every poll of a Pyrrha switch pays), and
// polls that frame and send 1 or 32 of FWD's messages. Prints ns per poll or per frame (Google
// Benchmark; the frames' mbufs are freed inside the loop, as the link would); under
// `valgrind --tool=callgrind` the inclusive Ir of TxTask::poll divided by its calls, or by the
// frames, gives load-independent instruction counts.

#include <benchmark/benchmark.h>
#include <rte_eal.h>
#include <rte_mbuf.h>
#include <rte_ring.h>
#include <rte_ring_elem.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include "pyrrha/pyrrha_message.h"
#include "switch/control_pool.h"
#include "switch/ring_port_io.h"
#include "switch/switch_state.h"
#include "switch/tx_task.h"

namespace fcswitch {
namespace {

constexpr int kPyrrhaPriority = 3;

// One port's TX task on two rings, with or without Pyrrha's rings.
class Bed {
 public:
  explicit Bed(bool pyrrha) : name_(next_name()), state_(1, name_, 64, 64) {
    const std::string& name = name_;
    if (pyrrha) state_.add_pyrrha_rings(name);
    control_pool_ = create_control_pool(name + "_ctl", 255, 32);  // as SwitchNode's
    rx_ = rte_ring_create((name + "_rx").c_str(), 64, 0, RING_F_SP_ENQ | RING_F_SC_DEQ);
    wire_ = rte_ring_create((name + "_tx").c_str(), 256, 0, RING_F_SP_ENQ | RING_F_SC_DEQ);
    if (!rx_ || !wire_) throw std::runtime_error("rings");
    io_ = std::make_unique<RingPortIo>(rx_, wire_);
    TxFlowControl flow;
    flow.mac = wire::MacAddress{0x02'00'00'00'AA'01ull};
    flow.control_pool = control_pool_;
    if (pyrrha) flow.pyrrha_priority = kPyrrhaPriority;
    tx_ = std::make_unique<TxTask>("tx:" + name, 0, *io_, false, SchedulerConfig{}, std::move(flow),
                                   state_);
  }
  ~Bed() {
    tx_.reset();
    free_sent();
    rte_ring_free(rx_);
    rte_ring_free(wire_);
    rte_mempool_free(control_pool_);
  }

  TxTask& tx() { return *tx_; }
  // FWD's table: `n` messages out of this port, PAUSE and RESUME in turn.
  void fwd_sends(unsigned n) {
    pyrrha::Message batch[kBurstSize];
    for (unsigned i = 0; i < n; ++i) {
      batch[i].kind = i % 2 ? pyrrha::MessageKind::kResume : pyrrha::MessageKind::kPause;
      batch[i].root = pyrrha::RootId{7, static_cast<uint16_t>(i)};
      batch[i].hop = 1;
    }
    rte_ring_sp_enqueue_bulk_elem(state_.pyrrha_rings[0].get(), batch, sizeof(pyrrha::Message), n,
                                  nullptr);
  }
  // The link: takes and frees what the port holds.
  void free_sent() {
    rte_mbuf* frames[kBurstSize];
    unsigned n;
    while ((n = rte_ring_sc_dequeue_burst(wire_, reinterpret_cast<void**>(frames), kBurstSize,
                                          nullptr)))
      rte_pktmbuf_free_bulk(frames, n);
  }

 private:
  static std::string next_name() {
    static int count = 0;
    return "pfb" + std::to_string(count++);
  }

  std::string name_;
  SwitchState state_;
  rte_mempool* control_pool_ = nullptr;
  rte_ring* rx_ = nullptr;
  rte_ring* wire_ = nullptr;
  std::unique_ptr<RingPortIo> io_;
  std::unique_ptr<TxTask> tx_;
};

// An idle port's poll: range(0) = 1 with Pyrrha (its ring empty), 0 without.
void BM_IdlePoll(benchmark::State& state) {
  Bed bed(state.range(0) != 0);
  uint64_t now = 0;
  for (auto _ : state) benchmark::DoNotOptimize(bed.tx().run_once(++now));
}
BENCHMARK(BM_IdlePoll)->Arg(0)->Arg(1);

// range(0) messages framed and sent by one poll; items are frames.
void BM_FramePoll(benchmark::State& state) {
  Bed bed(true);
  const auto n = static_cast<unsigned>(state.range(0));
  uint64_t now = 0;
  for (auto _ : state) {
    bed.fwd_sends(n);
    benchmark::DoNotOptimize(bed.tx().run_once(++now));
    bed.free_sent();
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_FramePoll)->Arg(1)->Arg(kBurstSize);

}  // namespace
}  // namespace fcswitch

int main(int argc, char** argv) {
  const std::string prefix = "--file-prefix=fcsw_bench_pyrrha_framer_" + std::to_string(getpid());
  const char* eal_argv[] = {"fcswitch-bench-pyrrha-framer",
                            "--no-huge",
                            "-m",
                            "256",
                            "--no-pci",
                            "--no-telemetry",
                            "--log-level=warning",
                            "-l",
                            "0",
                            prefix.c_str()};
  if (rte_eal_init(static_cast<int>(std::size(eal_argv)), const_cast<char**>(eal_argv)) < 0)
    return 1;
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  const std::string runtime_dir = rte_eal_get_runtime_dir();
  rte_eal_cleanup();
  std::error_code ignored;
  std::filesystem::remove_all(runtime_dir, ignored);
  return 0;
}
