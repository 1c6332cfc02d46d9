#include "cli/reduce_command.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "cli/source.h"
#include "fuzz/reduce.h"
#include "fuzz/signature.h"
#include "ir/error.h"
#include "ir/parse.h"
#include "ir/plant.h"

namespace uopc::cli {
namespace {

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// `CMD FILE` in a private directory; exit status 0 means the candidate still fails.
Interesting external_test(const std::string& command, const std::string& dir) {
  return [command, dir](const std::string& text) {
    std::string file = dir + "/candidate.uir";
    std::ofstream(file, std::ios::binary) << text;
    std::string cmd = command + " " + shell_quote(file) + " >/dev/null 2>&1";
    int status = std::system(cmd.c_str());
    return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  };
}

// Written under a temporary name and renamed, so no reader sees half a reproducer.
void write_atomically(const std::string& path, const std::string& text) {
  std::filesystem::path target(path);
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path());
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    if (!out) throw UserError(Location{path, 0, 0}, "cannot write the reproducer");
  }
  std::filesystem::rename(tmp, target);
}

}  // namespace

int run_reduce(const ReduceArgs& a) {
  if (!a.plant.empty()) {
    std::optional<Plant> p = parse_plant(a.plant);
    if (!p)
      throw UserError("--plant: no planted bug named '" + a.plant +
                      "' (see uopc fuzz --list-plants)");
    set_plant(*p);
  }
  std::unique_ptr<Backend> backend = make_backend(a.backend);
  if (!backend) throw UserError("--backend takes cc or tcc, not '" + a.backend + "'");
  Program p = load_program(a.path);

  std::string oracle = a.oracle, detail, signature;
  EngineConfig config{parse_opts_choice(a.opts, "--opts"), a.threads};
  Interesting interesting;
  std::string private_dir;
  if (!a.test.empty()) {
    char tmpl[] = "/tmp/uopc-reduce-XXXXXX";
    if (!::mkdtemp(tmpl)) throw std::runtime_error("reduce: cannot create a private directory");
    private_dir = tmpl;
    interesting = external_test(a.test, private_dir);
    oracle = "test";
  } else if (oracle == "rejection") {
    interesting = fails_oracle(oracle, *backend, "", config);
  } else {
    std::optional<Failure> f = oracle.empty()
                                   ? first_failure(p, *backend, config)
                                   : failure_in_family(oracle_family(oracle), p, *backend, config);
    if (!f)
      throw UserError(Location{p.file, 0, 0},
                      oracle.empty()
                          ? "nothing to reduce: every oracle agrees on this program"
                          : "the program does not fail the " + oracle + " oracle to begin with");
    oracle = f->oracle;
    detail = f->detail;
    signature = failure_signature(*f, p, *backend, config);
    interesting = fails_oracle(oracle, *backend, signature, config);
  }
  int before = count_statements(read_source(a.path));
  if (!interesting(read_source(a.path)))
    throw UserError(Location{p.file, 0, 0}, "the program does not fail the " + oracle + " " +
                                                (a.test.empty() ? "oracle" : "test") +
                                                " to begin with");
  Reduced r = oracle == "rejection" ? reduce_lines(read_source(a.path), interesting)
                                    : reduce_program(p, interesting);
  if (!private_dir.empty()) std::filesystem::remove_all(private_dir);
  if (!signature.empty()) {  // say how the small program fails, not how the large one did
    Program small = parse_program(r.text, "reduced.uir");
    if (std::optional<Failure> f =
            failure_in_family(oracle_family(oracle), small, *backend, config)) {
      oracle = f->oracle;
      detail = f->detail;
    }
  }

  std::string path =
      a.out.empty() ? "corpus/" + (signature.empty() ? oracle : signature) + ".uir" : a.out;
  std::string header =
      "# reduced by uopc reduce from " + p.file + ": " +
      (a.test.empty() ? "the " + oracle + " oracle fails" : "`" + a.test + "` fails") +
      (detail.empty() ? "" : ": " + detail) + "\n";
  if (!signature.empty()) header += "# signature: " + signature + "\n";
  if (a.test.empty()) header += "# flags: " + config.flags() + "\n";
  if (!a.plant.empty()) header += "# planted bug: " + a.plant + "\n";
  // Every oracle, with the engine settings the failure needs: cost and ub failures too.
  header += a.test.empty()
                ? "# replay: uopc fuzz --check " + path + " --backend " + a.backend +
                      (a.plant.empty() ? "" : " --plant " + a.plant) + " " + config.flags() + "\n"
                : "# replay: " + a.test + " " + path + "\n";
  write_atomically(path, header + r.text);
  std::printf("reduced %d statements to %d (%d candidates tried): %s\n", before, r.statements,
              r.candidates_tried, path.c_str());
  return 0;
}

}  // namespace uopc::cli
