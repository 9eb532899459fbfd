// libFuzzer target: fclab's scenario reader on well-formed scenarios with values changed. The
// text fuzzer (lab_scenario_fuzz) mostly makes TOML the parser refuses; this one starts from a
// shipped scenario, parsed, and changes one to four of its values, the way a careless edit or
// a --set would: a number to 0, -1, 2^63−1, NaN or 1e308; a string to an empty one, a bad unit
// or another node's name; a list to an empty one or to many copies of its element; a key
// removed; an element of [[flows]] or [[switches]] given twice; one value copied to another
// place (a pair of keys that contradict). The scenario is then either read or refused with
// ConfigError; any other exception, a crash, a sanitizer report, a hang (-timeout) or memory
// past -rss_limit_mb is a bug. The scenarios are every .toml in the folders that
// $FCSWITCH_SCENARIO_SEEDS lists, colon-separated (tests/fuzz/run.sh sets it), each read under
// its own path so that the files it names resolve.

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include <toml++/toml.h>

#include "config/config_error.h"
#include "scenario/scenario_file.h"
#include "small_network.h"

namespace {

using Step = std::variant<std::string, size_t>;  // a table's key or an array's index
using Path = std::vector<Step>;

struct Seed {
  std::string file;
  toml::table table;
  std::vector<Path> values;      // every value's path (numbers, strings, booleans)
  std::vector<Path> containers;  // every table's and array's, the root's excepted
};

void collect(const toml::node& node, Path& path, Seed& seed) {
  if (!path.empty()) (node.is_value() ? seed.values : seed.containers).push_back(path);
  if (const toml::table* table = node.as_table()) {
    for (const auto& [key, child] : *table) {
      path.emplace_back(std::string(key.str()));
      collect(child, path, seed);
      path.pop_back();
    }
  } else if (const toml::array* array = node.as_array()) {
    for (size_t i = 0; i < array->size(); ++i) {
      path.emplace_back(i);
      collect(*array->get(i), path, seed);
      path.pop_back();
    }
  }
}

std::vector<Seed>& seeds() {
  static std::vector<Seed> loaded;
  return loaded;
}

toml::node* node_at(toml::table& root, const Path& path, size_t length) {
  toml::node* node = &root;
  for (size_t i = 0; i < length && node; ++i) {
    if (const auto* key = std::get_if<std::string>(&path[i])) {
      toml::table* table = node->as_table();
      node = table ? table->get(*key) : nullptr;
    } else {
      toml::array* array = node->as_array();
      node = array ? array->get(std::get<size_t>(path[i])) : nullptr;
    }
  }
  return node;
}

// Puts `value` where `path` ends (in its table or array); false when the path no longer leads
// anywhere (an earlier edit removed or replaced a node on it).
template <typename T>
bool put(toml::table& root, const Path& path, T&& value) {
  toml::node* parent = node_at(root, path, path.size() - 1);
  if (!parent) return false;
  if (const auto* key = std::get_if<std::string>(&path.back())) {
    toml::table* table = parent->as_table();
    if (!table) return false;
    table->insert_or_assign(*key, std::forward<T>(value));
    return true;
  }
  toml::array* array = parent->as_array();
  const size_t index = std::get<size_t>(path.back());
  if (!array || index >= array->size()) return false;
  array->replace(array->cbegin() + static_cast<ptrdiff_t>(index), std::forward<T>(value));
  return true;
}

void remove(toml::table& root, const Path& path) {
  toml::node* parent = node_at(root, path, path.size() - 1);
  if (!parent) return;
  if (const auto* key = std::get_if<std::string>(&path.back())) {
    if (toml::table* table = parent->as_table()) table->erase(*key);
  } else if (toml::array* array = parent->as_array()) {
    const size_t index = std::get<size_t>(path.back());
    if (index < array->size()) array->erase(array->cbegin() + static_cast<ptrdiff_t>(index));
  }
}

// A copy of `node` (a table, an array or a value) handed to `use`.
template <typename Use>
void with_copy(const toml::node& node, Use&& use) {
  node.visit([&](const auto& concrete) {
    auto copy = concrete;
    use(std::move(copy));
  });
}

constexpr int64_t kIntegers[] = {0,
                                 1,
                                 -1,
                                 2,
                                 3,
                                 7,
                                 8,
                                 16,
                                 64,
                                 65,
                                 255,
                                 256,
                                 1024,
                                 65535,
                                 65536,
                                 int64_t{1} << 31,
                                 (int64_t{1} << 31) - 1,
                                 int64_t{1} << 32,
                                 1'000'000'000'000,
                                 std::numeric_limits<int64_t>::max(),
                                 std::numeric_limits<int64_t>::min()};
constexpr double kFloats[] = {0.0,
                              -0.0,
                              0.5,
                              -1.0,
                              1e-9,
                              1e9,
                              1e19,
                              1e308,
                              std::numeric_limits<double>::infinity(),
                              -std::numeric_limits<double>::infinity(),
                              std::numeric_limits<double>::quiet_NaN()};
constexpr const char* kStrings[] = {"",
                                    " ",
                                    "0",
                                    "-1",
                                    "nan",
                                    "inf",
                                    "1e400",
                                    "0us",
                                    "1ps",
                                    "-5us",
                                    "1e9s",
                                    "10Gbps",
                                    "0bps",
                                    "1bps",
                                    "99999999Tbps",
                                    "0B",
                                    "1B",
                                    "64EB",
                                    "-1KB",
                                    "1.5",
                                    "pfc",
                                    "cbfc",
                                    "gfc-buffer",
                                    "gfc-time",
                                    "none",
                                    "all",
                                    "s0",
                                    "s1",
                                    "h0",
                                    "h1",
                                    "s0:p0",
                                    "ring:3",
                                    "a,b",
                                    "../x",
                                    "100%",
                                    "fat-tree:4",
                                    "clos:2,2",
                                    "jellyfish:8,4,2"};

const Path& pick(FuzzedDataProvider& input, const std::vector<Path>& paths) {
  return paths[input.ConsumeIntegralInRange<size_t>(0, paths.size() - 1)];
}

// One edit of the scenario at one of its nodes, chosen by the input: mostly a value (a table
// replaced by a number is refused at once and tells little).
void edit(FuzzedDataProvider& input, const Seed& seed, toml::table& table) {
  const bool container = input.ConsumeIntegralInRange(0, 3) == 0;
  const Path& path = pick(input, container ? seed.containers : seed.values);
  switch (input.ConsumeIntegralInRange(0, 10)) {
    case 0:
      put(table, path, input.PickValueInArray(kIntegers));
      break;
    case 1:
      put(table, path, input.ConsumeIntegral<int64_t>());
      break;
    case 2:
      put(table, path, input.PickValueInArray(kFloats));
      break;
    case 3:
      put(table, path, std::string(input.PickValueInArray(kStrings)));
      break;
    case 4:
      put(table, path, input.ConsumeRandomLengthString(32));
      break;
    case 5:
      put(table, path, input.ConsumeBool());
      break;
    case 6:
      put(table, path, toml::array{});
      break;
    case 7: {  // a list of copies of the node: a list where one value was, or a long list
      const toml::node* node = node_at(table, path, path.size());
      if (!node) break;
      // 64 copies of a value; of a table or list (a flow, a switch) a few, so that edits on
      // edits stay small (64 copies of 64 copies ran the fuzzer itself out of memory).
      const size_t copies = input.PickValueInArray({1, 2, 3, 64});
      if (copies > 3 && !node->is_value()) break;
      toml::array many;
      for (size_t i = 0; i < copies; ++i)
        with_copy(*node, [&](auto copy) { many.push_back(std::move(copy)); });
      put(table, path, std::move(many));
      break;
    }
    case 8: {  // an element given twice (a flow, a switch, a link)
      toml::node* parent = node_at(table, path, path.size() - 1);
      const toml::node* node = node_at(table, path, path.size());
      if (!parent || !node || !parent->is_array()) break;
      with_copy(*node, [&](auto copy) { parent->as_array()->push_back(std::move(copy)); });
      break;
    }
    case 9:
      remove(table, path);
      break;
    case 10: {  // another node's value here: names that collide, keys that contradict
      const Path& from = pick(input, container ? seed.containers : seed.values);
      const toml::node* node = node_at(table, from, from.size());
      if (node && from != path) with_copy(*node, [&](auto copy) { put(table, path, copy); });
      break;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* dir = std::getenv("FCSWITCH_SCENARIO_SEEDS");
  if (!dir) {
    std::fprintf(stderr, "FCSWITCH_SCENARIO_SEEDS: set it to folders of scenarios (a:b)\n");
    std::abort();
  }
  std::vector<std::filesystem::path> files;
  std::string dirs = dir;
  for (size_t begin = 0, end; begin <= dirs.size(); begin = end + 1) {
    end = std::min(dirs.find(':', begin), dirs.size());
    for (const auto& entry : std::filesystem::directory_iterator(dirs.substr(begin, end - begin)))
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());  // the same seeds in the same order on every machine
  for (const std::filesystem::path& file : files) {
    const std::string name = file.filename().string();
    if (!name.ends_with(".toml") || name.ends_with(".rules.toml")) continue;  // not Tagger's rules
    Seed seed;
    seed.file = std::filesystem::canonical(file).string();
    try {
      seed.table = toml::parse_file(seed.file);
    } catch (const toml::parse_error&) {
      continue;
    }
    if (!fcswitch::fuzz::small_network(seed.table)) continue;
    Path path;
    collect(seed.table, path, seed);
    if (!seed.values.empty() && !seed.containers.empty()) seeds().push_back(std::move(seed));
  }
  if (seeds().empty()) {
    std::fprintf(stderr, "FCSWITCH_SCENARIO_SEEDS=%s: no scenario there\n", dir);
    std::abort();
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider input(data, size);
  const Seed& seed = seeds()[input.ConsumeIntegralInRange<size_t>(0, seeds().size() - 1)];
  toml::table table = seed.table;
  const int edits = input.ConsumeIntegralInRange(1, 4);
  for (int i = 0; i < edits; ++i) edit(input, seed, table);
  if (!fcswitch::fuzz::small_network(table)) return -1;  // not added to the corpus
  std::ostringstream text;
  text << table;
  try {
    (void)fcswitch::lab::parse_lab_scenario(text.str(), seed.file, {});
  } catch (const fcswitch::config::ConfigError&) {
  }
  return 0;
}
