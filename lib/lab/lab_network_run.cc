// LabNetwork's run (lab_network.h): the clock's loop, on one thread and on several in windows,
// and what follows its steps (samples, deadlock checks, progress).
#include <rte_cycles.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

#include "lab/deadlock_detector.h"
#include "lab/lab_network.h"
#include "lab/lab_sampler.h"
#include "lab/lab_workers.h"

namespace fcswitch::lab {

// What follows the clock's steps: samples, deadlock checks, the tail's mark, progress, a stop
// asked for; and when the clock must next stop for them.
struct LabNetwork::StepEnd {
  LabNetwork& net;
  LabSampler& sampler;
  DeadlockDetector& detector;
  ProgressLine* progress;
  const std::function<bool()>& stop;
  std::chrono::steady_clock::time_point wall_start;
  uint64_t end_ticks, tail_start_ticks, sample_every_ticks, check_every_ticks;
  uint64_t next_sample_ticks = 0;
  uint64_t next_check_ticks = check_every_ticks;

  // After `steps` more clock steps, the last at `now`: false ends the run.
  bool after(uint64_t now, uint64_t steps) {
    const uint64_t before = net.clock_steps_;
    net.clock_steps_ += steps;
    // Now and then (a clock read per 1 024 steps): a stop asked for; how far, and how fast
    // in packet-hops.
    const bool now_and_then = before / 1024 != net.clock_steps_ / 1024;
    const bool interrupted = stop && now_and_then && stop();
    if (progress && now_and_then && progress->due()) {
      uint64_t hops = 0;
      for (const auto& link : net.links_) hops += link->frames_delivered();
      const double wall_s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
      progress->update(
          static_cast<double>(net.ticks_.to_ns(now)) / 1e6,
          static_cast<double>(net.scenario_.duration_ns) / 1e6,
          fmt::format("{:.2f} M packet-hops/s", static_cast<double>(hops) / wall_s / 1e6));
    }
    if (now >= next_sample_ticks) {
      sampler.sample(now);
      next_sample_ticks += sample_every_ticks;
      if (!net.pool_ran_out_) net.say_if_pool_ran_out(now);
    }
    if (now >= next_check_ticks) {
      detector.check(now);
      next_check_ticks += check_every_ticks;
    }
    if (!sampler.tail_marked() && now >= tail_start_ticks) sampler.mark_tail(now);
    if (now >= end_ticks) return false;
    if (interrupted) {
      spdlog::warn("interrupted at {:.3f} ms of {:.3f} ms simulated",
                   static_cast<double>(net.ticks_.to_ns(now)) / 1e6,
                   static_cast<double>(net.scenario_.duration_ns) / 1e6);
      net.interrupted_ = true;
      return false;
    }
    return true;
  }
  // The next time the clock stops for what after() does.
  uint64_t next_stop_ticks() const {
    uint64_t next = std::min({next_sample_ticks, next_check_ticks, end_ticks});
    if (!sampler.tail_marked()) next = std::min(next, tail_start_ticks);
    return next;
  }
  // The next [[events]] (applied before the step at their time); kNeverTicks: none left.
  uint64_t next_event_ticks() const {
    return net.next_event_ < net.scenario_.events.size()
               ? net.ticks_.from_ns(net.scenario_.events[net.next_event_].at_ns)
               : kNeverTicks;
  }
};

LabResult LabNetwork::run(const std::string& out_dir, ProgressLine* progress,
                          const std::function<bool()>& stop) {
  const auto wall_start = std::chrono::steady_clock::now();
  std::vector<const SwitchNode*> switches;
  for (const auto& s : switches_) switches.push_back(s.get());
  const uint64_t end_ticks = ticks_.from_ns(scenario_.duration_ns);
  const uint64_t tail_start_ticks = end_ticks - end_ticks / 5;
  if (!out_dir.empty()) check_csv_size(scenario_, false);  // fclab said the sizes already
  LabSampler sampler(scenario_, switches, sent_, received_, ticks_, tail_start_ticks, out_dir);
  DeadlockDetector detector(scenario_, switches, ticks_);
  StepEnd step_end{*this,
                   sampler,
                   detector,
                   progress,
                   stop,
                   wall_start,
                   end_ticks,
                   tail_start_ticks,
                   ticks_.from_ns(scenario_.sample_interval_ns),
                   ticks_.from_ns(scenario_.deadlock.check_interval_ns)};
  const uint64_t now = schedules_.size() > 1 ? run_windows(step_end) : run_steps(step_end);
  LabResult result = collect(sampler, now);
  result.interrupted = interrupted_;
  result.csv_stopped_at_s = sampler.csv_stopped_at_s();
  if (interrupted_) result.duration_s = static_cast<double>(ticks_.to_ns(now)) / 1e9;
  result.deadlock = detector.verdict();
  result.wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  shut_down(result);
  return result;
}

uint64_t LabNetwork::run_steps(StepEnd& step_end) {
  const bool virtual_clock = is_virtual(scenario_.clock);
  LabSchedule* schedule = schedules_.empty() ? nullptr : schedules_[0].get();
  const uint64_t tsc_start = virtual_clock ? 0 : rte_rdtsc();
  uint64_t now = 0;
  while (true) {
    if (apply_events(now) && schedule) schedule->wake_all();
    if (schedule) {
      // The first step starts everything (flows, timers); the last brings every node's
      // time-accounting counters (paused time) up to the end, as a full poll would.
      if (now == 0 || now >= step_end.end_ticks) schedule->wake_all();
      schedule->step(now);
    } else if (virtual_clock) {
      settle(now);
    } else {
      poll_all(now);
    }
    if (!step_end.after(now, 1)) return now;
    if (virtual_clock) {
      const uint64_t next_action =
          schedule ? schedule->next_event_ticks() : next_action_of_all(now);
      const uint64_t next =
          std::min({next_action, step_end.next_stop_ticks(), step_end.next_event_ticks()});
      now = std::max(next, now + 1);
    } else {
      now = rte_rdtsc() - tsc_start;
    }
  }
}

// Each window runs every part from `now` to `last_ticks`, both included: no later than the
// lookahead allows (a frame sent in the window arrives after it), the next stop for samples and
// checks (taken after the window's last step, as run_steps takes them after a step) and the step
// before the next event (applied before its time's step). Each part steps at its own times in
// the window; the steps counted are the times any part stepped, which are the steps of one
// thread: a part's next step is its earliest timer, or the tick after its last step if a
// timer is due already, as the one thread's is the earliest of all.
uint64_t LabNetwork::run_windows(StepEnd& step_end) {
  const uint64_t lookahead_ticks = ticks_.from_ns(partition_.lookahead_ns);
  uint64_t now = 0, last_ticks = 0;
  LabWorkers workers(partition_.parts,
                     [&](int part) { run_part_window(part, now, last_ticks, step_end.end_ticks); });
  std::vector<uint64_t> steps;
  while (true) {
    if (apply_events(now) || now == 0)
      for (auto& schedule : schedules_) schedule->wake_all();
    const uint64_t stop_ticks = step_end.next_stop_ticks();
    last_ticks = stop_ticks;
    if (const uint64_t event_ticks = step_end.next_event_ticks(); event_ticks != kNeverTicks)
      last_ticks = std::min(last_ticks, event_ticks - 1);
    if (lookahead_ticks != 0 && now + lookahead_ticks - 1 < last_ticks)
      last_ticks = now + lookahead_ticks - 1;
    last_ticks = std::max(last_ticks, now);
    workers.run_window();
    steps.clear();
    for (const auto& times : part_steps_) steps.insert(steps.end(), times.begin(), times.end());
    if (last_ticks == stop_ticks) steps.push_back(last_ticks);
    std::sort(steps.begin(), steps.end());
    const auto counted = std::unique(steps.begin(), steps.end()) - steps.begin();
    if (!step_end.after(last_ticks, static_cast<uint64_t>(counted))) return last_ticks;
    // Each part's earliest timer, and the earliest arrival of what crossed to another part.
    uint64_t next_action = kNeverTicks;
    for (auto& schedule : schedules_)
      next_action = std::min(
          {next_action, schedule->next_event_ticks(), schedule->take_sent_arrival_ticks()});
    now = std::max(std::min({next_action, step_end.next_stop_ticks(), step_end.next_event_ticks()}),
                   last_ticks + 1);
  }
}

void LabNetwork::run_part_window(int part, uint64_t from_ticks, uint64_t last_ticks,
                                 uint64_t end_ticks) {
  LabSchedule& schedule = *schedules_[static_cast<size_t>(part)];
  std::vector<uint64_t>& steps = part_steps_[static_cast<size_t>(part)];
  steps.clear();
  schedule.read_arrivals();
  for (uint64_t t = from_ticks;;) {
    if (t == end_ticks) schedule.wake_all();  // as run_steps' last step
    schedule.step(t);
    steps.push_back(t);
    uint64_t next = std::max(schedule.next_event_ticks(), t + 1);
    if (next > last_ticks && t < end_ticks && last_ticks == end_ticks) next = end_ticks;
    if (next > last_ticks) return;
    t = next;
  }
}

}  // namespace fcswitch::lab
