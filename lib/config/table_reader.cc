#include "config/table_reader.h"

#include <fmt/format.h>

#include "config/quantity.h"

namespace fcswitch::config {

TableReader::TableReader(const toml::table& table, std::string path, ConfigProblems& problems)
    : table_(table), path_(std::move(path)), problems_(problems) {}

std::string TableReader::key_path(std::string_view key) const {
  return path_.empty() ? std::string(key) : fmt::format("{}.{}", path_, key);
}

const toml::node* TableReader::find(std::string_view key, bool required,
                                    std::string_view expected) {
  known_.emplace(key);
  const toml::node* node = table_.get(key);
  if (!node && required) problems_.expected(table_.source(), key_path(key), expected, "nothing");
  return node;
}

std::optional<int64_t> TableReader::integer(std::string_view key, int64_t min, int64_t max,
                                            bool required) {
  const std::string expected = fmt::format("an integer in [{}, {}]", min, max);
  const toml::node* node = find(key, required, expected);
  if (!node) return std::nullopt;
  const auto* value = node->as_integer();
  if (!value || value->get() < min || value->get() > max) {
    problems_.expected(node->source(), key_path(key), expected, describe(*node));
    return std::nullopt;
  }
  return value->get();
}

std::optional<double> TableReader::number(std::string_view key, double min, double max) {
  const std::string expected = fmt::format("a number in [{}, {}]", min, max);
  const toml::node* node = find(key, false, expected);
  if (!node) return std::nullopt;
  std::optional<double> value;
  if (const auto* f = node->as_floating_point()) value = f->get();
  if (const auto* i = node->as_integer()) value = static_cast<double>(i->get());
  if (!value || !(min <= *value && *value <= max)) {  // NaN is in no range
    problems_.expected(node->source(), key_path(key), expected, describe(*node));
    return std::nullopt;
  }
  return value;
}

std::optional<bool> TableReader::boolean(std::string_view key) {
  const toml::node* node = find(key, false, "true or false");
  if (!node) return std::nullopt;
  if (const auto* value = node->as_boolean()) return value->get();
  problems_.expected(node->source(), key_path(key), "true or false", describe(*node));
  return std::nullopt;
}

std::optional<std::string> TableReader::string(std::string_view key, bool required) {
  const toml::node* node = find(key, required, "a string");
  if (!node) return std::nullopt;
  if (const auto* value = node->as_string()) return value->get();
  problems_.expected(node->source(), key_path(key), "a string", describe(*node));
  return std::nullopt;
}

std::optional<std::string> TableReader::choice(std::string_view key,
                                               std::span<const std::string_view> choices) {
  std::string expected = "one of";
  for (auto c : choices) expected += fmt::format(" \"{}\"", c);
  const toml::node* node = find(key, false, expected);
  if (!node) return std::nullopt;
  if (const auto* value = node->as_string()) {
    for (auto c : choices)
      if (value->get() == c) return value->get();
  }
  problems_.expected(node->source(), key_path(key), expected, describe(*node));
  return std::nullopt;
}

namespace {

template <typename Parse>
std::optional<uint64_t> read_quantity(TableReader& reader, const toml::node* node,
                                      std::string_view key, uint64_t min, uint64_t max,
                                      std::string_view unit_help, Parse parse) {
  if (!node) return std::nullopt;
  std::optional<uint64_t> value;
  if (const auto* i = node->as_integer(); i && i->get() >= 0)
    value = static_cast<uint64_t>(i->get());
  if (const auto* s = node->as_string()) value = parse(s->get());
  if (!value || *value < min || *value > max) {
    reader.problems().expected(node->source(), reader.key_path(key),
                               fmt::format("{} in [{}, {}]", unit_help, min, max), describe(*node));
    return std::nullopt;
  }
  return value;
}

}  // namespace

std::optional<uint64_t> TableReader::bytes(std::string_view key, uint64_t min, uint64_t max) {
  constexpr std::string_view kHelp = "bytes (integer, or a string such as \"750KB\", \"1MiB\")";
  return read_quantity(*this, find(key, false, kHelp), key, min, max, kHelp, parse_bytes);
}

std::optional<uint64_t> TableReader::rate_bps(std::string_view key, uint64_t min, uint64_t max) {
  constexpr std::string_view kHelp = "a rate in bit/s (integer, or a string such as \"10Gbps\")";
  return read_quantity(*this, find(key, false, kHelp), key, min, max, kHelp, parse_rate_bps);
}

std::optional<uint64_t> TableReader::duration_ns(std::string_view key, uint64_t min, uint64_t max) {
  constexpr std::string_view kHelp =
      "a duration in ns (integer, or a string such as \"90us\", \"200ms\")";
  return read_quantity(*this, find(key, false, kHelp), key, min, max, kHelp, parse_duration_ns);
}

const toml::table* TableReader::table(std::string_view key, bool required) {
  const toml::node* node = find(key, required, "a table");
  if (!node) return nullptr;
  if (const auto* value = node->as_table()) return value;
  problems_.expected(node->source(), key_path(key), "a table", describe(*node));
  return nullptr;
}

const toml::array* TableReader::array(std::string_view key, bool required) {
  const toml::node* node = find(key, required, "an array");
  if (!node) return nullptr;
  if (const auto* value = node->as_array()) return value;
  problems_.expected(node->source(), key_path(key), "an array", describe(*node));
  return nullptr;
}

void TableReader::each_table(std::string_view key,
                             const std::function<void(TableReader& entry, size_t index)>& read) {
  const toml::array* tables = array(key);
  if (!tables) return;
  for (size_t i = 0; i < tables->size(); ++i) {
    const toml::node& node = *tables->get(i);
    const std::string path = key_path(fmt::format("{}[{}]", key, i));
    if (const toml::table* table = node.as_table()) {
      TableReader entry(*table, path, problems_);
      read(entry, i);
    } else {
      problems_.expected(node.source(), path, "a table", describe(node));
    }
  }
}

void TableReader::refuse(std::string_view key, std::string_view expected) {
  // An absent key (nothing given where one of several was needed) is pinned to its table.
  const toml::node* node = table_.get(key);
  problems_.expected(node ? node->source() : table_.source(), key_path(key), expected,
                     node ? describe(*node) : "nothing");
}

void TableReader::refuse(std::string_view key, std::string_view expected, std::string_view found) {
  const toml::node* node = table_.get(key);
  problems_.expected(node ? node->source() : table_.source(), key_path(key), expected, found);
}

void TableReader::warn(std::string_view key, std::string_view expected, std::string_view found) {
  const toml::node* node = table_.get(key);
  problems_.warn(node ? node->source() : table_.source(), key_path(key), expected, found);
}

void TableReader::reject_unknown_keys() {
  for (const auto& [key, node] : table_) {
    if (known_.count(key.str())) continue;
    problems_.note(key.source(), key_path(key.str()), "unknown key");
  }
}

}  // namespace fcswitch::config
