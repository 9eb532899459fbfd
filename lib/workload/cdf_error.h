#pragma once
// A refused flow-size CDF: one message in the form
//   file:line:column: expected …, found …
// (docs/architecture.md), with the place kept for tests and callers that point at it.

#include <stdexcept>
#include <string>

namespace fcswitch::workload {

class CdfError : public std::runtime_error {
 public:
  CdfError(std::string message, int line, int column)
      : std::runtime_error(std::move(message)), line_(line), column_(column) {}
  int line() const { return line_; }      // 1-based; 0 when the file could not be read
  int column() const { return column_; }  // 1-based

 private:
  int line_;
  int column_;
};

}  // namespace fcswitch::workload
