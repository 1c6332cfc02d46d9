// Triage: which failures of a campaign are one bug. Failures are grouped by signature
// (fuzz/signature.h), and two failures whose programs are the same (their statements, comments
// aside) are one bug whatever their signatures say: a minimized program is where failures
// found from different starting points meet.
#pragma once

#include <map>
#include <string>

namespace uopc {

// A program's statements without its comment lines: what two reproducers must share to be one.
std::string program_key(const std::string& text);

class Triage {
 public:
  // The group a failure joins: the one a failure with the same program joined first, else the
  // failure's own signature.
  std::string group_of(const std::string& signature, const std::string& program);

 private:
  std::map<std::string, std::string> group_by_program_;
};

}  // namespace uopc
