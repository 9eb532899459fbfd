#pragma once
// A refused configuration: every problem found, one line each, in the form
//   file:line:column: key: expected …, found …
// Nothing starts when one is thrown.

#include <stdexcept>
#include <string>
#include <vector>

namespace fcswitch::config {

class ConfigError : public std::runtime_error {
 public:
  // what() says the first kShownProblems and how many more there are; problems() has all.
  static constexpr size_t kShownProblems = 100;

  explicit ConfigError(std::vector<std::string> problems);
  const std::vector<std::string>& problems() const { return problems_; }

 private:
  std::vector<std::string> problems_;
};

}  // namespace fcswitch::config
