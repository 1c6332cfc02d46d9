// An external engine under test, run by the protocol of docs/ENGINES.md.
//
// One process per program: `CMD FILE` prints FILE's outputs as `uopc interp` does and exits 0
// when every assert holds, 1 when one fails, and 77 when it does not support the program (the
// program is skipped, never a failure); any other status, or a signal, is a crash. In
// persistent mode CMD is started once and reads one program path per line on its stdin; for
// each it writes the outputs to PATH.out and answers one line on stdout: the status it would
// have exited with. Either way CMD runs in a process group of its own, killed whole when a
// program takes longer than the time limit (and when the worker that started it dies), and the
// last lines it wrote to stderr for a program are kept for the report. A program may come with
// settings for the engine in its environment (compiler/engine_env.h); a persistent engine is
// started again when they change.
#pragma once

#include <sys/types.h>
#include <string>
#include <unordered_map>

#include "compiler/engine_env.h"
#include "fuzz/compare.h"
#include "fuzz/seen.h"

namespace uopc {

// The status an engine answers for a program it does not support.
constexpr int kUnsupported = 77;
// The status of a program that does not parse or type-check (LANGUAGE.md §6).
constexpr int kRefused = 2;

class Target;

struct TargetAnswer {
  enum class Kind { Exited, Signaled, TimedOut } kind = Kind::Exited;
  int code = 0;          // the exit status, or the signal that ended it
  std::string out;       // what it printed for the program
  std::string err_tail;  // the last lines of its stderr for the program
};

// Throws UserError when the engine cannot be started at all: run on a one-literal program, it
// answers 126 (not executable) or 127 (not found), as the shell would. Every program would fail
// that way, and none of those failures would be the engine's.
void require_engine_starts(Target& target);

// "exited 3", "killed by signal 11 (SEGV)", "ran past the 10 s time limit".
std::string describe(const TargetAnswer& a, double time_limit);

// `s` as one word for /bin/sh, in single quotes.
std::string shell_quote(const std::string& s);

// The shell command that runs one file through the engine as a Target would, for reproducer
// headers: `CMD FILE`, or in persistent mode FILE on CMD's stdin and FILE.out printed, after
// `NAME='value'` for each variable of `env`.
std::string target_replay(const std::string& command, bool persistent, const std::string& file,
                          const Environment& env = {});

class Target {
 public:
  // `time_limit`: seconds of wall time per program.
  Target(std::string command, bool persistent, double time_limit);
  ~Target();
  Target(const Target&) = delete;
  Target& operator=(const Target&) = delete;

  // Writes `program` to a file of its own folder and has the engine run it with `env` added
  // to its environment.
  TargetAnswer run(const std::string& program, const Environment& env = {});

  // While one is alive, run() answers a program it was given before with the same environment
  // as the engine did then, without running it again. Naming a failure asks the engine about
  // the same probes and nodes several times over: half of the runs that localized a planted
  // engine's bugs were repeats. An engine's answer is taken to be a function of the program and
  // its settings, as the reducer takes it. Scopes nest; the answers go with the outermost.
  class Recall {
   public:
    explicit Recall(Target& target);
    ~Recall();
    Recall(const Recall&) = delete;
    Recall& operator=(const Recall&) = delete;

   private:
    Target& target_;
  };

  const std::string& command() const { return command_; }
  bool persistent() const { return persistent_; }
  double time_limit() const { return time_limit_; }
  // How its outputs are judged (fuzz/compare.h); exact unless set.
  const Comparison& comparison() const { return comparison_; }
  void set_comparison(const Comparison& c) { comparison_ = c; }

 private:
  TargetAnswer run_once(const std::string& file, const Environment& env);
  TargetAnswer run_persistent(const std::string& file, const Environment& env);
  void start(const Environment& env);
  void stop();
  std::string stderr_since(off_t from) const;

  std::string command_;
  bool persistent_;
  double time_limit_;
  Comparison comparison_;
  std::string dir_;
  pid_t pid_ = -1;   // the persistent engine, when running
  Environment env_;  // the settings it was started with
  int to_ = -1, from_ = -1;
  std::string pending_;  // what it wrote after its last status line

  // What Recall keeps: answers by the hash of program and environment, within a byte budget.
  int recalling_ = 0;
  std::unordered_map<ContentHash, TargetAnswer, ContentHashOf> answers_;
  size_t answer_bytes_ = 0;
};

}  // namespace uopc
