// uopc: the command line. Each subcommand is one function below; exit codes follow LANGUAGE.md
// §6.4: 0 fine, 1 an assert failed, 2 bad program or input, 3 internal failure.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

#include "cli/crash_site.h"
#include "cli/fuzz_command.h"
#include "cli/reduce_command.h"
#include "cli/source.h"
#include "compiler/engine.h"
#include "compiler/engine_env.h"
#include "compiler/thread_pool.h"
#include "interp/interp.h"
#include "interp/npy.h"
#include "ir/dot.h"
#include "ir/error.h"
#include "ir/plant.h"
#include "ir/print.h"
#include "ir/suggest.h"

namespace uopc::cli {
namespace {

constexpr int kOk = 0, kAssertFailed = 1, kBadInput = 2, kInternal = 3;

std::string type_of(const UOp& n) {
  return std::string(dtype_name(n.dtype)) + shape_str(n.shape);
}

// "1 output", "2 outputs".
std::string counted(size_t n, const char* noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

int run_check(const std::string& path) {
  Program p = load_program(path);
  for (const Statement& s : p.statements) {
    const UOp& n = *s.node;
    std::string type =
        s.is_assert() ? type_of(*n.src[0]) + " == " + type_of(*n.src[1]) : type_of(n);
    std::printf("%s = %s : %s\n", s.name.c_str(), std::string(op_name(n.op)).c_str(), type.c_str());
  }
  std::printf("ok: %s, %s, %s\n", counted(p.statements.size(), "statement").c_str(),
              counted(p.outputs().size(), "output").c_str(),
              counted(p.asserts().size(), "assert").c_str());
  return kOk;
}

int run_print(const std::string& path) {
  std::fputs(print_program(load_program(path)).c_str(), stdout);
  return kOk;
}

int run_dot(const std::string& path) {
  std::fputs(program_to_dot(load_program(path)).c_str(), stdout);
  return kOk;
}

struct InterpArgs {
  std::string path;
  std::vector<std::string> inputs;
  std::string out_dir;
  int64_t max_elements = int64_t{1} << 28;
  int64_t print_limit = 500;  // values of more elements print summarized; 0: all
};

std::pair<int64_t, std::string> parse_input_flag(const std::string& flag) {
  size_t eq = flag.find('=');
  int64_t slot = -1;
  try {
    size_t used = 0;
    if (eq != std::string::npos && eq > 0) slot = std::stoll(flag.substr(0, eq), &used);
    if (used != eq) slot = -1;
  } catch (const std::exception&) {
    slot = -1;
  }
  if (slot < 0 || eq + 1 >= flag.size())
    throw UserError("--input takes SLOT=FILE.npy, like --input 0=x.npy; got '" + flag + "'");
  return {slot, flag.substr(eq + 1)};
}

void write_outputs(const InterpResult& r, const std::string& dir) {
  make_directory(dir, "--out");
  for (const auto& [s, t] : r.outputs) write_npy(dir + "/" + s->name.substr(1) + ".npy", t);
}

struct RunArgs : InterpArgs {
  std::string backend = "cc";
  bool check_bounds = false;
  bool check_ub = false;
  bool check_cost = false;
  std::string plant;
  std::string opts = "auto";
  int threads = 0;  // all cores
  bool bench = false;
  int bench_runs = 10;
};

OptsChoice opts_choice(const std::string& text) {
  return parse_opts_choice(text, "--opts");
}

int threads_of(const RunArgs& a) {
  return a.threads > 0 ? a.threads : hardware_threads();
}

// --plant NAME: one known compiler bug, for seeing what the oracles report.
void apply_plant(const std::string& name) {
  std::optional<Plant> p = parse_plant(name);
  if (!p)
    throw UserError("--plant: no planted bug named '" + name + "' (see uopc fuzz --list-plants)");
  set_plant(*p);
}

// The program's buffer slots, in order, as "0, 1".
std::string slot_list(const std::set<int64_t>& slots) {
  std::string out;
  for (int64_t s : slots) out += (out.empty() ? "" : ", ") + std::to_string(s);
  return out.empty() ? "none" : out;
}

// --input files, each for a slot the program has, each slot once.
InterpOptions interp_options(const InterpArgs& a, const Program& p) {
  std::set<int64_t> slots;
  for (const UOp* n : topo_order(p.roots()))
    if (n->op == Op::Buffer) slots.insert(n->slot());
  std::map<int64_t, std::string> files;  // every flag is checked before a file is read
  for (const std::string& flag : a.inputs) {
    auto [slot, file] = parse_input_flag(flag);
    if (!slots.count(slot))
      throw UserError("--input " + flag + ": the program has no buffer of slot " +
                      std::to_string(slot) + " (its slots: " + slot_list(slots) + ")");
    if (files.count(slot))
      throw UserError("--input " + flag + ": slot " + std::to_string(slot) + " is already given " +
                      files.at(slot));
    files[slot] = file;
  }
  InterpOptions o;
  o.max_elements = a.max_elements;
  for (const auto& [slot, file] : files)
    o.inputs[slot] = Input{file, read_npy(file, a.max_elements)};
  return o;
}

std::unique_ptr<Backend> backend_named(const std::string& name) {
  std::unique_ptr<Backend> b = make_backend(name);
  if (!b) throw UserError("--backend takes cc or tcc, not '" + name + "'");
  return b;
}

// Outputs, then failed asserts, as both `interp` and `run` print them.
// With `values` false (--bench) the outputs are only written to --out-dir.
int report(const Program& p, const InterpResult& r, const InterpArgs& a, bool values = true) {
  if (values)
    for (const auto& [s, t] : r.outputs)
      std::printf("%s\n", format_output(s->name, t, a.print_limit).c_str());
  std::fflush(stdout);
  if (!a.out_dir.empty()) write_outputs(r, a.out_dir);
  for (const AssertFailure& f : r.failures)
    std::fprintf(stderr, "%s:%d: assert %s failed: %s\n", p.file.c_str(), f.statement->line,
                 f.statement->name.c_str(), f.detail.c_str());
  return r.failures.empty() ? kOk : kAssertFailed;
}

int run_interp(const InterpArgs& a) {
  Program p = load_program(a.path);
  return report(p, interpret(p, interp_options(a, p)), a);
}

// The median of `runs` timed runs of every kernel, in milliseconds; `e` has run once already,
// which warmed it up.
double median_kernel_ms(Executable& e, int runs) {
  std::vector<double> ms;
  for (int k = 0; k < runs; ++k) {
    auto start = std::chrono::steady_clock::now();
    e.run();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count());
  }
  std::sort(ms.begin(), ms.end());
  return runs % 2 ? ms[runs / 2] : (ms[runs / 2 - 1] + ms[runs / 2]) / 2;
}

// What run and diff start from: the program, its inputs, the backend and the kernels.
struct Built {
  Program program;
  InterpOptions inputs;
  std::unique_ptr<Backend> backend;
  CompiledProgram kernels;
};

std::unique_ptr<Built> build(const RunArgs& a) {
  if (!a.plant.empty()) apply_plant(a.plant);
  auto b = std::make_unique<Built>();
  b->program = load_program(a.path);
  b->inputs = interp_options(a, b->program);
  b->backend = backend_named(a.backend);
  b->kernels = compile_program(
      b->program,
      {.check_bounds = a.check_bounds, .count_iterations = a.check_cost, .check_ub = a.check_ub},
      opts_choice(a.opts));
  return b;
}

int run_run(const RunArgs& a) {
  std::unique_ptr<Built> b = build(a);
  const Program& p = b->program;
  Executable e(p, b->kernels, *b->backend, b->inputs, threads_of(a));
  e.run();
  if (a.check_cost) {
    std::string excess = excess_iterations(p, b->kernels, e.iterations());
    if (!excess.empty()) throw std::logic_error(excess);
  }
  double ms = a.bench ? median_kernel_ms(e, a.bench_runs) : 0.0;
  int code = report(p, e.results(), a, !a.bench);
  if (a.bench) std::printf("kernel time: %.3f ms (median of %d runs)\n", ms, a.bench_runs);
  return code;
}

struct LowerArgs {
  std::string path;
  std::string opts = "auto";
  int64_t max_elements = InterpOptions{}.max_elements;
};

// The program compiled, refused as `run` would refuse it: lower and render show what runs.
CompiledProgram compile_checked(const LowerArgs& a) {
  Program p = load_program(a.path);
  CompiledProgram c = compile_program(p, {}, opts_choice(a.opts));
  check_stored_sizes(p, c, a.max_elements);
  return c;
}

int run_lower(const LowerArgs& a) {
  std::fputs(lowered_text(compile_checked(a)).c_str(), stdout);
  return kOk;
}

int run_render(const LowerArgs& a) {
  std::fputs(compile_checked(a).source.c_str(), stdout);
  return kOk;
}

// The interpreter holds every value, fused or not, so diff refuses programs that run accepts.
InterpResult interpret_for_diff(const Program& p, const InterpOptions& o) {
  try {
    return interpret(p, o);
  } catch (const UserError& e) {
    throw UserError(e.location(), e.message() +
                                      " (diff runs the interpreter, which stores every value; "
                                      "uopc run stores only what its kernels write)");
  }
}

// How many outputs, and whether the asserts' verdicts, differ between the two engines, each
// reported on stdout; `with` names the data when it is not what the flags give.
int count_differences(const Program& p, const InterpResult& want, const InterpResult& got,
                      const std::string& backend, const std::string& with) {
  int differences = 0;
  for (size_t i = 0; i < want.outputs.size(); ++i) {
    const auto& [s, t] = want.outputs[i];
    std::string d = difference_summary(t, got.outputs[i].second, "interp", backend);
    if (d.empty()) continue;
    ++differences;
    std::printf("%s:%d: %s differs%s: %s\n", p.file.c_str(), s->line, s->name.c_str(), with.c_str(),
                d.c_str());
  }
  for (const Statement* s : p.asserts()) {
    std::string w = assert_verdict(want, s->name), g = assert_verdict(got, s->name);
    if (w == g) continue;
    ++differences;
    std::printf("%s:%d: the engines disagree on %s%s: interp: %s; %s: %s\n", p.file.c_str(),
                s->line, s->name.c_str(), with.c_str(), w.c_str(), backend.c_str(), g.c_str());
  }
  return differences;
}

// Compares every output and every assert's verdict between the two engines, on the inputs
// the flags give and, when the default data would repeat (interp/tensor.h), on scrambled
// inputs in the buffers the flags leave to it.
int run_diff(const RunArgs& a) {
  std::unique_ptr<Built> b = build(a);
  const Program& p = b->program;
  // A compiled engine that strays outside a buffer (or, with --check-ub, into undefined
  // behaviour) differs from the interpreter.
  auto compare_on = [&](const InterpOptions& data, const std::string& with) -> int {
    auto failed = [&](const std::exception& e) {
      std::printf("%s: the %s engine failed%s: %s\n", p.file.c_str(), a.backend.c_str(),
                  with.c_str(), e.what());
      return 1;
    };
    // An unrolled reduce folds as a tree; the interpreter folds it the same way.
    InterpResult want = interpret_for_diff(p, matching(b->kernels, data));
    InterpResult got;
    try {
      Executable e(p, b->kernels, *b->backend, data, threads_of(a));
      e.run();
      got = e.results();
      std::string excess = a.check_cost ? excess_iterations(p, b->kernels, e.iterations()) : "";
      if (!excess.empty()) return failed(std::logic_error(excess));
    } catch (const BoundsError& e) {
      return failed(e);
    } catch (const UndefinedBehaviorError& e) {
      return failed(e);
    }
    return count_differences(p, want, got, a.backend, with);
  };
  const InterpOptions& o = b->inputs;
  if (compare_on(o, "")) return kAssertFailed;
  if (std::optional<InterpOptions> scrambled = scrambled_options(p, o))
    if (compare_on(*scrambled, " with scrambled inputs")) return kAssertFailed;
  std::printf("agree: %s and %s, interp and %s, bit for bit\n",
              counted(p.outputs().size(), "output").c_str(),
              counted(p.asserts().size(), "assert").c_str(), a.backend.c_str());
  return kOk;
}

// Durations, counts and limits: a number above 0 (`zero` also allows 0). CLI11's own checks
// print their whole range.
CLI::Validator positive(bool zero = false) {
  return CLI::Validator(
      [zero](std::string& text) -> std::string {
        char* end = nullptr;
        double v = std::strtod(text.c_str(), &end);
        if (end == text.c_str() || *end != '\0') return "takes a number, not '" + text + "'";
        if (zero) return v >= 0 ? "" : "takes a number of 0 or more, not " + text;
        return v > 0 ? "" : "takes a number above 0, not " + text;
      },
      zero ? "NONNEGATIVE" : "POSITIVE");
}

void add_print_limit(CLI::App* cmd, int64_t& limit) {
  cmd->add_option("--print-limit", limit,
                  "print a value of more elements NumPy-style, its first and last three entries "
                  "along each axis around '...' (0: print every element)")
      ->check(positive(true));
}

// --opts and --threads for commands that replay a failure under the engine settings it needs.
void add_engine_flags(CLI::App* cmd, std::string& opts, int& threads, const std::string& what) {
  cmd->add_option("--opts", opts, what + "kernel options");
  cmd->add_option("--threads", threads, what + "threads")->check(CLI::Range(1, 1024));
}

// The settings `uopc run` uses by default, for a command replaying a failure whose settings
// were not given (neither --opts nor --threads): a hand-written program checked by `uopc run`
// may fail only there.
std::optional<std::pair<std::string, int>> run_defaults_unless_given(CLI::App* cmd,
                                                                     const EngineEnvironment& env) {
  if (cmd->get_option("--opts")->count() + cmd->get_option("--threads")->count() > 0) return {};
  return std::pair{env.opts.value_or(RunArgs{}.opts), env.threads.value_or(hardware_threads())};
}

// The generator's steering (fuzz/steering.h), kept as words so that one parser reads them here
// and in the libFuzzer targets.
void add_steering_flags(CLI::App* cmd, std::vector<std::string>& words) {
  auto list = [&](const char* flag, const char* help) {
    cmd->add_option_function<std::string>(
        flag,
        [&words, flag](const std::string& v) { words.push_back(std::string(flag) + "=" + v); },
        help);
  };
  list("--ops", "OP,OP: generate programs of these ops only (buffer or stack among them)");
  list("--exclude-ops", "OP,OP: generate no program with these ops");
  list("--dtypes", "D,D: values of these dtypes only (bool, i32, f32)");
  list("--max-rank", "N: values of rank N at most (1 to 8)");
  const std::pair<const char*, const char*> classes[] = {
      {"--no-nan", "no value is NaN"},
      {"--no-inf", "no value is infinite"},
      {"--no-signed-zero", "no value is -0"},
      {"--no-int-extremes", "no i32 value beyond 2^15, so nothing wraps or saturates"},
      {"--no-zero-divisor", "no idiv or mod by 0"}};
  for (const auto& [flag, help] : classes)
    cmd->add_flag_callback(
        flag, [&words, flag = flag] { words.push_back(flag); }, help);
}

CLI::App* command_named(CLI::App& app, const std::string& name) {
  for (CLI::App* sub : app.get_subcommands({}))
    if (sub->get_name() == name) return sub;
  return nullptr;
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
  return names;
}

// `uopc frobnicate`: CLI11 would only say that a subcommand is required.
void check_command_word(CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-' || command_named(app, argv[1])) return;
  throw UserError("unknown command '" + std::string(argv[1]) + "'" +
                  did_you_mean(argv[1], command_names(app)) + " (uopc help lists the commands)");
}

// "; did you mean '--seconds'?" for the first flag the chosen command does not know.
std::string flag_suggestion(CLI::App& app, int argc, char** argv) {
  if (argc < 2) return "";
  CLI::App* sub = command_named(app, argv[1]);
  if (!sub) return "";
  std::vector<std::string> flags{"--help"};
  for (const CLI::Option* o : sub->get_options()) {
    for (const std::string& n : o->get_lnames()) flags.push_back("--" + n);
    for (const std::string& n : o->get_snames()) flags.push_back("-" + n);
  }
  for (int k = 2; k < argc; ++k) {
    std::string word = argv[k];
    if (word.size() < 2 || word[0] != '-' || (word[1] >= '0' && word[1] <= '9')) continue;
    word = word.substr(0, word.find('='));
    if (std::find(flags.begin(), flags.end(), word) != flags.end()) continue;
    std::string hint = did_you_mean(word, flags);
    // A flag cut short (--out for --out-dir) is meant as the one it begins, if only one does.
    std::vector<std::string> longer;
    for (const std::string& f : flags)
      if (f.rfind(word, 0) == 0) longer.push_back(f);
    if (hint.empty() && longer.size() == 1) hint = "; did you mean '" + longer[0] + "'?";
    return hint.empty() ? "; " + std::string(argv[1]) + " has no flag " + word : hint;
  }
  return "";
}

int run_help(CLI::App& app, const std::string& command) {
  // App::help() would explain the help command itself, the one selected.
  if (command.empty()) {
    std::fputs(app.get_formatter()->make_help(&app, "uopc", CLI::AppFormatMode::Normal).c_str(),
               stdout);
    return kOk;
  }
  CLI::App* sub = command_named(app, command);
  if (!sub || command == "help")
    throw UserError("uopc help: no command '" + command + "'" +
                    did_you_mean(command, command_names(app)));
  std::fputs(
      sub->get_formatter()->make_help(sub, "uopc " + command, CLI::AppFormatMode::Normal).c_str(),
      stdout);
  return kOk;
}

int dispatch(int argc, char** argv) {
  // UOPC_PLANT is --plant for every subcommand; a name that is no plant is a mistake.
  std::string env_plant = plant_from_environment();
  if (!parse_plant(env_plant))
    throw UserError("UOPC_PLANT: no planted bug named '" + env_plant +
                    "' (see uopc fuzz --list-plants)");
  // UOPC_OPTS, UOPC_THREADS and UOPC_CHECK are the defaults of the compiling commands' flags.
  EngineEnvironment env = read_engine_environment();
  CLI::App app{"uopc: a compiler, reference interpreter and fuzzer for the .uir tensor language"};
  app.require_subcommand(1);
  // --help shows every default.
  app.option_defaults()->always_capture_default();
  std::string path;
  int code = kOk;
  // --plant on the commands that have no engine settings of their own.
  std::string plant;
  auto add_plant = [&](CLI::App* cmd, std::string& into) {
    cmd->add_option("--plant", into,
                    "switch on one planted bug, as UOPC_PLANT does (uopc fuzz --list-plants)");
  };

  // Commands that only read a program and print something about it.
  const struct {
    const char* name;
    const char* description;
    int (*run)(const std::string&);
  } readers[] = {
      {"check", "type-check FILE and print each statement's type", run_check},
      {"print", "print FILE in canonical form", run_print},
      {"dot", "print FILE's graph as Graphviz DOT", run_dot},
  };
  for (const auto& r : readers) {
    CLI::App* cmd = app.add_subcommand(r.name, r.description);
    cmd->add_option("FILE", path, "program, or - for standard input")->required();
    add_plant(cmd, plant);
    cmd->callback([&, run = r.run] {
      if (!plant.empty()) apply_plant(plant);
      code = run(path);
    });
  }
  const char* opts_help =
      "kernel options: auto, none, or e.g. 'upcast=0:4,1:4 unroll=4 tile=0:64 thread=0'";
  LowerArgs la;
  la.opts = env.opts.value_or(la.opts);
  CLI::App* lower = app.add_subcommand("lower", "print FILE's kernels as loop programs");
  CLI::App* render = app.add_subcommand("render", "print the C source of FILE's kernels");
  for (CLI::App* cmd : {lower, render}) {
    cmd->add_option("FILE", la.path, "program, or - for standard input")->required();
    cmd->add_option("--opts", la.opts, opts_help);
    cmd->add_option("--max-elements", la.max_elements,
                    "refuse a program that stores a value larger than this")
        ->check(positive());
    add_plant(cmd, plant);
    cmd->callback([&, cmd] {
      if (!plant.empty()) apply_plant(plant);
      code = cmd == lower ? run_lower(la) : run_render(la);
    });
  }

  InterpArgs ia;
  ia.print_limit = env.print_limit.value_or(ia.print_limit);
  CLI::App* interp = app.add_subcommand("interp", "run FILE on the reference interpreter");
  interp->add_option("FILE", ia.path, "program, or - for standard input")->required();
  interp->add_option("--input", ia.inputs, "SLOT=FILE.npy: data for buffer slot SLOT");
  interp->add_option("--out-dir", ia.out_dir, "also write each output as DIR/NAME.npy");
  add_print_limit(interp, ia.print_limit);
  interp->footer("UOPC_PRINT_LIMIT in the environment is the default of --print-limit.");
  interp->add_option("--max-elements", ia.max_elements, "refuse values larger than this")
      ->check(positive());
  add_plant(interp, plant);
  interp->callback([&] {
    if (!plant.empty()) apply_plant(plant);
    code = run_interp(ia);
  });

  RunArgs ra;
  ra.opts = env.opts.value_or(ra.opts);
  ra.threads = env.threads.value_or(ra.threads);
  ra.check_bounds = env.check_bounds, ra.check_ub = env.check_ub, ra.check_cost = env.check_cost;
  ra.print_limit = env.print_limit.value_or(ra.print_limit);
  CLI::App* run = app.add_subcommand("run", "compile FILE to C, run it, print what interp prints");
  CLI::App* diff = app.add_subcommand("diff", "run FILE on the interpreter and compiled; compare");
  for (CLI::App* cmd : {run, diff}) {
    cmd->add_option("FILE", ra.path, "program, or - for standard input")->required();
    cmd->add_option("--input", ra.inputs, "SLOT=FILE.npy: data for buffer slot SLOT");
    cmd->add_option("--max-elements", ra.max_elements,
                    cmd == run ? "refuse a program that stores a value larger than this"
                               : "refuse a program that stores, compiled or interpreted, a "
                                 "value larger than this (the interpreter stores every value)")
        ->check(positive());
    cmd->add_option("--backend", ra.backend,
                    "cc (the system C compiler) or tcc (libtcc in memory)");
    cmd->add_option("--plant", ra.plant,
                    "switch on one planted compiler bug (uopc fuzz --list-plants)");
    cmd->add_flag("--check-bounds", ra.check_bounds,
                  "check every load and store offset at run time (exit 3 on a bad one)");
    cmd->add_flag("--check-ub", ra.check_ub,
                  "check every i32 op written as plain C for overflow at run time (exit 3 on one)");
    cmd->add_flag("--check-cost", ra.check_cost,
                  "count loop iterations and fail (exit 3) past what the program's work needs");
    cmd->add_option("--opts", ra.opts, opts_help);
    cmd->add_option("--threads", ra.threads, "threads for kernels with a thread loop")
        ->default_str(env.threads ? std::to_string(*env.threads) : "all cores")
        ->check(CLI::Range(1, 1024));
    cmd->footer(
        "UOPC_OPTS, UOPC_THREADS and UOPC_CHECK (a comma list of bounds, ub, cost) in the "
        "environment are the defaults of --opts, --threads and the --check-* flags, and "
        "UOPC_PRINT_LIMIT of run's --print-limit.");
  }
  run->add_option("--out-dir", ra.out_dir, "also write each output as DIR/NAME.npy");
  add_print_limit(run, ra.print_limit);
  CLI::Option* bench = run->add_flag(
      "--bench", ra.bench,
      "time the kernels (after a warm-up run) and end with their median time, not the values");
  run->add_option("--runs", ra.bench_runs, "timed runs for --bench")
      ->check(CLI::Range(1, 1000000))
      ->needs(bench);
  run->callback([&] { code = run_run(ra); });
  diff->callback([&] { code = run_diff(ra); });

  FuzzArgs fa;
  CLI::App* fuzz = app.add_subcommand("fuzz", "generate random programs and check every oracle");
  fuzz->add_option("--seconds", fa.seconds, "how long to run")->check(positive());
  fuzz->add_option("--status-every", fa.status_every,
                   "seconds between status lines when stderr is not a terminal")
      ->check(positive());
  fuzz->add_flag("--stats", fa.stats,
                 "end with the edge values each op met and the symbolic oracle's verdicts");
  fuzz->add_option("--seed", fa.seed, "first seed (0: from the clock)");
  fuzz->add_option("--jobs", fa.jobs, "worker processes")->check(CLI::Range(1, 64));
  fuzz->add_option("--plant", fa.plant, "switch on one planted bug (see --list-plants)");
  fuzz->add_option("--backend", fa.backend, "tcc (libtcc in memory) or cc (the system C compiler)");
  fuzz->add_option("--max-programs", fa.max_programs, "stop after this many programs")
      ->default_str("no limit")
      ->check(positive());
  fuzz->add_option("--max-elements,--max-numel", fa.max_elements,
                   "elements of the largest value a generated program may hold")
      ->check(positive());
  fuzz->add_option("--replay", fa.replay, "check the program of one seed and print it")
      ->check(positive(true))
      ->default_str("");
  fuzz->add_option("--target", fa.target,
                   "CMD: diff the interpreter against `CMD FILE` instead (docs/ENGINES.md)");
  fuzz->add_flag("--target-persistent", fa.target_persistent,
                 "start --target once per worker; it reads one program path per line on stdin")
      ->needs(fuzz->get_option("--target"));
  fuzz->add_flag("--with-engines", fa.with_engines,
                 "with --target: also check uopc's compiled engine and every oracle on each "
                 "program, so that three engines are diffed at once");
  fuzz->add_flag("--rejection", fa.rejection,
                 "with --target: also give the engine programs that break one type rule, each of "
                 "which it must refuse with status 2")
      ->needs(fuzz->get_option("--target"));
  fuzz->add_option("--compare", fa.compare,
                   "how --target's outputs are judged: exact (bit for bit) or spec (the "
                   "differences LANGUAGE.md §7 allows)");
  fuzz->add_flag("--nan-equal", fa.nan_equal,
                 "with --target: an element where either engine has NaN is not compared");
  fuzz->add_flag("--signed-zero-equal", fa.signed_zero_equal, "with --target: -0 equals 0");
  fuzz->add_option("--check", fa.check,
                   "check one program FILE with every oracle (exit 1 on a failure)");
  fuzz->add_flag("--list-plants", fa.list_plants, "print the planted bugs, one per line");
  fuzz->add_option("--corpus", fa.corpus,
                   "keep the smallest reproducer of each failure here (resumes)");
  fuzz->add_option("--out-dir,--artifacts", fa.artifacts,
                   "without --corpus: write each failure as DIR/failure-SIGNATURE.uir");
  fuzz->add_flag("--minimize", fa.minimize,
                 "shrink every failure with uopc reduce before keeping it");
  fuzz->add_flag("--keep-going", fa.keep_going, "go on after a failure (implied by --corpus)");
  fuzz->add_option("--time-limit", fa.time_limit, "seconds one program may take")
      ->check(positive());
  fuzz->add_option("--shrink-time-limit", fa.shrink_time_limit,
                   "with --minimize: seconds shrinking one failure may take, after which it "
                   "keeps what it reached (default: 30 times --time-limit)")
      ->check(CLI::NonNegativeNumber)
      ->needs(fuzz->get_option("--minimize"));
  CLI::Option* check = fuzz->get_option("--check");
  add_engine_flags(fuzz, fa.opts, fa.threads, "with --check: ");
  // They only say how --check runs its one program; a campaign draws them per program.
  fuzz->get_option("--opts")->needs(check);
  fuzz->get_option("--threads")->needs(check);
  add_steering_flags(fuzz, fa.steering_words);
  fuzz->callback([&] {
    fa.run_defaults = run_defaults_unless_given(fuzz, env);
    code = run_fuzz(fa);
  });

  ReduceArgs rd;
  CLI::App* reduce = app.add_subcommand("reduce", "shrink a failing FILE to a small reproducer");
  reduce->add_option("FILE", rd.path, "the failing program")->required();
  reduce->add_option("--oracle", rd.oracle,
                     "engines, memory, cost, composites, roundtrip or rejection");
  reduce->add_option("--plant", rd.plant, "the planted bug the program trips");
  CLI::Option* test =
      reduce->add_option("--test", rd.test, "CMD: `CMD FILE` exits 0 while FILE still fails");
  CLI::Option* target = reduce->add_option(
      "--target", rd.target,
      "CMD: shrink while `CMD FILE` disagrees with uopc interp the same way (docs/ENGINES.md)");
  target->excludes(test);
  target->excludes(reduce->get_option("--oracle"));  // the engine's failure is the oracle
  reduce->add_option("--compare", rd.compare, "how --target's outputs are judged: exact or spec")
      ->needs(target);
  reduce
      ->add_option("--timeout", rd.timeout,
                   "seconds one run of --test or --target may take (past it: not failing)")
      ->check(positive());
  reduce->add_option("-o,--out", rd.out, "where to write it (default corpus/SIGNATURE.uir)");
  reduce->add_option("--backend", rd.backend,
                     "tcc (libtcc in memory) or cc (the system C compiler)");
  add_engine_flags(reduce, rd.opts, rd.threads, "the failure's ");
  reduce->callback([&] {
    rd.run_defaults = run_defaults_unless_given(reduce, env);
    code = run_reduce(rd);
  });

  CLI::App* help = app.add_subcommand("help", "print the commands, or COMMAND's flags");
  std::string help_on;
  help->add_option("COMMAND", help_on, "the command to explain");
  help->callback([&] { code = run_help(app, help_on); });
  app.set_version_flag("--version", std::string("uopc ") + UOPC_VERSION);

  check_command_word(app, argc, argv);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e), kOk;  // --help, --version
    std::fflush(stdout);
    std::fprintf(stderr, "uopc: error: %s%s\n", e.what(), flag_suggestion(app, argc, argv).c_str());
    if (argc > 1 && command_named(app, argv[1]))
      std::fprintf(stderr, "(uopc help %s lists its flags)\n", argv[1]);
    else
      std::fprintf(stderr, "(uopc help lists the commands)\n");
    return kBadInput;
  }
  return code;
}

}  // namespace
}  // namespace uopc::cli

int main(int argc, char** argv) {
  // A campaign's workers die of their programs' crashes by design; the driver names those.
  if (argc < 2 || std::string(argv[1]) != "fuzz") uopc::cli::install_crash_site_reporter();
  try {
    return uopc::cli::dispatch(argc, argv);
  } catch (const uopc::UserError& e) {
    std::fflush(stdout);
    // An error of no file is about the command line.
    std::fprintf(stderr, "%s%s", e.location().file.empty() ? "uopc: " : "",
                 uopc::format_diagnostic(e).c_str());
    return uopc::cli::kBadInput;
  } catch (const uopc::ToolchainError& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "uopc: toolchain error: %s\n", e.what());
    return uopc::cli::kInternal;
  } catch (const std::bad_alloc&) {
    std::fflush(stdout);
    std::fprintf(stderr, "uopc: out of memory (a smaller --max-elements refuses such values)\n");
    return uopc::cli::kInternal;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "uopc: internal error: %s\n", e.what());
    return uopc::cli::kInternal;
  }
}
