// tagger-gen: Tagger rules (CoNEXT'17 §4, §5, §7) from a topology and an ELP, checked by the
// Theorem 5.1 verifier and against the ELP itself; or `verify` a rule set on a topology.
//
//   tagger-gen --topology config/lab/tagger-clos.toml --elp updown+kbounce:1
//              --algorithm clos --out config/lab/tagger-clos.rules.toml
//   tagger-gen --topology jellyfish:100,32,16 --elp trees --algorithm greedy
//   tagger-gen verify --topology config/lab/tagger-clos.toml --rules
//   config/lab/tagger-clos.rules.toml

#include <fmt/format.h>
#include <toml++/toml.h>
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "core/progress_line.h"
#include "phase_timings.h"
#include "scenario_topology.h"
#include "tagger/brute_force_tagging.h"
#include "tagger/clos_bounce_tagging.h"
#include "tagger/destination_trees.h"
#include "tagger/elp.h"
#include "tagger/elp_coverage.h"
#include "tagger/greedy_tagging.h"
#include "tagger/switch_tag_rules.h"
#include "tagger/tag_rewrite_table.h"
#include "tagger/tagging_verifier.h"
#include "thread_runner.h"
#include "topology/topology_spec.h"

namespace fcswitch::tagger_gen {
namespace {

using namespace tagger;
using topology::EndpointId;
using topology::Topology;
using topology::TopologySwitch;

int default_threads() {
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

std::vector<int> numbers(const std::string& text) {
  std::vector<int> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) out.push_back(std::stoi(item));
  return out;
}

// A generator spec (lib/topology's one parser, shared with the lab) or a scenario TOML file.
Topology make_topology(const std::string& spec) {
  if (topology::names_generator(spec)) return topology::from_spec(spec);
  return read_scenario_topology(spec);
}

// "shortest", "trees", "updown", "updown+kbounce:K", "file:PATH".
RouteSource make_elp(const Topology& topo, const std::string& spec, uint64_t seed) {
  if (spec == "shortest") return [&topo](const RouteSink& s) { shortest_paths(topo, s); };
  if (spec == "trees")
    return [&topo, seed](const RouteSink& s) { shortest_path_trees(topo, seed, s); };
  if (spec == "updown") return [&topo](const RouteSink& s) { updown_paths(topo, 0, s); };
  if (spec.rfind("updown+kbounce:", 0) == 0) {
    const int k = std::stoi(spec.substr(15));
    return [&topo, k](const RouteSink& s) { updown_paths(topo, k, s); };
  }
  if (spec.rfind("file:", 0) == 0) {
    const std::string path = spec.substr(5);
    return [&topo, path](const RouteSink& s) {
      std::ifstream in(path);
      if (!in) throw std::runtime_error(path + ": cannot be read");
      read_elp_paths(topo, in, path, s);
    };
  }
  throw std::invalid_argument("--elp " + spec +
                              ": expected shortest, trees, updown, updown+kbounce:K or file:PATH");
}

std::string port_list(const TopologySwitch& s, PortMask mask) {
  std::vector<std::string> names;
  for (int p = 0; p < static_cast<int>(s.ports.size()); ++p)
    if (mask & port_bit(p)) names.push_back(fmt::format("\"{}\"", s.ports[p].name));
  return fmt::format("[{}]", fmt::join(names, ", "));
}

std::string rules_toml(const TopologySwitch& s, const std::vector<TagRule>& rules) {
  std::string out = "rules = [\n";
  for (const TagRule& r : rules)
    out += fmt::format("  {{ tag = {}, in = {}, out = {}, new_tag = {} }},\n", r.tag,
                       port_list(s, r.in_ports), port_list(s, r.out_ports), r.new_tag);
  return out + "]\n";
}

std::string tags_line(const std::vector<int>& tags, const std::vector<int>& priorities) {
  std::vector<std::string> entries;
  for (size_t i = 0; i < tags.size(); ++i)
    entries.push_back(
        fmt::format("\"{}\" = {}", tags[i], i < priorities.size() ? priorities[i] : -1));
  return fmt::format("tags = {{ {} }}", fmt::join(entries, ", "));
}

void print_verdict(const VerifierReport& report) {
  if (report.ok()) {
    fmt::print(
        "verifier           Theorem 5.1 holds: no cycle inside a tag, no edge lowers a tag "
        "({} nodes, {} edges)\n",
        report.nodes, report.edges);
  } else {
    for (const std::string& p : report.problems) fmt::print("verifier           {}\n", p);
  }
}

struct GenerateOptions {
  std::string topology, elp, algorithm = "greedy", priorities = "3", out, one_switch;
  int bounces = 1;
  uint64_t seed = 1;
  bool coverage = true;
  bool quiet = false;               // no progress lines on stderr
  double progress_every_s = 5;      // between progress lines when stderr is not a terminal
  int threads = default_threads();  // for the work split by destination tree
};

// A phase's work split over the threads, its progress on a line of stderr.
ParallelWork phase_work(const GenerateOptions& o, ProgressLine& line) {
  ParallelWork work;
  work.run = thread_runner(o.threads);
  work.progress = [&line](double done, double total) { line.update(done, total); };
  return work;
}

int generate(const GenerateOptions& o, const std::string& argv_line) {
  PhaseTimings phases;
  phases.start("topology");
  const Topology topo = make_topology(o.topology);
  const std::string elp_spec = !o.elp.empty()          ? o.elp
                               : o.algorithm == "clos" ? fmt::format("updown+kbounce:{}", o.bounces)
                                                       : "trees";
  // Destination trees are kept (100 MB for 10,000 switches) and walked tree by tree; any
  // other ELP is streamed from its generator again whenever it is walked.
  std::optional<DestinationTrees> trees;
  ElpSummary elp;
  if (elp_spec == "trees") {
    phases.start("routes");
    ProgressLine line = stderr_progress("routes", "trees", o.quiet, o.progress_every_s);
    trees.emplace(topo, o.seed, phase_work(o, line));
    elp = trees->summary();
  }
  const RouteSource routes =
      trees ? RouteSource([&t = *trees](const RouteSink& s) { t.for_each_route(s); })
            : make_elp(topo, elp_spec, o.seed);

  phases.start("rules");
  SwitchTagRules rules;
  // Algorithm 2's rules are read from its decisions switch by switch as they are compressed.
  std::optional<GreedyDecisions> decided;
  int max_graph_tag = 0;
  if (o.algorithm == "clos") {
    rules = clos_bounce_rules(topo, o.bounces);
    if (!trees) {
      routes([&](int, std::span<const EndpointId> hops) {
        ++elp.routes;
        elp.longest_switches = std::max(elp.longest_switches, static_cast<int>(hops.size()) + 1);
      });
    }
  } else {
    if (o.algorithm != "brute" && o.algorithm != "greedy" && o.algorithm != "single")
      throw std::invalid_argument("--algorithm: expected brute, greedy, clos or single");
    ProgressLine line = stderr_progress(
        "rules", trees && o.algorithm == "greedy" ? "steps" : "hops", o.quiet, o.progress_every_s);
    if (o.algorithm == "greedy") {
      decided.emplace(trees ? greedy_decisions(topo, *trees, phase_work(o, line))
                            : greedy_decisions(topo, routes, &elp, phase_work(o, line)));
    } else {
      const TaggedGraph graph = brute_force_tagging(topo, routes, &elp);
      max_graph_tag = o.algorithm == "brute" ? graph.max_tag() : 0;
      rules = rules_from_graph(topo, graph);
    }
    if (o.algorithm == "single") {
      // Plain PFC written as rules: every ELP hop keeps the first tag (one lossless class).
      for (auto& list : rules.triples)
        for (RuleTriple& t : list) t.tag = t.new_tag = kFirstTag;
      settle(topo, rules);
    }
  }

  // The triples go once compressed: 10,000 switches hold some 10^8 of them (a switch's at a
  // time when they come from Algorithm 2's decisions).
  std::vector<std::vector<TagRule>> compressed(topo.switches());
  std::vector<size_t> triples(topo.switches());
  std::vector<std::vector<std::string>> conflicts(decided ? topo.switches() : 0);
  {
    ProgressLine line = stderr_progress("compression", "switches", o.quiet, o.progress_every_s);
    run_in_batches(
        phase_work(o, line), compressed.size(),
        [&](size_t sw) {
          std::vector<RuleTriple> list;
          if (decided) {
            list = decided->rule_triples(static_cast<int>(sw));
            settle_switch(topo, static_cast<int>(sw), list, conflicts[sw]);
          } else {
            list = std::move(rules.triples[sw]);
          }
          triples[sw] = list.size();
          compressed[sw] = compress(std::move(list));
        },
        nullptr, 0, static_cast<double>(compressed.size()));
  }
  decided.reset();
  rules.triples = {};
  for (auto& list : conflicts)
    rules.conflicts.insert(rules.conflicts.end(), list.begin(), list.end());
  size_t triples_total = 0, compressed_total = 0, max_triples = 0, max_compressed = 0;
  std::set<int> tag_set;
  for (size_t sw = 0; sw < compressed.size(); ++sw) {
    triples_total += triples[sw];
    max_triples = std::max(max_triples, triples[sw]);
    compressed_total += compressed[sw].size();
    max_compressed = std::max(max_compressed, compressed[sw].size());
    for (const TagRule& r : compressed[sw]) tag_set.insert({r.tag, r.new_tag});
  }
  const std::vector<int> tags(tag_set.begin(), tag_set.end());
  std::vector<int> priorities = numbers(o.priorities);
  while (priorities.size() < tags.size())
    priorities.push_back(priorities.empty() ? 3 : priorities.back() + 1);

  phases.start("verifier");
  VerifierReport report;
  {
    ProgressLine line = stderr_progress("verifier", "switches", o.quiet, o.progress_every_s);
    report = verify_tag_rules(topo, compressed, phase_work(o, line));
  }
  ElpCoverage cover;
  if (o.coverage && rules.conflicts.empty()) {
    phases.start("coverage");
    ProgressLine line =
        stderr_progress("coverage", trees ? "trees" : "routes", o.quiet, o.progress_every_s);
    const auto tables = rewrite_tables(topo.ports_per_switch(), compressed);
    cover = trees ? check_elp_coverage(topo, tables, *trees, phase_work(o, line))
                  : check_elp_coverage(topo, tables, routes);
  }
  phases.stop();

  fmt::print("topology           {}: {} switches, {} links, {} host ports\n", o.topology,
             topo.switches(), topo.links(), topo.host_ports());
  fmt::print("ELP                {}: {} routes, longest {} switches ({} links with the hosts')\n",
             elp_spec, elp.routes, elp.longest_switches, elp.longest_switches + 1);
  fmt::print("algorithm          {}{}\n", o.algorithm,
             max_graph_tag
                 ? fmt::format(" (Algorithm 1 used {} tags incl. the hosts')", max_graph_tag)
                 : "");
  fmt::print("tags               {} on the wire: {}  ({})\n", tags.size(), fmt::join(tags, ", "),
             tags_line(tags, priorities));
  fmt::print(
      "rules per switch   max {} / mean {:.1f} before compression, max {} / mean {:.1f} "
      "after (InPort and OutPort bitmaps, §7)\n",
      max_triples, static_cast<double>(triples_total) / topo.switches(), max_compressed,
      static_cast<double>(compressed_total) / topo.switches());
  for (size_t i = 0; i < rules.conflicts.size() && i < 5; ++i)
    fmt::print("conflict           {}\n", rules.conflicts[i]);
  if (rules.conflicts.size() > 5)
    fmt::print("conflict           … {} in all\n", rules.conflicts.size());
  print_verdict(report);
  if (o.coverage && rules.conflicts.empty())
    fmt::print("ELP coverage       {} of {} routes lossless{}\n", cover.routes - cover.demoted,
               cover.routes, cover.demoted ? ": first demoted " + cover.first_demoted : "");
  fmt::print("run time           {}\n", phases.times());
  fmt::print("peak memory        {} (resident, by the end of each phase)\n", phases.peaks());

  if (!o.one_switch.empty()) {
    const int sw = topo.switch_index(o.one_switch);
    if (sw < 0) throw std::invalid_argument("--switch " + o.one_switch + ": no such switch");
    fmt::print("\n# fcswitch config for {} (tagger-gen {})\n[tagger]\n{}\nlossy_tag = 0\n{}",
               o.one_switch, argv_line, tags_line(tags, priorities),
               rules_toml(topo.at(sw), compressed[sw]));
  }
  if (!o.out.empty()) {
    std::ofstream out(o.out);
    out << fmt::format(
        "# Tagger rules, generated: tagger-gen {}\n"
        "# {} routes of ELP {}; algorithm {}; verified by Theorem 5.1.\n"
        "# Every node's [tagger] section maps the tags to lossless priorities:\n#   {}\n"
        "# One table per switch; a lab scenario reads it with [lab] tagger_rules, an fcswitch\n"
        "# config takes a switch's `rules` under its own [tagger].\n",
        argv_line, elp.routes, elp_spec, o.algorithm, tags_line(tags, priorities));
    for (int sw = 0; sw < topo.switches(); ++sw)
      out << fmt::format("\n[{}]\n{}", topo.at(sw).name, rules_toml(topo.at(sw), compressed[sw]));
  }
  const bool ok = report.ok() && rules.conflicts.empty() && cover.demoted == 0;
  return ok ? 0 : 1;
}

// Rules from a tagger-gen rules file (a table per switch) for the verifier.
std::vector<std::vector<TagRule>> read_rules_file(const Topology& topo, const std::string& path) {
  const toml::table root = toml::parse_file(path);
  std::vector<std::vector<TagRule>> rules(topo.switches());
  for (int sw = 0; sw < topo.switches(); ++sw) {
    const auto& s = topo.at(sw);
    const toml::table* table = root.get_as<toml::table>(s.name);
    const toml::array* list = table ? table->get_as<toml::array>("rules") : nullptr;
    if (!list) continue;
    for (const toml::node& item : *list) {
      const toml::table* r = item.as_table();
      if (!r) throw std::runtime_error(path + ": [" + s.name + "] rules: expected tables");
      auto ports = [&](const char* key) {
        PortMask mask = 0;
        auto add = [&](const toml::node& n) {
          const auto* name = n.as_string();
          if (name && name->get() == "*") {
            for (size_t p = 0; p < s.ports.size(); ++p) mask |= port_bit(static_cast<int>(p));
            return;
          }
          const int p = name ? topo.port_index(sw, name->get()) : -1;
          if (p < 0)
            throw std::runtime_error(fmt::format("{}:{}: [{}] {}: no such port", path,
                                                 n.source().begin.line, s.name, key));
          mask |= port_bit(p);
        };
        if (const toml::node* n = r->get(key)) {
          if (const auto* a = n->as_array()) {
            for (const toml::node& x : *a) add(x);
          } else {
            add(*n);
          }
        }
        return mask;
      };
      rules[sw].push_back(
          {static_cast<int>(r->get_as<int64_t>("tag") ? r->get_as<int64_t>("tag")->get() : -1),
           ports("in"), ports("out"),
           static_cast<int>(r->get_as<int64_t>("new_tag") ? r->get_as<int64_t>("new_tag")->get()
                                                          : -1)});
    }
  }
  return rules;
}

}  // namespace
}  // namespace fcswitch::tagger_gen

int main(int argc, char** argv) {
  using namespace fcswitch::tagger_gen;
  CLI::App app{"tagger-gen: Tagger rules from a topology and an ELP (Tagger CoNEXT'17)"};
  GenerateOptions o;
  std::string rules_file;
  bool no_coverage = false;
  app.add_option("--topology", o.topology,
                 std::string(fcswitch::topology::spec_forms()) +
                     " | a TOML file with [[switches]] (tier for Clos), [[hosts]], [[links]] "
                     "(a lab scenario)")
      ->required();
  app.add_option("--elp", o.elp,
                 "shortest | trees (destination-rooted shortest-path trees, §8.2) | updown | "
                 "updown+kbounce:K | file:PATH (default: trees; updown+kbounce:BOUNCES for clos)");
  app.add_option("--algorithm", o.algorithm,
                 "brute (Alg. 1) | greedy (Alg. 2) | clos (§4.3) | single (one tag "
                 "everywhere: plain PFC as a rule set, for comparison)")
      ->capture_default_str();
  app.add_option("--bounces", o.bounces, "clos: bounces the ELP tolerates (tags = bounces + 1)")
      ->capture_default_str();
  app.add_option("--priorities", o.priorities,
                 "lossless priority of each tag in order, e.g. 3,4 (more tags: the next ones)")
      ->capture_default_str();
  app.add_option("--out", o.out, "write every switch's rules to this TOML file");
  app.add_option("--switch", o.one_switch, "print this switch's [tagger] section");
  app.add_option("--seed", o.seed, "tie-breaking of shortest-path trees")->capture_default_str();
  app.add_flag("--no-coverage", no_coverage, "skip walking every ELP route through the rules");
  app.add_option("--threads", o.threads,
                 "threads for the work split by destination tree (the result does not depend "
                 "on it)")
      ->capture_default_str();
  app.add_flag("--quiet", o.quiet,
               "no progress on stderr (by default: each phase's done/total, rate and time left, "
               "on a terminal in place, else a line every --progress-every seconds)");
  app.add_option("--progress-every", o.progress_every_s,
                 "seconds between progress lines when stderr is not a terminal")
      ->capture_default_str();
  auto* verify = app.add_subcommand(
      "verify", "check a rules file against Theorem 5.1 on --topology (before or after verify)");
  verify->add_option("--rules", rules_file, "tagger-gen rules file (a table per switch)")
      ->required();
  verify->fallthrough();  // `tagger-gen verify --topology … --rules …` as well as before it
  // The options only generating uses would be silently ignored by verify: refused. (verify
  // uses --topology and how it runs: threads, progress. An option added below this loop is
  // not refused.)
  for (CLI::Option* option : app.get_options()) {
    const std::string name = option->get_name();
    if (name != "--topology" && name != "--help" && name != "--threads" && name != "--quiet" &&
        name != "--progress-every")
      verify->excludes(option);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  std::string argv_line;
  for (int i = 1; i < argc; ++i) argv_line += (i > 1 ? " " : "") + std::string(argv[i]);
  try {
    if (*verify) {
      const auto topo = make_topology(o.topology);
      const auto rules = read_rules_file(topo, rules_file);
      fcswitch::ProgressLine line =
          fcswitch::stderr_progress("verifier", "switches", o.quiet, o.progress_every_s);
      const auto report = fcswitch::tagger::verify_tag_rules(topo, rules, phase_work(o, line));
      fmt::print("tags               {}\n", fmt::join(report.tags, ", "));
      print_verdict(report);
      return report.ok() ? 0 : 1;
    }
    o.coverage = !no_coverage;
    return generate(o, argv_line);
  } catch (const std::exception& e) {
    fmt::print(stderr, "tagger-gen: {}\n", e.what());
    return 2;
  }
}
