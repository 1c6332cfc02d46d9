#include "fuzz/campaign.h"

#include <chrono>
#include <stdexcept>

#include "ir/print.h"

namespace uopc {

namespace {

// The sizes of a program that each option applies to, so that a drawn factor can be one that
// takes effect (fit_opts drops a factor that does not divide its size).
struct OptionSizes {
  std::vector<int64_t> axis[4];       // a node's size along each output axis
  std::vector<int64_t> reduce_last;   // a reduce's innermost popped axis (unroll)
  std::vector<int64_t> reduce_first;  // a reduce's first popped axis (block)
};

OptionSizes option_sizes(const Program& p) {
  OptionSizes s;
  for (const UOp* n : topo_order(p.roots())) {
    for (size_t k = 0; k < n->shape.size() && k < 4; ++k) s.axis[k].push_back(n->shape[k]);
    if (n->op != Op::Reduce || n->pop() == 0) continue;
    s.reduce_last.push_back(n->src[0]->shape[static_cast<size_t>(n->pop() - 1)]);
    s.reduce_first.push_back(n->src[0]->shape[0]);
  }
  return s;
}

// The factors in [2, 8] that divide one of `sizes` (and are smaller than it, if `proper`).
std::vector<int64_t> dividing(const std::vector<int64_t>& sizes, bool proper) {
  std::vector<int64_t> out;
  for (int64_t f = 2; f <= 8; ++f)
    for (int64_t size : sizes)
      if (size % f == 0 && (size > f || (!proper && size == f))) {
        out.push_back(f);
        break;
      }
  return out;
}

// Half the time a factor that fits some size of the program, when one does; otherwise one of
// `any`, which exercises the options' fitting as well.
int64_t factor(Choices& c, const std::vector<int64_t>& fitting, const std::vector<int64_t>& any) {
  if (!fitting.empty() && c.coin()) return c.pick(fitting);
  return c.pick(any);
}

const std::vector<int64_t> kSmall{2, 3, 4};

}  // namespace

EngineConfig draw_engine_config(Choices& c, const Program& p) {
  EngineConfig config;
  config.threads = 3;
  int64_t mode = c.range(0, 5);
  if (mode < 2) return config;
  if (mode == 2) {
    config.opts.mode = OptsChoice::Mode::Auto;
    return config;
  }
  config.opts.mode = OptsChoice::Mode::Fixed;
  Opts& o = config.opts.fixed;
  OptionSizes sizes = option_sizes(p);
  for (int axis = 0; axis < 4; ++axis)
    if (c.one_in(3)) o.upcast[axis] = factor(c, dividing(sizes.axis[axis], false), kSmall);
  if (c.coin()) {
    o.unroll = factor(c, dividing(sizes.reduce_last, false), kSmall);
    o.unroll_in_order = c.coin();
  }
  if (c.one_in(3)) {
    int axis = static_cast<int>(c.range(0, 3));
    o.tile[axis] = factor(c, dividing(sizes.axis[axis], true), {2, 3, 4, 6, 8});
  }
  if (c.coin()) o.thread = static_cast<int>(c.range(0, 2));
  if (c.one_in(3)) o.block = factor(c, dividing(sizes.reduce_first, true), kSmall);
  // Small tables: the generator's stacks are far shorter than the default threshold.
  if (c.one_in(3)) o.table = c.range(1, 8);
  return config;
}

namespace {

// A steered program that breaks its steering is the generator's failure: it would fuzz an
// engine on what it does not claim.
std::optional<Failure> check_steering(const Program& p, const Steering& steering) {
  if (steering.is_default()) return std::nullopt;
  std::string why = steering_violation(p, steering);
  if (why.empty()) return std::nullopt;
  return Failure{"steering", why + " (" + steering.flags() + ")", print_program(p)};
}

// The generator builds its programs with the builders the parser uses, so each passes the
// type rules by construction. A builder that throws on one is a bug in the generator, a rule
// or an invariant the build trips (a literal of the wrong dtype), met before any program
// exists: the generator oracle's failure, with no program, replayed from the seed or input.
template <class Make>
std::optional<Failure> generated(Program& out, const Make& make) {
  try {
    out = make();
    return std::nullopt;
  } catch (const std::exception& e) {
    return Failure{"generator", std::string("threw: ") + e.what(), ""};
  }
}

}  // namespace

std::optional<Failure> check_seed(uint64_t seed, Backend& backend, const GenOptions& gen,
                                  SeedStats* stats) {
  RandomChoices choices(seed);
  Program p;
  if (auto f = generated(p, [&] { return generate(choices, gen); })) return f;
  if (auto f = check_steering(p, gen.steering)) return f;
  if (stats) count_edges(p, stats->edges);
  if (auto f = check_engines(p, backend, draw_engine_config(choices, p))) return f;
  if (auto f = check_roundtrip(p)) return f;
  if (seed % 4 != 0) return std::nullopt;
  if (auto f = check_bounds(p)) return f;
  // Rebuilding pad and flip from primitives makes programs several times larger (the
  // anti-identity is quadratic), so the composites run on every fourth program, and through
  // the compiled engine on every sixteenth; so does the bounds oracle, which interprets the
  // program again keeping every value.
  if (auto f = check_composites(p, backend, seed % 16 == 0)) return f;
  Broken b = break_one_rule(choices, p);
  if (auto f = check_rejected(b.text, b.rule)) return f;
  // z3 takes a few milliseconds an expression, a few programs' worth.
  if (seed % 32 != 0) return std::nullopt;
  return check_symbolic(choices, stats ? &stats->symbolic : nullptr);
}

std::optional<Failure> check_input(Choices& choices, Backend& backend, const Steering& steering,
                                   Seen* seen) {
  auto once = [seen](const std::string& content, const auto& check) -> std::optional<Failure> {
    if (seen && seen->contains(content)) return std::nullopt;
    std::optional<Failure> f = check();
    if (!f && seen) seen->insert(content);
    return f;
  };
  // Small values and the composites through the interpreter only keep an input near the
  // 10 ms libFuzzer wants, even under the sanitizers.
  GenOptions gen;
  gen.max_numel = 64;
  gen.steering = steering;
  Program p;
  if (auto f = generated(p, [&] { return generate(choices, gen); })) return f;
  if (auto f = check_steering(p, steering)) return f;
  EngineConfig config = draw_engine_config(choices, p);
  std::string printed = print_program(p);
  // A program met before with other settings needs only the engines again.
  auto engines = [&] { return check_engines(p, backend, config); };
  if (auto f = once("engines " + config.flags() + "\n" + printed, engines)) return f;
  auto program = [&] { return check_independent_of_settings(p, backend, false, &printed); };
  if (auto f = once("program\n" + printed, program)) return f;
  Broken b = break_one_rule(choices, p, printed);
  auto rejected = [&] { return check_rejected(b.text, b.rule); };
  if (auto f = once("broken " + b.rule + "\n" + b.text, rejected)) return f;
  // z3 costs a few milliseconds an expression.
  if (!choices.one_in(4)) return std::nullopt;
  RandomExpr expr = random_expr(choices);
  return once("expression " + expression_text(expr), [&] { return check_expression(expr); });
}

Program target_program(uint64_t seed, Choices& choices, const GenOptions& gen) {
  // An engine's simplifier is tested by values alone, where uopc's own is also decided by the
  // symbolic oracle.
  return seed % 8 == 5 ? expressions_program(choices, gen) : generate(choices, gen);
}

std::optional<Failure> check_seed_target(uint64_t seed, const GenOptions& gen, Target& target,
                                         bool rejection, bool* skipped) {
  RandomChoices choices(seed);
  Program p;
  if (auto f = generated(p, [&] { return target_program(seed, choices, gen); })) return f;
  if (auto f = check_steering(p, gen.steering)) return f;
  // As uopc's own engine is run (check_seed); a persistent engine keeps its settings from one
  // start to the next, so it gets the plain ones throughout.
  EngineConfig config = draw_engine_config(choices, p);
  if (target.persistent()) config = {};
  if (auto f = check_target(p, target, skipped, config)) return f;
  // Every fourth program breaks a rule of its own; every eighth, two further on, tests interval
  // rules on a program of literals, as one over buffers seldom can. Each costs a run of the
  // engine, which the programs that look for wrong values need as much.
  if (!rejection || (seed % 4 != 0 && seed % 8 != 2)) return std::nullopt;
  std::optional<Broken> b =
      seed % 4 == 0 ? break_one_rule(choices, p) : break_an_interval_rule(choices, gen);
  if (!b) return std::nullopt;
  // What uopc's own checker lets through is uopc's failure (the rejection oracle's), not the
  // engine's.
  if (check_rejected(b->text, b->rule)) return std::nullopt;
  return check_target_rejects(b->text, breaks_rule(*b), target, skipped);
}

CampaignResult run_campaign(const CampaignOptions& o) {
  std::unique_ptr<Backend> backend = make_backend(o.backend);
  if (!backend) throw std::invalid_argument("no backend named " + o.backend);
  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  CampaignResult r;
  while ((o.max_programs < 0 || r.programs < o.max_programs) && elapsed() < o.seconds) {
    uint64_t seed = o.seed + static_cast<uint64_t>(r.programs);
    if (o.on_program) o.on_program(seed);
    std::optional<Failure> f = check_seed(seed, *backend, o.gen);
    ++r.programs;
    if (o.progress && r.programs % 256 == 0) o.progress(r.programs);
    if (f) {
      r.failure = f;
      r.failing_seed = seed;
      break;
    }
  }
  r.seconds = elapsed();
  return r;
}

}  // namespace uopc
