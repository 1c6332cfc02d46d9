#include "cli/reduce_command.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "cli/self_engine.h"
#include "cli/source.h"
#include "fuzz/compare.h"
#include "fuzz/expr_text.h"
#include "fuzz/reduce.h"
#include "fuzz/signature.h"
#include "fuzz/target.h"
#include "ir/error.h"
#include "ir/parse.h"
#include "ir/plant.h"
#include "ir/print.h"

namespace uopc::cli {
namespace {

// SIGINT or SIGTERM, once received: every candidate after it counts as not failing, so the
// reduction ends at once with the smallest failing program so far, written as usual.
volatile sig_atomic_t g_interrupted = 0;

extern "C" void interrupt_reduction(int signal) {
  g_interrupted = signal;
}

// While alive, SIGINT and SIGTERM end the reduction instead of the process.
class EndOnSignal {
 public:
  EndOnSignal() {
    struct sigaction end {};
    end.sa_handler = interrupt_reduction;
    ::sigaction(SIGINT, &end, &old_int_);
    ::sigaction(SIGTERM, &end, &old_term_);
  }
  ~EndOnSignal() {
    ::sigaction(SIGINT, &old_int_, nullptr);
    ::sigaction(SIGTERM, &old_term_, nullptr);
  }
  EndOnSignal(const EndOnSignal&) = delete;
  EndOnSignal& operator=(const EndOnSignal&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

Interesting until_interrupted(Interesting interesting) {
  return [interesting](const std::string& text) { return !g_interrupted && interesting(text); };
}

// ", interrupted by SIGINT", or "" when no signal came.
std::string interruption() {
  if (!g_interrupted) return "";
  return std::string(", interrupted by ") + (g_interrupted == SIGINT ? "SIGINT" : "SIGTERM");
}

// `CMD FILE` in a private directory, killed after `timeout` seconds; exit status 0 means the
// candidate still fails. Its output goes to DIR/output.txt, which the last run leaves. Spawned
// and waited for directly (std::system ignores SIGINT while it waits, and `timeout` runs the
// test in a process group of its own, so Ctrl-C reached neither): on SIGINT or SIGTERM the test
// is stopped and the candidate does not count.
Interesting external_test(const std::string& command, const std::string& dir, double timeout) {
  return [command, dir, timeout](const std::string& text) {
    std::string file = dir + "/candidate.uir", output = dir + "/output.txt";
    std::ofstream(file, std::ios::binary) << text;
    std::vector<std::string> words = {"timeout",
                                      "-k",
                                      "1",
                                      std::to_string(timeout),
                                      "sh",
                                      "-c",
                                      command + " " + shell_quote(file)};
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t io;
    ::posix_spawn_file_actions_init(&io);
    ::posix_spawn_file_actions_addopen(&io, 1, output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::posix_spawn_file_actions_adddup2(&io, 1, 2);
    pid_t pid = 0;
    int spawned = ::posix_spawnp(&pid, "timeout", &io, nullptr, argv.data(), environ);
    ::posix_spawn_file_actions_destroy(&io);
    if (spawned != 0) return false;
    int status = 0;
    bool stopped = false;
    while (::waitpid(pid, &status, 0) < 0) {
      if (errno != EINTR) return false;
      if (g_interrupted && !stopped) stopped = ::kill(pid, SIGTERM) == 0;
    }
    return !g_interrupted && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  };
}

// The last lines of the test's output, as comments for the reproducer's header.
std::string last_output(const std::string& dir, int lines) {
  std::ifstream in(dir + "/output.txt", std::ios::binary);
  std::vector<std::string> all;
  for (std::string line; std::getline(in, line);) all.push_back(line);
  std::string out;
  for (size_t k = all.size() > static_cast<size_t>(lines) ? all.size() - lines : 0; k < all.size();
       ++k)
    out += "#   " + all[k] + "\n";
  return out.empty() ? "" : "# the test's last output:\n" + out;
}

// Written under a temporary name and renamed, so no reader sees half a reproducer.
void write_atomically(const std::string& path, const std::string& text) {
  std::filesystem::path target(path);
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path());
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    if (!out) throw UserError(Location{path}, "cannot write the reproducer");
  }
  std::filesystem::rename(tmp, target);
}

ReduceProgress progress_from(int before) {
  // On stderr: one line each time the program gets smaller.
  return [before](const Reduced& so_far) {
    std::fprintf(stderr, "reduce: %d statements -> %d (%d candidates tried)\n", before,
                 so_far.statements, so_far.candidates_tried);
  };
}

double seconds_since(std::chrono::steady_clock::time_point started) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

// How a target failure reduced: the program, its settings, and how the small one fails.
struct TargetReduction {
  Reduced reduced;
  EngineConfig config;
  Failure failure;
  std::string signature;
};

// A program uopc refuses, that the engine does not: lines go while uopc still refuses the text
// with the same message and the engine still answers as it did.
TargetReduction reduce_refused(const std::string& text, const std::string& refusal,
                               const std::string& file, Target& target) {
  std::string why = "uopc refuses (" + refusal.substr(0, refusal.find('\n')) + ")";
  std::optional<Failure> f = check_target_rejects(text, why, target);
  if (!f)
    throw UserError(Location{file},
                    "nothing to reduce: uopc refuses this program and the engine does too (" +
                        refusal.substr(0, refusal.find('\n')) + ")");
  // An offset its interval leaves out of range shrinks by the program it was built on.
  int tried = 0;
  Bounded bounded = [&tried](Interesting i) {
    return until_interrupted([&tried, i](const std::string& candidate) {
      ++tried;
      return i(candidate);
    });
  };
  if (std::optional<Failure> small = smaller_interval_breaker(*f, target, bounded)) {
    Reduced r{small->program, count_statements(small->program), tried};
    return {r, {}, *small, target_rejection_signature(*small, target)};
  }
  Reduced r = reduce_lines(text, until_interrupted(fails_target_rejection(target, *f)),
                           progress_from(count_statements(text)));
  if (std::optional<Failure> again = check_target_rejects(r.text, why, target)) f = again;
  return {r, {}, *f, target_rejection_signature(*f, target)};
}

// A valid program the engine gets wrong: it shrinks, and so do the settings, while the engine
// still fails it the same way (fails_target).
TargetReduction reduce_valid(const Program& p, const std::string& text, const ReduceArgs& a,
                             Target& target) {
  Target::Recall recall(target);  // settings and candidates met by several paths run once
  EngineConfig config{parse_opts_choice(a.opts, "--opts"), a.threads};
  std::optional<Failure> f = check_target(p, target, nullptr, config);
  if (!f)
    throw UserError(Location{p.file},
                    "nothing to reduce: the engine agrees with uopc interp on "
                    "this program (compared " +
                        target.comparison().name() + ", " + config.flags() + ")");
  Minimized m = minimize(
      p, config,
      [&](const EngineConfig& c) { return until_interrupted(fails_target(target, *f, c)); },
      progress_from(count_statements(text)));  // as the summary counts them
  Program small = parse_program(m.reduced.text, "reduced.uir");
  if (std::optional<Failure> g = check_target(small, target, nullptr, m.config)) f = g;
  return {m.reduced, m.config, *f, target_signature(*f, small, target)};
}

// `uopc reduce FILE --target CMD`: shrinks a program an external engine gets wrong, as a
// campaign's --minimize does, and writes it with the line that replays it. `crash`: CMD is
// this uopc's own `uopc run` (cli/self_engine.h), which a kernel of `text` kills; the
// reproducer is then uopc's crash, named and replayed as a campaign's.
int reduce_through_target(const ReduceArgs& a, const std::string& text, bool crash = false) {
  Target target(a.target, false, a.timeout);
  target.set_comparison(parse_comparison(a.compare, false, false));
  require_engine_starts(target);
  std::string name = a.path == "-" ? "<stdin>" : a.path;  // as load_program names it
  auto started = std::chrono::steady_clock::now();
  std::optional<Program> p;
  std::string refusal;
  try {
    p = parse_program(text, name);
  } catch (const UserError& e) {
    refusal = e.what();
  }
  EndOnSignal end_on_signal;
  TargetReduction t =
      p ? reduce_valid(*p, text, a, target) : reduce_refused(text, refusal, name, target);
  if (g_interrupted) t.reduced.one_minimal = false;
  if (crash) t.signature = as_crash_signature(t.signature);
  std::string path = a.out.empty() ? "corpus/" + t.signature + ".uir" : a.out;
  std::string compare = target.comparison().flags();
  std::string header =
      crash ? as_comment("reduced by uopc reduce from " + name +
                         ": the crash oracle fails: uopc run on it: " + t.failure.detail) +
                  "# signature: " + t.signature + "\n# replay: uopc fuzz --check " + path +
                  " --backend " + a.backend + (a.plant.empty() ? "" : " --plant " + a.plant) + " " +
                  t.config.flags() + "\n"
            : as_comment("reduced by uopc reduce from " + name + ": the " + t.failure.oracle +
                         " oracle fails: " + t.failure.detail) +
                  "# signature: " + t.signature + "\n# compared: " + target.comparison().name() +
                  "\n# replay: uopc fuzz --check " + path + " --target " + shell_quote(a.target) +
                  (compare.empty() ? "" : " " + compare) + " " + t.config.flags() + "\n";
  if (!t.failure.log.empty())
    header += "# the engine's last lines on stderr:\n" + as_comment(t.failure.log);
  if (g_interrupted) header += "# " + interruption().substr(2) + ": the smallest so far\n";
  write_atomically(path, header + t.reduced.text);
  std::printf("reduced %d statements to %d (%d candidates tried, %.1f s%s%s): %s\n",
              count_statements(text), t.reduced.statements, t.reduced.candidates_tried,
              seconds_since(started), t.reduced.one_minimal ? ", 1-minimal" : "",
              interruption().c_str(), path.c_str());
  return 0;
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
  if (!a.target.empty()) return reduce_through_target(a, read_source(a.path));
  std::unique_ptr<Backend> backend = make_backend(a.backend);
  if (!backend) throw UserError("--backend takes cc or tcc, not '" + a.backend + "'");
  // Read once: standard input ("-") can be read only once.
  const std::string source = read_source(a.path);
  Program p = parse_program(source, a.path == "-" ? "<stdin>" : a.path);
  // The symbolic oracle's reproducer is one expression on a comment line: the program around
  // it is empty, and no oracle of a program can fail it.
  if (read_expression(source, p.file))
    throw UserError(Location{p.file},
                    "this is an expression of the symbolic oracle, not a program: uopc reduce "
                    "shrinks programs; `uopc fuzz --check " +
                        p.file + "` checks the expression");

  std::string oracle = a.oracle, detail, signature;
  EngineConfig config{parse_opts_choice(a.opts, "--opts"), a.threads};
  // A program whose kernel kills the process cannot be checked in this one: it is reduced
  // through `uopc run`, each candidate in a process of its own.
  if (a.test.empty() && a.oracle.empty()) {
    std::string command = uopc_run_command(a.backend, a.plant);
    if (!command.empty()) {
      Target engine(command, false, a.timeout);
      if (crash_of(p, engine, config)) {
        ReduceArgs through = a;
        through.target = command;
        return reduce_through_target(through, source, true);
      }
    }
  }
  Interesting interesting;
  std::string private_dir;
  if (!a.test.empty()) {
    char tmpl[] = "/tmp/uopc-reduce-XXXXXX";
    if (!::mkdtemp(tmpl)) throw std::runtime_error("reduce: cannot create a private directory");
    private_dir = tmpl;
    interesting = external_test(a.test, private_dir, a.timeout);
    oracle = "test";
  } else if (oracle == "rejection") {
    interesting = fails_oracle(oracle, *backend, "", config);
  } else {
    auto failure_with = [&](const EngineConfig& c) {
      return oracle.empty() ? first_failure(p, *backend, c)
                            : failure_in_family(oracle_family(oracle), p, *backend, c);
    };
    std::optional<Failure> f = failure_with(config);
    // A program written against `uopc run` may fail only under its default settings.
    std::string tried;
    if (!f && a.run_defaults) {
      EngineConfig run{parse_opts_choice(a.run_defaults->first, "--opts"), a.run_defaults->second};
      if ((f = failure_with(run))) config = run;
      tried = " (with --opts none --threads 1, and with uopc run's defaults, " + run.flags() + ")";
    }
    if (!f)
      throw UserError(
          Location{p.file},
          oracle.empty()
              ? "nothing to reduce: every oracle agrees on this program" + tried
              : "the program does not fail the " + oracle + " oracle to begin with" + tried);
    oracle = f->oracle;
    detail = f->detail;
    signature = failure_signature(*f, p, *backend, config);
    interesting = fails_oracle(oracle, *backend, signature, config, &p);
  }
  int before = count_statements(source);
  if (!interesting(source)) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", a.timeout);
    throw UserError(
        Location{p.file},
        "the program does not fail " +
            (a.test.empty() ? "the " + oracle + " oracle"
                            : "`" + a.test + "` (exit 0 within --timeout " + limit + " s)") +
            " to begin with");
  }
  auto started = std::chrono::steady_clock::now();
  ReduceProgress progress = progress_from(before);
  Reduced r;
  EngineConfig before_config = config;
  EndOnSignal end_on_signal;
  Interesting reducing = until_interrupted(interesting);
  if (oracle == "rejection") {
    r = reduce_lines(source, reducing, progress);
  } else if (!signature.empty()) {  // the engine settings shrink too
    Minimized m = minimize(
        p, config,
        [&](const EngineConfig& c) {
          return until_interrupted(fails_oracle(oracle, *backend, signature, c, &p));
        },
        progress, Probes::Yes);
    r = m.reduced;
    config = m.config;
  } else {
    r = reduce_program(p, reducing, progress);
  }
  if (g_interrupted) r.one_minimal = false;
  double seconds = seconds_since(started);
  std::string test_output;
  if (!private_dir.empty()) {
    interesting(r.text);  // once more, so the output kept is the reduced program's
    test_output = last_output(private_dir, 10);
    std::filesystem::remove_all(private_dir);
  }
  if (!signature.empty()) {  // say how the small program fails, not how the large one did
    Program small = parse_program(r.text, "reduced.uir");
    if (std::optional<Failure> f =
            failure_for_signature(oracle_family(oracle), signature, small, *backend, config)) {
      oracle = f->oracle;
      detail = f->detail;
    }
  }

  std::string path =
      a.out.empty() ? "corpus/" + (signature.empty() ? oracle : signature) + ".uir" : a.out;
  std::string header =
      as_comment("reduced by uopc reduce from " + p.file + ": " +
                 (a.test.empty() ? "the " + oracle + " oracle fails" : "`" + a.test + "` fails") +
                 (detail.empty() ? "" : ": " + detail));
  if (!signature.empty()) header += "# signature: " + signature + "\n";
  if (a.test.empty()) header += "# flags: " + config.flags() + "\n";
  if (!a.plant.empty()) header += "# planted bug: " + a.plant + "\n";
  header += test_output;
  if (g_interrupted) header += "# " + interruption().substr(2) + ": the smallest so far\n";
  // Every oracle, with the engine settings the failure needs: cost and ub failures too.
  header += a.test.empty()
                ? "# replay: uopc fuzz --check " + path + " --backend " + a.backend +
                      (a.plant.empty() ? "" : " --plant " + a.plant) + " " + config.flags() + "\n"
                : "# replay: " + a.test + " " + path + "\n";
  write_atomically(path, header + r.text);
  std::printf("reduced %d statements to %d (%d candidates tried, %.1f s%s%s): %s\n", before,
              r.statements, r.candidates_tried, seconds, r.one_minimal ? ", 1-minimal" : "",
              interruption().c_str(), path.c_str());
  if (before_config.flags() != config.flags())
    std::printf("engine settings %s -> %s\n", before_config.flags().c_str(),
                config.flags().c_str());
  return 0;
}

}  // namespace uopc::cli
