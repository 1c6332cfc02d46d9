// docs/LANGUAGE.md shows what each example prints; this runs every example and compares.
// An example is a ```uir block followed by a ```out block (standard output, exit 0) or an
// ```err N block (standard error, exit N).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "tests/support/run.h"

namespace uopc {
namespace {

struct Example {
  int line = 0;  // of the ```uir fence
  std::string program, expected;
  bool on_stderr = false;
  int exit_code = 0;
};

std::vector<Example> examples(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::vector<Example> out;
  auto block = [&](size_t& k) {
    std::string text;
    for (++k; k < lines.size() && lines[k] != "```"; ++k) text += lines[k] + "\n";
    return text;
  };
  for (size_t k = 0; k < lines.size(); ++k) {
    if (lines[k] != "```uir") continue;
    Example e;
    e.line = static_cast<int>(k) + 1;
    e.program = block(k);
    size_t next = k + 1;
    if (next < lines.size() && lines[next] == "```out") {
      e.expected = block(next);
    } else if (next < lines.size() && lines[next].rfind("```err ", 0) == 0) {
      e.on_stderr = true;
      e.exit_code = std::stoi(lines[next].substr(7));
      e.expected = block(next);
    } else {
      ADD_FAILURE() << path << ":" << e.line
                    << ": a ```uir block needs ```out or ```err N after it";
    }
    k = next;
    out.push_back(e);
  }
  return out;
}

TEST(Docs, LanguageExamplesRunAsShown) {
  std::string path = std::string(UOPC_SOURCE_DIR) + "/docs/LANGUAGE.md";
  std::vector<Example> all = examples(path);
  EXPECT_GE(all.size(), 20u);
  for (const Example& e : all) {
    auto r = testing::run_uopc("interp -", e.program);
    std::string where = path + ":" + std::to_string(e.line);
    EXPECT_EQ(r.exit_code, e.exit_code) << where << "\n" << r.err;
    EXPECT_EQ(e.on_stderr ? r.err : r.out, e.expected) << where;
    if (!e.on_stderr) {
      EXPECT_EQ(r.err, "") << where;
    }
  }
}

}  // namespace
}  // namespace uopc
