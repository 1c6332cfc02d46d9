#include "cli/fuzz_command.h"

#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <thread>
#include <vector>

#include "cli/crash_site.h"
#include "cli/self_engine.h"
#include "cli/shrink_memo.h"
#include "cli/source.h"
#include "compiler/backend.h"
#include "fuzz/campaign.h"
#include "fuzz/expr_text.h"
#include "fuzz/reduce.h"
#include "fuzz/signature.h"
#include "fuzz/smt.h"
#include "fuzz/target.h"
#include "fuzz/triage.h"
#include "ir/error.h"
#include "ir/parse.h"
#include "ir/plant.h"
#include "ir/print.h"

namespace uopc::cli {
namespace {

constexpr int kMaxJobs = 64;
constexpr int kMinimizeBudget = 30;  // times --time-limit, unless --shrink-time-limit says

// SIGINT or SIGTERM, once received: the campaign stops its workers and prints its summary.
volatile sig_atomic_t g_stop_signal = 0;

extern "C" void request_stop(int signal) {
  g_stop_signal = signal;
}

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

int64_t cpu_ms(clockid_t clock) {
  timespec t{};
  if (::clock_gettime(clock, &t) != 0) return 0;
  return static_cast<int64_t>(t.tv_sec) * 1000 + t.tv_nsec / 1'000'000;
}

// What workers share with the driver, in an anonymous shared mapping.
struct Shared {
  std::atomic<int64_t> programs[kMaxJobs];
  std::atomic<int64_t> skipped[kMaxJobs];  // programs an external engine does not support
  std::atomic<uint64_t> current_seed[kMaxJobs];
  std::atomic<int64_t> started_ms[kMaxJobs];      // when the current program began; 0 when idle
  std::atomic<int64_t> started_cpu_ms[kMaxJobs];  // the worker's CPU time then
  std::atomic<bool> minimizing[kMaxJobs];         // shrinking a failure, not checking a program
  SeedStats stats[kMaxJobs];                      // each worker's own, read at the end
  char crash_sites[kMaxJobs][512];                // where uopc's own code crashed (crash_site.h)
  ShrinkMemo shrunk;                              // written by the driver only
};

// One failure as workers send it: a header line, then the four texts.
struct Record {
  uint64_t seed = 0;
  Failure failure;
  std::string signature;
  // Named, not yet shrunk: what the driver keeps if shrinking runs out of time.
  bool provisional = false;
  // Not shrunk: failures of its signature were shrunk enough already (ShrinkMemo).
  bool repeat = false;
};

std::string encode(const Record& r) {
  const Failure& f = r.failure;
  std::string opts = format_opts_choice(f.config.opts);
  return std::string(r.provisional ? "P "
                     : r.repeat    ? "S "
                                   : "R ") +
         std::to_string(r.seed) + " " + std::to_string(f.config.threads) + " " +
         std::to_string(f.oracle.size()) + " " + std::to_string(f.detail.size()) + " " +
         std::to_string(f.program.size()) + " " + std::to_string(r.signature.size()) + " " +
         std::to_string(opts.size()) + " " + std::to_string(f.log.size()) + "\n" + f.oracle +
         f.detail + f.program + r.signature + opts + f.log;
}

// Takes the complete records off the front of `buffer`.
std::vector<Record> decode(std::string& buffer) {
  std::vector<Record> out;
  for (;;) {
    size_t nl = buffer.find('\n');
    if (nl == std::string::npos) break;
    unsigned long long seed = 0;
    int threads = 1;
    size_t a = 0, b = 0, c = 0, d = 0, e = 0, g = 0;
    char kind = 0;
    if (std::sscanf(buffer.c_str(), "%c %llu %d %zu %zu %zu %zu %zu %zu", &kind, &seed, &threads,
                    &a, &b, &c, &d, &e, &g) != 9 ||
        (kind != 'R' && kind != 'P' && kind != 'S'))
      break;
    if (buffer.size() < nl + 1 + a + b + c + d + e + g) break;
    size_t at = nl + 1;
    Record r;
    r.seed = seed;
    r.provisional = kind == 'P';
    r.repeat = kind == 'S';
    r.failure.oracle = buffer.substr(at, a);
    r.failure.detail = buffer.substr(at += a, b);
    r.failure.program = buffer.substr(at += b, c);
    r.signature = buffer.substr(at += c, d);
    r.failure.config.opts = parse_opts_choice(buffer.substr(at += d, e), "a worker's record");
    r.failure.config.threads = threads;
    r.failure.log = buffer.substr(at += e, g);
    buffer.erase(0, at + g);
    out.push_back(std::move(r));
  }
  return out;
}

void write_all(int fd, const std::string& s) {
  for (size_t at = 0; at < s.size();) {
    ssize_t n = ::write(fd, s.data() + at, s.size() - at);
    if (n <= 0) return;
    at += static_cast<size_t>(n);
  }
}

// What a child process made of some work: its output, and whether it ended by itself (exited,
// or died of a signal: `status`) rather than being killed past its time limit or because the
// campaign was stopped (Ctrl-C).
struct ChildRun {
  std::string output;
  bool ended = false;
  int status = 0;
};

// `work` run in a forked child, which writes what it made to the file descriptor it is given:
// checks that may kill or hang the process that runs them (a compiler that crashes, an interpreter
// that indexes out of range) leave the caller standing.
ChildRun in_child(const std::function<void(int fd)>& work, double limit_s) {
  int fds[2];
  std::fflush(nullptr);
  pid_t pid = ::pipe(fds) == 0 ? ::fork() : -1;
  if (pid == 0) {
    ::close(fds[0]);
    try {
      work(fds[1]);
    } catch (const std::exception&) {
    }
    ::_exit(0);
  }
  ChildRun run;
  if (pid < 0) return run;
  ::close(fds[1]);
  int64_t deadline = now_ms() + static_cast<int64_t>(limit_s * 1000);
  char buf[4096];
  for (pollfd out{fds[0], POLLIN, 0}; now_ms() < deadline && !g_stop_signal;) {
    if (::poll(&out, 1, static_cast<int>(std::max<int64_t>(1, deadline - now_ms()))) <= 0) continue;
    ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n <= 0) {
      run.ended = true;
      break;
    }
    run.output.append(buf, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  if (!run.ended) ::kill(pid, SIGKILL);
  ::waitpid(pid, &run.status, 0);
  return run;
}

// The signature of a worker's crash or timeout, named in a child process: naming runs the
// program's checks, which may kill or hang the process that runs them as they did the worker,
// and the driver must outlive that. By the outputs' ops when the child dies, takes longer than
// `limit_s`, or the campaign is stopped meanwhile.
// The program is parsed in the child too: the code that crashed a worker may be the parser's
// (a type rule's), and the driver must outlive it. The ops of the failing outputs when naming
// dies, the oracle alone when that dies too.
std::string signature_in_child(const Failure& f, Backend& backend, double limit_s) {
  auto named_in_child = [&](bool by_ops) {
    return in_child(
               [&](int fd) {
                 Program p;
                 try {
                   p = parse_program(f.program, "failing.uir");
                 } catch (const UserError&) {
                   write_all(fd, f.oracle);
                   return;
                 }
                 write_all(fd,
                           by_ops ? by_outputs(f, p) : failure_signature(f, p, backend, f.config));
               },
               limit_s)
        .output;
  };
  std::string named = named_in_child(false);
  if (named.empty()) named = named_in_child(true);
  return named.empty() ? f.oracle : named;
}

Comparison comparison_of(const FuzzArgs& a) {
  return parse_comparison(a.compare, a.nan_equal, a.signed_zero_equal);
}

// The external engine of a campaign, judged as asked.
std::unique_ptr<Target> make_target(const FuzzArgs& a) {
  auto target = std::make_unique<Target>(a.target, a.target_persistent, a.time_limit);
  target->set_comparison(comparison_of(a));
  return target;
}

GenOptions gen_options(const FuzzArgs& a) {
  GenOptions gen;
  gen.max_numel = a.max_elements;
  gen.steering = parse_steering(a.steering_words);
  return gen;
}

// " --ops add,mul --no-nan", or "" unsteered.
std::string steering_flags(const FuzzArgs& a) {
  std::string flags = gen_options(a).steering.flags();
  return flags.empty() ? "" : " " + flags;
}

// Seconds a worker may spend shrinking one failure.
double shrink_limit(const FuzzArgs& a) {
  return a.shrink_time_limit >= 0 ? a.shrink_time_limit : a.time_limit * kMinimizeBudget;
}

// The CPU time of the worker and of the children it has waited for (in_child).
int64_t worker_cpu_ms() {
  rusage children{};
  ::getrusage(RUSAGE_CHILDREN, &children);
  return cpu_ms(CLOCK_PROCESS_CPUTIME_ID) +
         static_cast<int64_t>(children.ru_utime.tv_sec + children.ru_stime.tv_sec) * 1000 +
         (children.ru_utime.tv_usec + children.ru_stime.tv_usec) / 1000;
}

// The time a shrink has used, counted as the driver counts a program's (past_time_limit): the
// worker's CPU time, its shrinking children's included, or ten times as much wall time.
class ShrinkClock {
 public:
  explicit ShrinkClock(double limit_s)
      : limit_ms_(static_cast<int64_t>(limit_s * 1000)),
        cpu_ms_(worker_cpu_ms()),
        wall_ms_(now_ms()) {}

  bool expired() const { return left_s() <= 0; }

  // The time left, in seconds of CPU time.
  double left_s() const {
    int64_t used = std::max(worker_cpu_ms() - cpu_ms_, (now_ms() - wall_ms_) / 10);
    return static_cast<double>(limit_ms_ - used) / 1000;
  }

  // `interesting` (under the engine settings `under`), but no candidate is once the time is up:
  // the reducer then ends on what it reached, which still fails, instead of being killed with it.
  Interesting bounded(Interesting interesting, const EngineConfig& under = {}) const {
    return [this, interesting, under](const std::string& text) {
      cut_ = cut_ || expired();
      if (!cut_ && stalls_) stall();
      if (!cut_ && crashes_on(text)) std::raise(SIGSEGV);
      bool failing = !cut_ && interesting(text);
      if (failing && still_failing) still_failing(text, under);
      return failing;
    };
  }

  // Whether bounded turned a candidate away for want of time.
  bool cut() const { return cut_; }

  // For a shrink running in a child process (shrunk_apart), how it tells the process that
  // started it what it is about to try and what still fails (a program to start again from),
  // and which candidates it passes over.
  Screen screen;
  std::function<void(const std::string& text, const EngineConfig& under)> still_failing;
  std::function<void()> settled;  // the candidates are over; naming the result follows

  void settle() const {
    if (settled) settled();
  }

  // What a failure's detail says when its shrink was cut short.
  std::string note() const {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", static_cast<double>(limit_ms_) / 1000);
    return std::string(" (shrinking stopped at its ") + limit +
           " s limit, --shrink-time-limit: this is what it reached, not the smallest)";
  }

 private:
  // A candidate that never ends, as one whose kernel loops forever would: the clock cannot cut
  // it short, and only the driver's kill (past_time_limit) ends it. UOPC_FUZZ_STALL_SHRINK
  // makes every candidate do this, so that the kill can be tested.
  [[noreturn]] static void stall() {
    volatile uint64_t n = 0;
    for (;;) n = n + 1;
  }

  // A candidate that kills the process judging it, as one a compiler crashes on would.
  // UOPC_FUZZ_CRASH_SHRINK=M makes one candidate in M, chosen by its text's hash, do this, so
  // that shrinking past such candidates can be tested.
  bool crashes_on(const std::string& text) const {
    return crash_one_in_ > 0 && std::hash<std::string>{}(text) % crash_one_in_ == 0;
  }

  int64_t limit_ms_, cpu_ms_, wall_ms_;
  bool stalls_ = std::getenv("UOPC_FUZZ_STALL_SHRINK") != nullptr;
  uint64_t crash_one_in_ = std::getenv("UOPC_FUZZ_CRASH_SHRINK")
                               ? std::strtoull(std::getenv("UOPC_FUZZ_CRASH_SHRINK"), nullptr, 10)
                               : 0;
  mutable bool cut_ = false;
};

// Whether a failure is an external engine's (the target oracles').
bool by_target(const std::string& oracle) {
  return oracle.rfind("target", 0) == 0;
}

// A malformed program an external engine did not refuse, shrunk: an offset out of its value's
// interval by the program it was built on (its own lines cannot shrink), others line by line.
Failure shrunk_rejection(const Failure& f, Target& target, const ShrinkClock& clock) {
  Bounded bounded = [&](Interesting i) { return clock.bounded(std::move(i)); };
  if (std::optional<Failure> smaller = smaller_interval_breaker(f, target, bounded))
    return *smaller;
  Reduced small = reduce_lines(f.program, clock.bounded(fails_target_rejection(target, f)));
  std::optional<Failure> again = check_target_rejects(small.text, rejection_reason(f), target);
  return again ? *again : f;
}

// A malformed program an external engine did not refuse, shrunk first when asked, and named.
Record rejection_record(Record r, const FuzzArgs& a, Target& target, const ShrinkClock& clock) {
  if (a.minimize) r.failure = shrunk_rejection(r.failure, target, clock);
  r.signature = target_rejection_signature(r.failure, target);
  return r;
}

// What a worker does with a failure named but not yet shrunk (sends it as provisional).
using OnNamed = std::function<void(const Record&)>;

// `r` under a name given before it is shrunk.
Record provisionally(Record r, std::string signature) {
  r.signature = std::move(signature);
  return r;
}

// `r` kept as found, under the signature that failures named as it is were shrunk to.
Record repeated(Record r, std::string shrunk_to) {
  r.signature = std::move(shrunk_to);
  r.repeat = true;
  return r;
}

// A named failure of uopc's own oracles shrunk, then named again on the small program so that
// the name speaks of ops it has.
Record shrunk(Record r, const Program& p, Backend& backend, const ShrinkClock& clock) {
  std::string oracle = r.failure.oracle, signature = r.signature;
  Minimized small = minimize(
      p, r.failure.config,
      [&](const EngineConfig& c) {
        return clock.bounded(fails_oracle(oracle, backend, signature, c, &p), c);
      },
      {}, Probes::Yes, clock.screen);
  clock.settle();
  Program q = parse_program(small.reduced.text, "reduced.uir");
  std::optional<Failure> again =
      failure_for_signature(oracle_family(oracle), signature, q, backend, small.config);
  if (!again) return r;
  Record named{r.seed, {again->oracle, again->detail, small.reduced.text, small.config}, ""};
  named.signature = failure_signature(named.failure, q, backend, small.config);
  return named;
}

// The failure as a worker reports it: shrunk first when asked, and named.
// A shrink that runs out of `clock` ends on what it reached, which the detail then says.
// A failure whose signature before shrinking `memo` has shrunk enough is kept as found.
Record make_record(uint64_t seed, Failure f, const FuzzArgs& a, Backend& backend, Target* target,
                   const OnNamed& named, const ShrinkClock& clock,
                   const ShrinkMemo* memo = nullptr) {
  Record r{seed, std::move(f), ""};
  Program p;
  try {
    p = parse_program(r.failure.program, "failing.uir");
  } catch (const UserError&) {  // a rejection failure: the text breaks a rule on purpose
    if (!target) {
      r.signature = failure_signature(r.failure, Program{}, backend, r.failure.config);
      return r;
    }
    // Shrinking one runs the engine on every candidate: once failures of its name have shrunk
    // enough, the next is kept as found, as a valid program's failure is.
    if (a.minimize) {
      std::string before = target_rejection_signature(r.failure, *target);
      if (std::optional<std::string> to = memo ? memo->shrunk_enough(before) : std::nullopt)
        return repeated(r, *to);
      named(provisionally(r, before));
    }
    return rejection_record(std::move(r), a, *target, clock);
  }
  if (target) {
    Target::Recall recall(*target);  // naming, shrinking and naming again ask alike
    // Localizing and shrinking run the engine many times: until they end, the failure is kept
    // under its outputs' name, then under the name localizing gives it before it is shrunk.
    if (a.minimize) {
      named(provisionally(r, by_outputs(r.failure, p)));
      if (memo) {
        Failure witness;
        std::string before = target_signature(r.failure, p, *target, &witness);
        // Kept as found, it must still speak of the op its name does (it may replace a shrunk
        // reproducer by being smaller).
        if (std::optional<std::string> to = memo->shrunk_enough(before)) {
          if (!witness.program.empty()) r.failure = witness;
          return repeated(r, *to);
        }
        named(provisionally(r, before));
      }
    }
    // A failure named by an op it does not hold is reproduced by target_signature's witness,
    // shrunk in its turn: a file speaks of the ops it has.
    for (int pass = 0; pass < 2; ++pass) {
      if (a.minimize) {
        Minimized small = minimize(
            p, r.failure.config,
            [&](const EngineConfig& c) {
              return clock.bounded(fails_target(*target, r.failure, c), c);
            },
            {}, Probes::No, clock.screen);
        clock.settle();
        p = parse_program(small.reduced.text, "reduced.uir");
        if (std::optional<Failure> g = check_target(p, *target, nullptr, small.config))
          r.failure = *g;
      }
      Failure witness;
      r.signature = target_signature(r.failure, p, *target, pass == 0 ? &witness : nullptr);
      if (witness.program.empty()) break;
      r.failure = witness;
      if (witness.oracle == "target-rejection")
        return rejection_record(std::move(r), a, *target, clock);
      p = parse_program(witness.program, "witness.uir");
    }
    return r;
  }
  EngineConfig config = r.failure.config;
  r.signature = failure_signature(r.failure, p, backend, config);
  // An expression (the symbolic oracle's) is not a program to shrink.
  if (!a.minimize || r.failure.oracle == "rejection" || r.failure.oracle == "symbolic") return r;
  if (std::optional<std::string> to = memo ? memo->shrunk_enough(r.signature) : std::nullopt)
    return repeated(r, *to);
  named(r);
  return shrunk(std::move(r), p, backend, clock);
}

// make_record, or when naming or shrinking the failure breaks the harness itself (its probes
// trust what the bug may have broken, an interval say), the failure as found, named by its
// oracle and outputs, with what broke: the bug it shows is not lost with the worker.
Record named_record(uint64_t seed, const Failure& f, const FuzzArgs& a, Backend& backend,
                    Target* target, const OnNamed& named, const ShrinkMemo& memo) {
  try {
    ShrinkClock clock(shrink_limit(a));
    Record r = make_record(seed, f, a, backend, target, named, clock, &memo);
    if (clock.cut()) r.failure.detail += clock.note();
    return r;
  } catch (const std::exception& e) {
    Record r{seed, f, ""};
    r.failure.detail += " (then naming or shrinking it failed: " + std::string(e.what()) + ")";
    try {
      r.signature = by_outputs(f, parse_program(f.program, "failing.uir"));
    } catch (const std::exception&) {
      r.signature = f.oracle;
    }
    return r;
  }
}

// A worker's crash on a program (the driver's record of it), named (and with --minimize shrunk)
// through uopc_run_engine when `uopc run` dies of the same signal on it: the localization of
// target_signature names the op whose kernel kills the process ("crash-SIGFPE-mod"), so that
// one bug is one signature whichever program met it. As found when `uopc run` does not crash
// (the crash was in an oracle's own code, say).
Record shrunk_crash(Record found, const FuzzArgs& a, Backend& backend, ShrinkClock& clock) {
  std::unique_ptr<Target> engine = uopc_run_engine(a.backend, a.plant, a.time_limit);
  if (!engine) return found;
  try {
    Program p = parse_program(found.failure.program, "failing.uir");
    std::optional<Failure> f = crash_of(p, *engine, found.failure.config);
    if (!f) return found;
    Record r = make_record(
        found.seed, *f, a, backend, engine.get(), [](const Record&) {}, clock);
    if (r.signature.rfind("target-SIG", 0) != 0) return found;
    r.signature = as_crash_signature(r.signature);
    r.failure.detail =
        found.failure.detail + "; uopc run on the program below: " + r.failure.detail;
    r.failure.oracle = "crash";
    r.failure.log.clear();
    if (clock.cut()) r.failure.detail += clock.note();
    return r;
  } catch (const std::exception& e) {
    found.failure.detail += " (then shrinking it failed: " + std::string(e.what()) + ")";
    return found;
  }
}

// A message of a shrink running apart to the process that started it: its kind, then a text.
std::string message(char kind, const std::string& text) {
  return std::string(1, kind) + std::to_string(text.size()) + "\n" + text;
}

// What a shrink running apart said before it ended or died.
struct ApartReport {
  std::string trying;          // the last candidate it began on, unless it then ended its shrink
  std::optional<Record> kept;  // the last candidate that still failed, as a failure
  std::optional<Record> done;
};

ApartReport read_report(const std::string& out) {
  ApartReport report;
  for (size_t at = 0; at < out.size();) {
    size_t nl = out.find('\n', at);
    if (nl == std::string::npos) break;
    size_t n = std::strtoull(out.c_str() + at + 1, nullptr, 10);
    if (nl + 1 + n > out.size()) break;
    std::string text = out.substr(nl + 1, n);
    char kind = out[at];
    at = nl + 1 + n;
    if (kind == 'T') report.trying = text;
    if (kind == 'N') report.trying.clear();
    if (kind != 'K' && kind != 'D') continue;
    std::vector<Record> records = decode(text);
    if (records.size() == 1) (kind == 'K' ? report.kept : report.done) = records[0];
  }
  return report;
}

// A failure's shrink and naming (`shrink`, from the record given, on the clock given).
using ShrinkStep = std::function<Record(const Record& from, ShrinkClock& clock)>;

// `shrink` run in child processes, for a failure whose shrink killed its worker: a compiler
// crashing on some candidates (in its type rules or its lowering) kills the child instead. The
// child says what it begins to try and what it keeps; when it dies on a candidate, the next
// child starts from the last program kept and passes over that candidate. Ends when a child
// ends the shrink, dies elsewhere, or has died kMaxDeaths times, or when the shrink's time is up.
Record shrunk_apart(Record from, const FuzzArgs& a, const ShrinkStep& shrink) {
  constexpr int kMaxDeaths = 16;
  ShrinkClock total(shrink_limit(a));
  std::set<std::string> set_aside;
  for (;;) {
    ChildRun run = in_child(
        [&](int fd) {
          ShrinkClock clock(total.left_s());
          clock.screen = [&](const std::string& candidate) {
            if (set_aside.count(candidate)) return false;
            write_all(fd, message('T', candidate));
            return true;
          };
          clock.still_failing = [&](const std::string& text, const EngineConfig& under) {
            Record kept = from;
            kept.failure.program = text;
            kept.failure.config = under;
            write_all(fd, message('K', encode(kept)));
          };
          clock.settled = [&] { write_all(fd, message('N', "")); };
          write_all(fd, message('D', encode(shrink(from, clock))));
        },
        total.left_s() + 2 * a.time_limit);
    ApartReport report = read_report(run.output);
    std::string passed = " (" + std::to_string(set_aside.size()) +
                         " candidates that killed the shrink's process passed over)";
    if (report.done) {
      if (!set_aside.empty()) report.done->failure.detail += passed;
      return *report.done;
    }
    if (report.kept) from = *report.kept;
    if (report.trying.empty() || set_aside.count(report.trying) ||
        static_cast<int>(set_aside.size()) >= kMaxDeaths || total.expired() || g_stop_signal) {
      from.failure.detail += " (shrunk in child processes until one died" +
                             std::string(run.ended ? "" : " or ran out of time") +
                             " outside a candidate, or too often: this is what they reached)";
      return from;
    }
    set_aside.insert(report.trying);
  }
}

// What a worker takes over from the one before it, which died: a program that killed it, to
// shrink and name through `uopc run` (shrunk_crash), or a failure whose shrink killed it, to
// shrink again in child processes (shrunk_apart).
struct Leftover {
  enum class Kind { Crash, Shrink } kind;
  Record record;
  bool apart = false;
};

// The leftover shrunk and named.
Record finished(const Leftover& left, const FuzzArgs& a, Backend& backend) {
  ShrinkStep shrink = [&](const Record& from, ShrinkClock& clock) {
    if (left.kind == Leftover::Kind::Crash) return shrunk_crash(from, a, backend, clock);
    Record r = shrunk(from, parse_program(from.failure.program, "failing.uir"), backend, clock);
    if (clock.cut()) r.failure.detail += clock.note();
    return r;
  };
  if (left.apart) return shrunk_apart(left.record, a, shrink);
  ShrinkClock clock(shrink_limit(a));
  return shrink(left.record, clock);
}

// `leftover`: what the worker before this one left when it died, which this one finishes first.
void worker(int j, uint64_t first_seed, const FuzzArgs& a, Shared* shared, int fd,
            int64_t deadline_ms, const std::optional<Leftover>& leftover) {
  std::unique_ptr<Backend> backend = make_backend(a.backend);
  std::unique_ptr<Target> target;  // an external engine, started by this worker
  if (!a.target.empty()) target = make_target(a);
  GenOptions gen = gen_options(a);
  if (leftover) {
    shared->minimizing[j] = true;
    shared->started_cpu_ms[j] = cpu_ms(CLOCK_PROCESS_CPUTIME_ID);
    shared->started_ms[j] = now_ms();
    Record r = finished(*leftover, a, *backend);
    shared->started_ms[j] = 0;
    shared->minimizing[j] = false;
    write_all(fd, encode(r));
  }
  int64_t done = shared->programs[j];
  int64_t budget = a.max_programs < 0 ? -1 : (a.max_programs + a.jobs - 1 - j) / a.jobs;
  bool stop_on_failure = !a.keep_going && a.corpus.empty();
  for (uint64_t seed = first_seed; now_ms() < deadline_ms && (budget < 0 || done < budget);
       seed += static_cast<uint64_t>(a.jobs)) {
    shared->current_seed[j] = seed;
    shared->started_cpu_ms[j] = cpu_ms(CLOCK_PROCESS_CPUTIME_ID);
    shared->started_ms[j] = now_ms();
    SeedStats* stats = a.stats ? &shared->stats[j] : nullptr;
    bool skipped = false;
    std::optional<Failure> f;
    if (!target || a.with_engines) f = check_seed(seed, *backend, gen, stats);
    if (target && !f) f = check_seed_target(seed, gen, *target, a.rejection, &skipped);
    shared->started_ms[j] = 0;
    shared->programs[j] = ++done;
    if (skipped) ++shared->skipped[j];
    // An occasional large value (a pad rebuilt from primitives, say) leaves the heap's high-water
    // mark behind; giving freed memory back keeps a long campaign's footprint flat.
    if (done % 4096 == 0) ::malloc_trim(0);
    if (!f) continue;
    // Shrinking runs the oracles many times over: it gets a budget of its own (past_time_limit).
    if (a.minimize) {
      shared->minimizing[j] = true;
      shared->started_cpu_ms[j] = cpu_ms(CLOCK_PROCESS_CPUTIME_ID);
      shared->started_ms[j] = now_ms();
    }
    auto provisional = [fd](Record r) {
      r.provisional = true;
      write_all(fd, encode(r));
    };
    Record record =
        named_record(seed, *f, a, *backend, by_target(f->oracle) ? target.get() : nullptr,
                     provisional, shared->shrunk);
    shared->started_ms[j] = 0;
    shared->minimizing[j] = false;
    write_all(fd, encode(record));
    if (stop_on_failure) break;
  }
}

// The program of a seed as the campaign draws it, `choices` left past it.
Program seed_program(uint64_t seed, RandomChoices& choices, const FuzzArgs& a) {
  return a.target.empty() ? generate(choices, gen_options(a))
                          : target_program(seed, choices, gen_options(a));
}

// The program of a seed, for a worker that died on it.
std::string program_of(uint64_t seed, const FuzzArgs& a) {
  RandomChoices choices(seed);
  return print_program(seed_program(seed, choices, a));
}

// How the compiled engine ran the program of a seed.
EngineConfig config_of(uint64_t seed, const FuzzArgs& a) {
  RandomChoices choices(seed);
  Program p = seed_program(seed, choices, a);
  return draw_engine_config(choices, p);
}

// The program and settings of a seed whose worker died, made again in a child process: what
// killed the worker may be the generator's or the printer's code, and the driver must outlive
// it. Empty when the child dies too.
struct SeedCheck {
  std::string program;
  EngineConfig config;
};

SeedCheck seed_check_in_child(uint64_t seed, const FuzzArgs& a, double limit_s) {
  // The threads, the options (one line) and the program.
  std::string out =
      in_child(
          [&](int fd) {
            EngineConfig c = config_of(seed, a);
            write_all(fd, std::to_string(c.threads) + "\n" + format_opts_choice(c.opts) + "\n" +
                              program_of(seed, a));
          },
          limit_s)
          .output;
  size_t threads_end = out.find('\n');
  size_t opts_end = threads_end == std::string::npos ? out.npos : out.find('\n', threads_end + 1);
  if (opts_end == std::string::npos) return {};
  SeedCheck made;
  made.config.threads = std::stoi(out.substr(0, threads_end));
  made.config.opts =
      parse_opts_choice(out.substr(threads_end + 1, opts_end - threads_end - 1), "--opts");
  made.program = out.substr(opts_end + 1);
  return made;
}

struct Group {
  int64_t count = 0;
  int64_t repeats = 0;  // failures not shrunk, their signature shrunk enough
  Record smallest;
  bool written = false;
  std::string path;  // where its reproducer is
};

bool smaller(const std::string& a, const std::string& b) {
  return std::make_pair(count_statements(a), a.size()) <
         std::make_pair(count_statements(b), b.size());
}

// The flags that make `uopc fuzz --replay SEED` check the same program the same way.
std::string replay_flags(const FuzzArgs& a) {
  std::string flags = " --max-elements " + std::to_string(a.max_elements) + " --backend " +
                      a.backend + steering_flags(a);
  if (!a.target.empty()) {
    flags +=
        " --target " + shell_quote(a.target) + (a.target_persistent ? " --target-persistent" : "");
    std::string compare = comparison_of(a).flags();
    if (!compare.empty()) flags += " " + compare;
    if (a.rejection) flags += " --rejection";
  }
  return a.plant.empty() ? flags : flags + " --plant " + a.plant;
}

// Why a corpus file is not a reproducer this command wrote ("" when it is one): it must start
// with the signature header and parse (a rejection's reproducer breaks a rule on purpose).
std::string foreign_reason(const std::string& text) {
  if (text.rfind("# signature: ", 0) != 0) return "does not start with a '# signature:' line";
  if (text.find("rejection oracle") != std::string::npos) return "";
  try {
    parse_program(text, "corpus.uir");
  } catch (const UserError&) {
    return "does not parse";
  }
  return "";
}

class Driver {
 public:
  explicit Driver(const FuzzArgs& a) : a_(a) {}

  int run(uint64_t seed) {
    load_corpus();
    if (a_.corpus.empty()) make_directory(a_.artifacts, "--artifacts");
    void* mem =
        ::mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) throw std::runtime_error("fuzz: cannot map shared memory");
    shared_ = new (mem) Shared{};
    start_ = now_ms();
    deadline_ = start_ + static_cast<int64_t>(a_.seconds * 1000);
    workers_.resize(static_cast<size_t>(a_.jobs));
    struct sigaction stop {
    }, old_int{}, old_term{};
    stop.sa_handler = request_stop;
    ::sigaction(SIGINT, &stop, &old_int);
    ::sigaction(SIGTERM, &stop, &old_term);
    for (int j = 0; j < a_.jobs; ++j) spawn(j, seed + static_cast<uint64_t>(j));
    // On a terminal the status line is redrawn in place; in a log, a line every status_every.
    bool live = ::isatty(2);
    int64_t next_status = start_ + static_cast<int64_t>(a_.status_every * 1000);
    while (running() > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (g_stop_signal) {
        stop_workers();
        break;
      }
      for (int j = 0; j < a_.jobs; ++j) poll(j);
      if (live) {
        status_line("\r", "   ");
      } else if (now_ms() >= next_status) {
        status_line("", "\n");
        next_status += static_cast<int64_t>(a_.status_every * 1000);
      }
    }
    if (live) std::fprintf(stderr, "\n");
    int64_t programs = total();
    double seconds = static_cast<double>(now_ms() - start_) / 1000.0;
    ::sigaction(SIGINT, &old_int, nullptr);
    ::sigaction(SIGTERM, &old_term, nullptr);
    int code = summary(programs, seconds, seed);
    ::munmap(mem, sizeof(Shared));
    return code;
  }

 private:
  struct Worker {
    pid_t pid = -1;
    int fd = -1;
    std::string buffer;
    std::optional<Record> unshrunk;  // the failure it is shrinking, named
    bool apart = false;              // shrinking it with candidates in child processes
  };

  // `leftover`: what the worker finishes first; `go_on`: whether it then checks programs.
  void spawn(int j, uint64_t first_seed, const std::optional<Leftover>& leftover = std::nullopt,
             bool go_on = true) {
    int pipefd[2];
    if (::pipe(pipefd) != 0) throw std::runtime_error("fuzz: cannot create a pipe");
    std::fflush(nullptr);
    pid_t pid = ::fork();
    if (pid == 0) {
      // Ctrl-C reaches the whole process group; the driver decides when workers stop.
      ::signal(SIGINT, SIG_IGN);
      ::signal(SIGTERM, SIG_DFL);
      ::close(pipefd[0]);
      install_crash_site_reporter(shared_->crash_sites[j], sizeof shared_->crash_sites[j]);
      worker(j, first_seed, a_, shared_, pipefd[1], go_on ? deadline_ : 0, leftover);
      ::close(pipefd[1]);
      std::fflush(nullptr);
      ::_exit(0);
    }
    ::close(pipefd[1]);
    ::fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
    workers_[static_cast<size_t>(j)] = {pid, pipefd[0], "", std::nullopt, false};
  }

  // Asked to stop: what the workers sent so far is kept, then they are ended (not counted as
  // crashes).
  void stop_workers() {
    for (Worker& w : workers_) {
      if (w.pid <= 0) continue;
      drain(w);
      ::kill(w.pid, SIGKILL);
      ::waitpid(w.pid, nullptr, 0);
      drain(w);
      ::close(w.fd);
      w.pid = -1;
      if (!w.unshrunk) continue;
      // A failure found and named but not yet shrunk is kept as found.
      Record r = std::move(*w.unshrunk);
      w.unshrunk.reset();
      r.failure.detail += " (not shrunk: the campaign was stopped while shrinking it)";
      add(std::move(r));
    }
  }

  int running() const {
    int n = 0;
    for (const Worker& w : workers_) n += w.pid > 0;
    return n;
  }

  // "N skipped, " when an external engine answered that it does not support some programs.
  std::string skipped_text() const {
    int64_t n = 0;
    for (int j = 0; j < a_.jobs; ++j) n += shared_->skipped[j];
    return a_.target.empty() ? "" : std::to_string(n) + " skipped (unsupported), ";
  }

  int64_t total() const {
    int64_t n = 0;
    for (int j = 0; j < a_.jobs; ++j) n += shared_->programs[j];
    return n;
  }

  void drain(Worker& w) {
    char buf[65536];
    ssize_t n;
    while ((n = ::read(w.fd, buf, sizeof buf)) > 0) w.buffer.append(buf, static_cast<size_t>(n));
    for (Record& r : decode(w.buffer)) {
      if (r.provisional) {
        w.unshrunk = std::move(r);
        continue;
      }
      if (w.unshrunk) shared_->shrunk.record(w.unshrunk->signature, r.signature);
      w.unshrunk.reset();
      add(std::move(r));
    }
  }

  // Seconds worker j may take on what it does now. A shrink ends itself at its limit
  // (ShrinkClock); one still running two programs' time later (a candidate, then the naming)
  // hangs.
  double limit_s(int j) const {
    return shared_->minimizing[j] ? shrink_limit(a_) + 2 * a_.time_limit : a_.time_limit;
  }

  // The limit counts the worker's CPU time, so a loaded machine does not make a program slow;
  // ten times the limit in wall time also counts, for a worker that waits forever.
  bool past_time_limit(int j, pid_t pid) const {
    int64_t started = shared_->started_ms[j], limit = static_cast<int64_t>(limit_s(j) * 1000);
    if (started <= 0) return false;
    if (now_ms() - started > 10 * limit) return true;
    clockid_t clock;
    if (::clock_getcpuclockid(pid, &clock) != 0) return now_ms() - started > limit;
    return cpu_ms(clock) - shared_->started_cpu_ms[j] > limit;
  }

  // Whether `signature` already has a reproducer no larger than `program`.
  bool has_reproducer_within(const std::string& signature, const std::string& program) const {
    auto it = groups_.find(signature);
    return it != groups_.end() && !it->second.smallest.failure.program.empty() &&
           !smaller(program, it->second.smallest.failure.program);
  }

  // "crash-SIGSEGV-in-bounds_of" when worker j died of a signal in uopc's own code, else "".
  std::string crash_site_signature(int j, int status) const {
    std::string site = function_name(shared_->crash_sites[j]);
    const char* signal = ::sigabbrev_np(WTERMSIG(status));
    if (site.empty() || !signal) return "";
    return "crash-SIG" + std::string(signal) + "-in-" + site;
  }

  // Reads what worker j sent; restarts it if it died or ran out of time on one program.
  void poll(int j) {
    Worker& w = workers_[static_cast<size_t>(j)];
    if (w.pid <= 0) return;
    drain(w);
    bool overdue = past_time_limit(j, w.pid);
    if (overdue) ::kill(w.pid, SIGKILL);
    int status = 0;
    if (::waitpid(w.pid, &status, WNOHANG) != w.pid) return;
    drain(w);
    ::close(w.fd);
    w.pid = -1;
    bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0 && !overdue;
    if (clean) return;
    uint64_t seed = shared_->current_seed[j];
    bool shrinking = shared_->minimizing[j];  // the program itself was checked and counted
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", limit_s(j));
    shared_->started_ms[j] = 0;
    shared_->minimizing[j] = false;
    if (!shrinking) shared_->programs[j] += 1;
    std::string what =
        overdue ? "ran past the " + std::string(limit) + " s time limit"
                : std::string("died (") +
                      (WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status))
                                           : "exit " + std::to_string(WEXITSTATUS(status))) +
                      ")";
    bool found = shrinking && w.unshrunk.has_value();
    bool go_on = (a_.keep_going || !a_.corpus.empty()) && now_ms() < deadline_;
    uint64_t next = seed + static_cast<uint64_t>(a_.jobs);
    if (found) {
      // The failure was found and named; shrinking it (on candidates of its own, not on this
      // program) went wrong. A worker that died on a candidate (a compiler crashing on it) leaves
      // it to the next worker, which shrinks it again with every candidate in a child process
      // (shrunk_apart); otherwise, and if that dies too, the failure stands as found. The
      // program itself did not kill its worker, so it is no crash.
      Record r = std::move(*w.unshrunk);
      w.unshrunk.reset();
      // An external engine's failure is shrunk through the worker's own engine, which a child
      // process cannot share.
      bool crash = r.failure.oracle == "crash";
      if (!overdue && !w.apart && !g_stop_signal && (crash || !by_target(r.failure.oracle))) {
        Leftover::Kind kind = crash ? Leftover::Kind::Crash : Leftover::Kind::Shrink;
        spawn(j, next, Leftover{kind, r, true}, go_on);
        workers_[static_cast<size_t>(j)].unshrunk = std::move(r);
        workers_[static_cast<size_t>(j)].apart = true;
        return;
      }
      r.failure.detail += " (not shrunk: the worker " + what + " shrinking it)";
      add(std::move(r));
      if (go_on) spawn(j, next);
      return;
    }
    SeedCheck made = seed_check_in_child(seed, a_, limit_s(j));
    Failure f{
        overdue ? "timeout" : "crash",
        "the worker " + what +
            (shrinking ? " shrinking a failure of this program" : " checking this program") +
            (made.program.empty() ? " (its program could not be made again: that died too)" : ""),
        made.program, made.config};
    // A crash in uopc's own code is named by where it happened, whatever the worker was doing
    // (checking the program, naming its failure): that needs no rerun.
    std::string site = WIFSIGNALED(status) && !overdue ? crash_site_signature(j, status) : "";
    Record r{seed, f, site.empty() ? signature_in_child(f, *tcc_, limit_s(j)) : site};
    // A program that kills its worker, checking it or naming its failure (which compiles it in
    // other ways), is named by the next worker through `uopc run`, and shrunk with --minimize
    // (shrunk_crash), so that one bug is one signature either way; until then, and if that
    // goes wrong, it is kept as found. A crash already named by its site needs neither when
    // its signature has a reproducer no larger.
    bool known = !site.empty() && has_reproducer_within(site, r.failure.program);
    if (!overdue && WIFSIGNALED(status) && !g_stop_signal && !known) {
      spawn(j, next, Leftover{Leftover::Kind::Crash, r}, go_on);
      workers_[static_cast<size_t>(j)].unshrunk = std::move(r);
      return;
    }
    add(std::move(r));
    if (go_on) spawn(j, next);
  }

  void add(Record r) {
    r.signature = triage_.group_of(r.signature, r.failure.program);
    Group& g = groups_[r.signature];
    ++g.count;
    g.repeats += r.repeat;
    if (g.count == 1 && g.smallest.failure.program.empty()) {
      g.smallest = r;
    } else if (!r.failure.program.empty() &&
               smaller(r.failure.program, g.smallest.failure.program)) {
      g.smallest = r;
    } else if (g.written || g.count > 1) {
      return;
    }
    write_reproducer(r.signature, g);
  }

  // Kept signatures from an earlier campaign in the same directory: a reproducer there is
  // only replaced by a smaller one.
  void load_corpus() {
    if (a_.corpus.empty()) return;
    make_directory(a_.corpus, "--corpus");
    for (const auto& e : std::filesystem::directory_iterator(a_.corpus)) {
      if (e.path().extension() != ".uir") continue;
      std::ifstream in(e.path(), std::ios::binary);
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      std::string why = !in.good() && !in.eof() ? "cannot be read" : foreign_reason(text);
      if (!why.empty()) {
        std::fprintf(stderr, "fuzz: %s %s; left alone, not taken as a reproducer\n",
                     e.path().c_str(), why.c_str());
        foreign_.insert(e.path().stem().string());
        continue;
      }
      std::string signature = triage_.group_of(text.substr(13, text.find('\n') - 13), text);
      Group& g = groups_[signature];
      g.smallest.failure.program = text;
      g.written = true;
      ++known_;
    }
  }

  // Into the corpus as SIGNATURE.uir, or without one as failure-SIGNATURE.uir among the
  // artifacts, so that no failure is only printed.
  std::string reproducer_path(const std::string& signature) const {
    if (a_.corpus.empty()) return a_.artifacts + "/failure-" + signature + ".uir";
    // A foreign file under the signature's name stays; the reproducer goes beside it.
    return a_.corpus + "/" + signature + (foreign_.count(signature) ? "-1" : "") + ".uir";
  }

  // What a reproducer says above its program: where it came from, how it was generated and
  // judged, and the command that replays it.
  std::string header(const std::string& signature, const Record& r, const std::string& path) {
    bool target = by_target(r.failure.oracle);
    std::string plant = a_.plant.empty() ? "" : " --plant " + a_.plant;
    // A detail may span lines (a C compiler's message): each is a comment.
    std::string out = "# signature: " + signature + "\n" +
                      as_comment("found by uopc fuzz (seed " + std::to_string(r.seed) + "): the " +
                                 r.failure.oracle + " oracle: " + r.failure.detail);
    if (!a_.plant.empty()) out += "# planted bug: " + a_.plant + "\n";
    if (!a_.steering_words.empty()) out += "# generated with:" + steering_flags(a_) + "\n";
    if (target) {
      std::string compare = comparison_of(a_).flags();
      out += "# compared: " + comparison_of(a_).name() + "\n";
      out += "# replay: uopc fuzz --check " + path + " --target " + shell_quote(a_.target) +
             (a_.target_persistent ? " --target-persistent" : "") +
             (compare.empty() ? "" : " " + compare) + plant + " " + r.failure.config.flags() + "\n";
      out += "# by hand: " +
             target_replay(a_.target, a_.target_persistent, path,
                           target_environment(r.failure.config)) +
             "\n";
    } else if (lost_in_text(r.failure) || r.failure.program.empty()) {
      // The text below was printed by the printer that loses the literal or the node's field,
      // or there is none (the generator threw making it): the seed keeps it.
      out += "# flags: " + r.failure.config.flags() + "\n";
      out += "# replay: uopc fuzz --replay " + std::to_string(r.seed) + replay_flags(a_) + "\n";
    } else {
      out += "# flags: " + r.failure.config.flags() + "\n";
      out += "# replay: uopc fuzz --check " + path + " --backend " + a_.backend + plant + " " +
             r.failure.config.flags() + "\n";
    }
    if (!r.failure.log.empty())
      out += "# the engine's last lines on stderr:\n" + as_comment(r.failure.log);
    return out;
  }

  void write_reproducer(const std::string& signature, Group& g) {
    const Record& r = g.smallest;
    std::string path = reproducer_path(signature);
    std::string text = header(signature, r, path) + r.failure.program;
    std::string tmp = path + ".tmp." + std::to_string(::getpid());
    std::ofstream(tmp, std::ios::binary) << text;
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
      std::fprintf(stderr, "fuzz: cannot write %s: %s\n", path.c_str(), ec.message().c_str());
      std::filesystem::remove(tmp, ec);
      return;
    }
    ++written_;
    g.written = true;
    g.path = path;
  }

  void print_stats() const {
    SeedStats all;
    for (int j = 0; j < a_.jobs; ++j) {
      all.edges.add(shared_->stats[j].edges);
      const SymbolicStats& s = shared_->stats[j].symbolic;
      all.symbolic.proved += s.proved;
      all.symbolic.refuted += s.refuted;
      all.symbolic.undecided += s.undecided;
    }
    std::printf("%s", format_edge_stats(all.edges).c_str());
    std::vector<std::string> missed = missed_edge_cells(all.edges);
    for (size_t k = 0; k < missed.size() && k < 20; ++k)
      std::printf("  not met: %s\n", missed[k].c_str());
    std::printf("symbolic oracle: %lld expressions proved, %lld refuted, %lld undecided\n",
                static_cast<long long>(all.symbolic.proved),
                static_cast<long long>(all.symbolic.refuted),
                static_cast<long long>(all.symbolic.undecided));
  }

  void status_line(const char* before, const char* after) {
    double t = static_cast<double>(now_ms() - start_) / 1000.0;
    std::fprintf(stderr, "%sfuzz: %lld programs, %.0f programs/s, %s%zu signatures, %.0f s%s",
                 before, static_cast<long long>(total()),
                 t > 0 ? static_cast<double>(total()) / t : 0.0, skipped_text().c_str(),
                 groups_.size() - static_cast<size_t>(known_), t, after);
  }

  int summary(int64_t programs, double seconds, uint64_t seed) {
    int64_t failures = 0;
    int shown = 0;
    for (const auto& [signature, g] : groups_) {
      if (g.count == 0) continue;
      failures += g.count;
      std::string repeats = g.repeats == 0
                                ? ""
                                : " (" + std::to_string(g.count - g.repeats) + " shrunk, " +
                                      std::to_string(g.repeats) + " more kept as found)";
      std::printf("signature %s: %lld failure%s%s%s%s\n", signature.c_str(),
                  static_cast<long long>(g.count), g.count == 1 ? "" : "s", repeats.c_str(),
                  g.path.empty() ? "" : ", reproducer ", g.path.c_str());
      if (shown++ >= 3) continue;
      const Record& r = g.smallest;
      std::printf("disagreement: the %s oracle failed: %s\n", r.failure.oracle.c_str(),
                  r.failure.detail.c_str());
      if (!r.failure.log.empty())
        std::printf("the engine's last lines on stderr:\n%s", as_comment(r.failure.log).c_str());
      std::printf("# program (seed %llu; replay with uopc fuzz --replay %llu%s)%s\n%s",
                  static_cast<unsigned long long>(r.seed), static_cast<unsigned long long>(r.seed),
                  replay_flags(a_).c_str(),
                  r.failure.program.empty() ? ": none could be made" : ":",
                  r.failure.program.c_str());
      if (!r.failure.program.empty() && r.failure.program.back() != '\n') std::printf("\n");
    }
    if (a_.stats) print_stats();
    size_t signatures = 0;
    for (const auto& [s, g] : groups_) signatures += g.count > 0;
    std::printf(
        "fuzz: %lld programs in %.1f s, %.0f programs/s, %s%lld disagreement%s in %zu signature%s, "
        "%d reproducer%s written (seed %llu, %d job%s%s%s%s%s)\n",
        static_cast<long long>(programs), seconds,
        seconds > 0 ? static_cast<double>(programs) / seconds : 0.0, skipped_text().c_str(),
        static_cast<long long>(failures), failures == 1 ? "" : "s", signatures,
        signatures == 1 ? "" : "s", written_, written_ == 1 ? "" : "s",
        static_cast<unsigned long long>(seed), a_.jobs, a_.jobs == 1 ? "" : "s",
        a_.plant.empty() ? "" : ", plant ", a_.plant.c_str(),
        a_.target.empty() ? "" : (", compared " + comparison_of(a_).name()).c_str(),
        g_stop_signal == SIGINT    ? ", stopped by SIGINT"
        : g_stop_signal == SIGTERM ? ", stopped by SIGTERM"
                                   : "");
    return failures ? 1 : 0;
  }

  const FuzzArgs& a_;
  Shared* shared_ = nullptr;
  std::vector<Worker> workers_;
  std::map<std::string, Group> groups_;
  Triage triage_;
  std::unique_ptr<Backend> tcc_ = make_tcc_backend();  // names crashes; never compiles
  int64_t start_ = 0, deadline_ = 0;
  int written_ = 0, known_ = 0;
  std::set<std::string> foreign_;  // signatures whose file in the corpus is not a reproducer
};

int replay(const FuzzArgs& a) {
  std::unique_ptr<Backend> backend = make_backend(a.backend);
  uint64_t seed = static_cast<uint64_t>(a.replay);
  std::unique_ptr<Target> target = a.target.empty() ? nullptr : make_target(a);
  std::optional<Failure> f = target ? check_seed_target(seed, gen_options(a), *target, a.rejection)
                                    : check_seed(seed, *backend, gen_options(a));
  if (!f) {
    std::printf("# seed %llu: every oracle agrees\n%s", static_cast<unsigned long long>(seed),
                program_of(seed, a).c_str());
    return 0;
  }
  // Every line before the program is a comment, so the output is a .uir file.
  std::printf("%s# program (seed %llu)%s\n%s",
              as_comment("disagreement: the " + f->oracle + " oracle failed: " + f->detail).c_str(),
              static_cast<unsigned long long>(seed),
              f->program.empty() ? ": none could be made" : ":", f->program.c_str());
  return 1;
}

// A file uopc refuses (`refusal`, its error) against an external engine, which must refuse it.
int check_refused(const std::string& text, const std::string& refusal, const FuzzArgs& a,
                  Target& target) {
  bool skipped = false;
  std::string why = "uopc refuses (" + refusal.substr(0, refusal.find('\n')) + ")";
  if (std::optional<Failure> f = check_target_rejects(text, why, target, &skipped)) {
    std::printf("disagreement: the target-rejection oracle failed: %s\n", f->detail.c_str());
    if (!f->log.empty())
      std::printf("the engine's last lines on stderr:\n%s", as_comment(f->log).c_str());
    std::printf("signature: %s\n", target_rejection_signature(*f, target).c_str());
    return 1;
  }
  std::printf("%s %s, as uopc does\n",
              skipped ? "the engine does not support" : "the engine refuses", a.check.c_str());
  return 0;
}

// Every oracle on one file: how a kept reproducer is replayed, whatever oracle it trips.
int check_file(const FuzzArgs& a) {
  std::unique_ptr<Backend> backend = make_backend(a.backend);
  // Read once: standard input ("-") can be read only once.
  const std::string text = read_source(a.check);
  const std::string name = a.check == "-" ? "<stdin>" : a.check;
  if (!a.target.empty()) {
    std::unique_ptr<Target> target = make_target(a);
    // A program uopc refuses is checked for that: the engine must refuse it too.
    Program p;
    try {
      p = parse_program(text, name);
    } catch (const UserError& e) {
      return check_refused(text, e.what(), a, *target);
    }
    bool skipped = false;
    EngineConfig config{parse_opts_choice(a.opts, "--opts"), a.threads};
    if (std::optional<Failure> f = check_target(p, *target, &skipped, config)) {
      std::printf("disagreement: the target oracle failed: %s\n", f->detail.c_str());
      if (!f->log.empty())
        std::printf("the engine's last lines on stderr:\n%s", as_comment(f->log).c_str());
      std::printf("signature: %s\n", target_signature(*f, p, *target).c_str());
      return 1;
    }
    std::printf("%s %s (compared %s)\n",
                skipped ? "the engine does not support" : "the engine agrees with uopc interp on",
                name.c_str(), target->comparison().name().c_str());
    return 0;
  }
  // A symbolic reproducer: the expression on its "# expression: " line.
  if (std::optional<RandomExpr> expr = read_expression(text, name)) {
    if (std::optional<Failure> f = check_expression(*expr)) {
      std::printf("disagreement: the symbolic oracle failed: %s\n", f->detail.c_str());
      return 1;
    }
    std::printf("the symbolic oracle agrees on %s\n", name.c_str());
    return 0;
  }
  Program p = parse_program(text, name);
  EngineConfig config{parse_opts_choice(a.opts, "--opts"), a.threads};
  // A program written against `uopc run` may fail only under its default settings.
  std::vector<EngineConfig> settings = {config};
  if (a.run_defaults)
    settings.push_back(
        {parse_opts_choice(a.run_defaults->first, "--opts"), a.run_defaults->second});
  // In a child process: a kernel that kills its process is then reported and named as a
  // campaign names it, instead of ending --check with the signal.
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fuzz: cannot fork");
  if (pid == 0) {
    int code = 0;
    std::optional<Failure> f;
    for (const EngineConfig& c : settings)
      if (!f && (f = check_program(p, *backend, true, c))) config = c;
    if (f) {
      std::printf("disagreement: the %s oracle failed%s: %s\n", f->oracle.c_str(),
                  config.flags() == settings[0].flags() ? "" : (" with " + config.flags()).c_str(),
                  f->detail.c_str());
      // The name a campaign would file it under, so that a hand-written program can be
      // matched with the reproducers already kept.
      std::printf("signature: %s\n", failure_signature(*f, p, *backend, config).c_str());
      code = 1;
    } else if (settings.size() > 1) {
      std::printf("every oracle agrees on %s, with %s and with uopc run's defaults, %s\n",
                  name.c_str(), settings[0].flags().c_str(), settings[1].flags().c_str());
    } else {
      std::printf("every oracle agrees on %s\n", name.c_str());
    }
    std::fflush(nullptr);
    ::_exit(code);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  std::printf("disagreement: the crash oracle failed: checking %s killed the process (signal %d)\n",
              name.c_str(), WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  std::unique_ptr<Target> engine = uopc_run_engine(a.backend, a.plant, a.time_limit);
  std::optional<Failure> f;
  for (const EngineConfig& c : settings)
    if (engine && !f) f = crash_of(p, *engine, c);
  if (f)
    std::printf("signature: %s\n", as_crash_signature(target_signature(*f, p, *engine)).c_str());
  return 1;
}

}  // namespace

int run_fuzz(const FuzzArgs& given) {
  FuzzArgs a = given;
  if (a.plant.empty()) a.plant = plant_from_environment();  // so replay hints name it too
  if (a.list_plants) {
    for (const PlantInfo& p : plant_list())
      std::printf("%-24s %s\n", std::string(p.name).c_str(), std::string(p.description).c_str());
    return 0;
  }
  std::optional<Plant> plant = parse_plant(a.plant);
  if (!plant)
    throw UserError("--plant: no planted bug named '" + a.plant + "' (see --list-plants)");
  set_plant(*plant);
  if (!make_backend(a.backend))
    throw UserError("--backend takes cc or tcc, not '" + a.backend + "'");
  if (a.jobs < 1 || a.jobs > kMaxJobs) throw UserError("--jobs takes 1 to 64");
  gen_options(a);  // a steering no program keeps to is refused before any worker starts
  comparison_of(a);
  if (a.target.empty() && a.with_engines)
    throw UserError(
        "--with-engines adds uopc's engines to a --target campaign; without "
        "--target they run anyway");
  if (a.target.empty() && (a.compare != "exact" || a.nan_equal || a.signed_zero_equal))
    throw UserError(
        "--compare, --nan-equal and --signed-zero-equal judge a --target; uopc's "
        "own engines always agree bit for bit");
  if (!a.target.empty()) require_engine_starts(*make_target(a));
  load_smt();  // here, not in a worker, whose death would be taken for the program's
  if (a.replay >= 0) return replay(a);
  if (!a.check.empty()) return check_file(a);
  uint64_t seed =
      a.seed ? a.seed
             : static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()) %
                   1'000'000'000'000ull;
  return Driver(a).run(seed);
}

}  // namespace uopc::cli
