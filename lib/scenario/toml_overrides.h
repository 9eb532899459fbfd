#pragma once
// TOML merged over TOML: the `--set` and `--sweep` overrides over the scenario before it is
// read, and a node's own keys over the sections every node shares.

#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

namespace fcswitch::lab {

// `from` over `into`, table by table; `from`'s values win, and a table over an array of
// tables goes over each element (toml_overrides.cc says how their places are kept).
void deep_merge(toml::table& into, toml::table&& from);

// "a.b.c=value" → merged into `root`. A value that is not TOML is taken as a string
// (`--set flow_control.priority.3.engine=pfc`). `option`: the command-line option it came from
// ("--set", or "--sweep" for one value of a sweep), which places what is said about it.
void apply_override(toml::table& root, const std::string& assignment,
                    std::vector<std::string>& problems, std::string_view option = "--set");

}  // namespace fcswitch::lab
