#include "tests/support/run.h"

#include <sys/wait.h>

#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "ir/error.h"
#include "ir/parse.h"

namespace uopc::testing {

Program parse(const std::string& text) {
  return parse_program(text, "t.uir");
}

std::vector<std::string> interp_lines(const std::string& text) {
  Program p = parse(text);
  InterpResult r = interpret(p, {});
  std::vector<std::string> lines;
  for (const auto& [s, t] : r.outputs) lines.push_back(format_output(s->name, t));
  for (const AssertFailure& f : r.failures)
    lines.push_back("assert " + f.statement->name + " failed: " + f.detail);
  return lines;
}

std::string parse_error(const std::string& text) {
  try {
    parse(text);
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

Command run_uopc(const std::string& args, const std::string& input) {
  return run_shell(std::string(UOPC_BINARY_PATH) + " " + args, input);
}

Command run_shell(const std::string& command, const std::string& input) {
  char dir_template[] = "/tmp/uopc-test-XXXXXX";
  std::string dir = mkdtemp(dir_template);
  std::string in = dir + "/in", out = dir + "/out", err = dir + "/err";
  std::ofstream(in, std::ios::binary) << input;
  std::string cmd = "(" + command + ") <" + in + " >" + out + " 2>" + err;
  int status = std::system(cmd.c_str());
  Command c;
  c.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  c.out = read_file(out);
  c.err = read_file(err);
  std::system(("rm -rf " + dir).c_str());
  return c;
}

}  // namespace uopc::testing
