// The virtual clock's schedule (lab/lab_schedule.h) skips the polls it reasons would change
// nothing: a TX task whose generators' quiet bands hold the occupancy, a node whose link took
// frames from a TX task that was not waiting for room, an RX task whose ring is empty, a FWD
// with no input. Polling every task and link at every step until nothing moves
// (lab.clock = "virtual-poll-all", as the lab did before the schedule) must give the same run
// wherever FWD's and the hosts' round robins, which turn once a poll, decide nothing: the same
// frames at the same times, the same clock steps. One check for every wake rule at once: a
// skipped poll that would have acted changes the summary below. (Checked by mutation: TX
// never woken by a band, nor by its link's room, nor one RX by its link: each fails it.)

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lab/lab_network.h"
#include "results/lab_report.h"
#include "scenario/scenario_file.h"
#include "test_constants.h"

namespace fcswitch::lab {
namespace {

const std::string kConfigLab = std::string(FCSWITCH_SOURCE_DIR) + "/config/lab/";
const std::string kTestsLab = std::string(FCSWITCH_SOURCE_DIR) + "/tests/lab/";

using test_constants::kFairCrossbar;
constexpr char kCutAndBack[] =
    R"(events=[{ at = "1ms", fail = "S1:cw" }, { at = "1.3ms", restore = "S1:cw" }])";

struct Case {
  std::string file;
  std::vector<std::string> sets;
};

// summary.json but what names the clock (the overrides list it too).
nlohmann::ordered_json summary_of(const Case& c, const char* clock) {
  std::vector<std::string> sets = c.sets;
  sets.push_back(std::string("lab.clock=") + clock);
  LabNetwork network(load_lab_scenario(c.file, sets));
  nlohmann::ordered_json s = summary_json(network.run());
  for (const char* key : {"clock", "overrides"}) s.erase(key);
  return s;
}

TEST(LabSchedule, SkipsOnlyPollsThatChangeNothing) {
  const std::string ring = kConfigLab + "gfc-ring.toml";
  const std::vector<Case> cases{
      // Every engine's wake path (PFC's XOFF/XON band, CBFC's period, GFC's stages and its τ
      // meter) under the three switch models in which, on this ring, FWD's turn decides nothing
      // (input-hol with input turns, the scenario's own, turns its crossbar with it).
      {ring, {"flow_control.engine=pfc", "switch.queueing=output", "lab.duration=10ms"}},
      {ring, {"flow_control.engine=cbfc", "switch.queueing=output", "lab.duration=10ms"}},
      {ring, {"flow_control.engine=gfc-buffer", "switch.queueing=input-fair", "lab.duration=10ms"}},
      {ring, {"flow_control.engine=gfc-time", "switch.queueing=input-fair", "lab.duration=10ms"}},
      {ring, {"flow_control.engine=pfc", kFairCrossbar, "lab.duration=10ms"}},
      {ring, {"flow_control.engine=gfc-buffer", kFairCrossbar, "lab.duration=10ms"}},
      // A ring link cut and back: the generators' resend after it (an empty band: any change
      // matters) and CBFC's resynchronisation.
      {ring,
       {"flow_control.engine=cbfc", "switch.queueing=output", "lab.duration=6ms", kCutAndBack}},
      {ring,
       {"flow_control.engine=gfc-buffer", "switch.queueing=output", "lab.duration=6ms",
        kCutAndBack}},
      // Tagger's Clos (rewritten priorities, PFC on two classes) and the 12-switch ring.
      {kConfigLab + "tagger-clos.toml", {}},
      {kTestsLab + "ring-12.toml", {}},
  };

  for (const Case& c : cases) {
    const nlohmann::ordered_json scheduled = summary_of(c, "virtual");
    ASSERT_GT(scheduled["packet_hops"].get<uint64_t>(), 1'000u) << c.file;
    EXPECT_EQ(scheduled.dump(), summary_of(c, "virtual-poll-all").dump())
        << c.file << " " << (c.sets.empty() ? "" : c.sets[0]);
  }
}

}  // namespace
}  // namespace fcswitch::lab
