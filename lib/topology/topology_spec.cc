#include "topology/topology_spec.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "topology/topology_generators.h"

namespace fcswitch::topology {

namespace {

struct SpecForm {
  std::string_view kind;
  std::string_view syntax;  // as the error messages and --help show it
  size_t min_numbers;
  size_t max_numbers;
};

constexpr std::array kForms = {
    SpecForm{"clos", "clos:PODS,TORS,LEAVES,SPINES,HOSTS", 5, 5},
    SpecForm{"fat-tree", "fat-tree:K", 1, 1},
    SpecForm{"jellyfish", "jellyfish:N,PORTS,R[,SEED]", 3, 4},
    SpecForm{"bcube", "bcube:N,K", 2, 2},
    SpecForm{"ring", "ring:N", 1, 1},
    SpecForm{"leaf-spine", "leaf-spine:LEAVES,SPINES,HOSTS_PER_LEAF", 3, 3},
};

constexpr std::string_view kFormList =
    "clos:PODS,TORS,LEAVES,SPINES,HOSTS | fat-tree:K | jellyfish:N,PORTS,R[,SEED] | bcube:N,K | "
    "ring:N | leaf-spine:LEAVES,SPINES,HOSTS_PER_LEAF";

std::string_view kind_of(std::string_view spec) {
  return spec.substr(0, spec.find(':'));
}

const SpecForm* find_form(std::string_view kind) {
  for (const SpecForm& form : kForms)
    if (form.kind == kind) return &form;
  return nullptr;
}

[[noreturn]] void fail(const SpecForm& form, const std::string& expected,
                       const std::string& found) {
  throw std::invalid_argument(std::string(form.syntax) + ": expected " + expected + ", found " +
                              found);
}

std::string joined(const std::vector<int64_t>& numbers) {
  std::string out;
  for (size_t i = 0; i < numbers.size(); ++i) out += (i ? "," : "") + std::to_string(numbers[i]);
  return out;
}

// The comma-separated numbers after the colon; whole tokens only ("4x" and "" are refused).
std::vector<int64_t> numbers_of(const SpecForm& form, std::string_view spec) {
  const size_t colon = spec.find(':');
  std::vector<int64_t> out;
  if (colon != std::string_view::npos) {
    std::string_view rest = spec.substr(colon + 1);
    while (true) {
      const size_t comma = rest.find(',');
      const std::string_view token = rest.substr(0, comma);
      int64_t value = 0;
      const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
      if (error != std::errc{} || end != token.data() + token.size())
        fail(form, "a decimal integer",
             "\"" + std::string(token) + "\" in \"" + std::string(spec) + "\"");
      out.push_back(value);
      if (comma == std::string_view::npos) break;
      rest = rest.substr(comma + 1);
    }
  }
  if (out.size() < form.min_numbers || out.size() > form.max_numbers) {
    const std::string count =
        form.min_numbers == form.max_numbers
            ? std::to_string(form.min_numbers)
            : std::to_string(form.min_numbers) + " or " + std::to_string(form.max_numbers);
    fail(form, count + (form.max_numbers == 1 ? " number" : " numbers"),
         std::to_string(out.size()) + " in \"" + std::string(spec) + "\"");
  }
  // Every generator counts in int; a larger number is a typo, not a network.
  constexpr int64_t kLargest = 1 << 20;
  for (int64_t n : out)
    if (n > kLargest) fail(form, "numbers up to " + std::to_string(kLargest), joined(out));
  return out;
}

int as_int(int64_t n) {
  return static_cast<int>(n);
}

// A spec that a typo made enormous is refused before its graph is built (fat-tree:128 is
// 3.1 M ports). The bound sits above the papers' largest networks: Tagger's Table 5 and
// Fig. 13 go to a Jellyfish of 10 000 switches with 32 network ports each (1.28 M ports, and
// 64 hosts per switch in tagger-gen's count), GFC's fat-tree K = 16 is 6 144. What a lab run
// of a network needs in memory is the lab's to check. Counted in double: the products of
// numbers up to 2^20 overflow 64 bits.
constexpr double kMaxPorts = 1 << 21;

void check_size(const SpecForm& form, double links, const std::string& found) {
  const double ports = 2 * links;
  if (ports > kMaxPorts)
    fail(form,
         "a network of at most " + std::to_string(static_cast<int64_t>(kMaxPorts)) +
             " ports (2 per link)",
         // Named in full only where it converts (UB past 2^64: above that, "over 2^64").
         found + " (" +
             (ports < 0x1p64 ? std::to_string(static_cast<uint64_t>(ports)) : "over 2^64") +
             " ports)");
}

}  // namespace

Topology from_spec(std::string_view spec) {
  const SpecForm* form = find_form(kind_of(spec));
  if (!form)
    throw std::invalid_argument("topology: expected " + std::string(kFormList) + ", found \"" +
                                std::string(spec) + "\"");
  const std::vector<int64_t> n = numbers_of(*form, spec);
  const std::string found = joined(n);
  if (form->kind == "clos") {
    if (n[0] < 1 || n[1] < 1 || n[2] < 1 || n[3] < 1 || n[4] < 0)
      fail(*form, "PODS, TORS, LEAVES, SPINES >= 1 and HOSTS >= 0", found);
    const double pods = static_cast<double>(n[0]), tors = pods * static_cast<double>(n[1]);
    check_size(*form,
               tors * static_cast<double>(n[2] + n[4]) +
                   pods * static_cast<double>(n[2]) * static_cast<double>(n[3]),
               found);
    return clos(
        ClosShape{as_int(n[0]), as_int(n[1]), as_int(n[2]), as_int(n[3]), as_int(n[4]), false});
  }
  if (form->kind == "fat-tree") {
    if (n[0] < 2 || n[0] % 2 != 0) fail(*form, "an even K >= 2", found);
    const double k = static_cast<double>(n[0]);
    check_size(*form, k * k * k * 3 / 4, found);  // k³/2 between switches, k³/4 to hosts
    return fat_tree(as_int(n[0]));
  }
  if (form->kind == "jellyfish") {
    if (n[0] < 2 || n[2] < 1 || n[2] > n[1] || n[2] >= n[0])
      fail(*form, "N >= 2 and 1 <= R <= PORTS with R < N", found);
    if (n.size() > 3 && n[3] < 0) fail(*form, "SEED >= 0", found);
    // At most N·PORTS links: R/2 per switch between switches, the rest to hosts.
    check_size(*form, static_cast<double>(n[0]) * static_cast<double>(n[1]), found);
    // SEED 1 when absent: what tagger-gen has always used.
    return jellyfish(as_int(n[0]), as_int(n[1]), as_int(n[2]),
                     n.size() > 3 ? static_cast<uint64_t>(n[3]) : 1);
  }
  if (form->kind == "bcube") {
    if (n[0] < 2 || n[1] < 0 || n[1] > 6) fail(*form, "N >= 2 and 0 <= K <= 6", found);
    // (k+1)·n^(k+1) server-to-switch links, one host port per server
    check_size(*form,
               static_cast<double>(n[1] + 2) *
                   std::pow(static_cast<double>(n[0]), static_cast<double>(n[1] + 1)),
               found);
    return bcube(as_int(n[0]), as_int(n[1]));
  }
  if (form->kind == "ring") {
    if (n[0] < 3) fail(*form, "N >= 3 (a cycle)", found);
    check_size(*form, 2 * static_cast<double>(n[0]), found);
    return ring(as_int(n[0]));
  }
  if (n[0] < 1 || n[1] < 1 || n[2] < 0)
    fail(*form, "LEAVES >= 1, SPINES >= 1 and HOSTS_PER_LEAF >= 0", found);
  check_size(*form, static_cast<double>(n[0]) * static_cast<double>(n[1] + n[2]), found);
  return leaf_spine(as_int(n[0]), as_int(n[1]), as_int(n[2]));
}

bool names_generator(std::string_view spec) {
  return find_form(kind_of(spec)) != nullptr;
}

std::string_view spec_forms() {
  return kFormList;
}

}  // namespace fcswitch::topology
