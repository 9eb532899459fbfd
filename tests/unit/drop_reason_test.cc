// docs/reference/drop-reasons.md's table of drop reasons is the list in switch/drop_reasons.h,
// row for row: the one place a reason is declared that the compiler cannot reach is checked here.
#include "switch/drop_reasons.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace fcswitch {
namespace {

struct Row {
  std::string name, kind, description;
  bool operator==(const Row&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Row& row) {
  return out << "| `" << row.name << "` | " << row.kind << " | " << row.description << " |";
}

std::string kind_name(DropKind kind) {
  switch (kind) {
    case DropKind::kData:
      return "data";
    case DropKind::kLossless:
      return "lossless";
    case DropKind::kControl:
      return "control";
  }
  return "?";
}

// The rows of the table that follows "**Drop reasons.**".
std::vector<Row> page_rows() {
  std::ifstream page(FCSWITCH_SOURCE_DIR "/docs/reference/drop-reasons.md");
  EXPECT_TRUE(page) << FCSWITCH_SOURCE_DIR "/docs/reference/drop-reasons.md";
  const std::regex row(R"(^\| `([a-z0-9_]+)` \| ([a-z]+) \| (.*) \|$)");
  std::vector<Row> rows;
  bool in_section = false;
  for (std::string line; std::getline(page, line);) {
    if (line.starts_with("**Drop reasons.**")) in_section = true;
    if (!in_section) continue;
    if (std::smatch m; std::regex_match(line, m, row)) rows.push_back({m[1], m[2], m[3]});
    if (!rows.empty() && !line.starts_with("|")) break;  // the end of the table
  }
  return rows;
}

TEST(DropReasons, ReferencePageTableIsTheList) {
  std::vector<Row> declared;
  for (const DropReasonInfo& r : kDropReasons)
    declared.push_back({std::string(r.name), kind_name(r.kind), std::string(r.description)});
  EXPECT_EQ(page_rows(), declared) << "docs/reference/drop-reasons.md's table differs from "
                                      "FCSWITCH_DROP_REASONS in lib/switch/drop_reasons.h";
}

// Frame accounting follows the kind: control frames are not data; only a lossless frame lost
// for want of buffer is a flow-control failure.
TEST(DropReasons, KindsDecideTheAccounting) {
  EXPECT_TRUE(is_data_drop(DropReason::kLossyBufferFull));
  EXPECT_FALSE(is_lossless_drop(DropReason::kLossyBufferFull));
  EXPECT_TRUE(is_data_drop(DropReason::kLosslessOverflow));
  EXPECT_TRUE(is_lossless_drop(DropReason::kLosslessOverflow));
  EXPECT_FALSE(is_data_drop(DropReason::kControlUntrusted));
  EXPECT_FALSE(is_lossless_drop(DropReason::kControlUntrusted));
  EXPECT_EQ(drop_reason_name(DropReason::kOversize), "oversize");
}

}  // namespace
}  // namespace fcswitch
