#pragma once
// Whether a program can write a result file it creates or replaces at the end of a run (a
// report, a summary, a trace): checked before the run starts, so that a result is never lost
// without a word after the run.

#include <string>

namespace fcswitch::config {

// Why `path` cannot be written ("is a directory", "its directory /x does not exist", the
// system's reason); empty if it can.
std::string file_unwritable_reason(const std::string& path);

}  // namespace fcswitch::config
