// The kernel memo (compiler/compile_memo.h) over generated programs: within one memo, a program
// that takes kernels lowered and rendered for programs before it compiles to what it compiles
// to outside any memo, to the byte and to the buffer.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/compile_memo.h"
#include "fuzz/campaign.h"
#include "fuzz/choices.h"
#include "fuzz/gen.h"
#include "ir/error.h"
#include "ir/parse.h"
#include "ir/print.h"

namespace uopc {
namespace {

// Everything of a compile that running it depends on, as text. The nodes it names are the
// program's, alive throughout.
std::string compiled_text(const CompiledProgram& c) {
  std::ostringstream out;
  out << c.source;
  for (const BufferSpec& b : c.schedule.buffers) out << " buffer " << b.size << " " << b.node;
  for (const KernelSpec& k : c.schedule.kernels) {
    out << "\n"
        << k.name << " root " << k.root.get() << " threads " << k.thread_size << " reduced "
        << k.reduced_here << " args";
    for (int a : k.args) out << " " << a;
  }
  std::map<const UOp*, Unroll> unrolled(c.schedule.unrolled.begin(), c.schedule.unrolled.end());
  for (const auto& [reduce, u] : unrolled)
    out << "\nreduce " << reduce << " unroll " << u.factor << (u.in_order ? " in order" : "");
  return out.str();
}

// Programs that share kernels the ways a mutated or reduced program does: each generated
// program, every prefix of its statements, and the program again; each with its seed's
// kernel options.
struct Variant {
  Program program;
  OptsChoice opts;
};
std::vector<Variant> variants(uint64_t seeds) {
  std::vector<Variant> out;
  for (uint64_t seed = 0; seed < seeds; ++seed) {
    RandomChoices choices(seed);
    Program p = generate(choices);
    OptsChoice opts = draw_engine_config(choices, p).opts;
    std::istringstream lines(print_program(p));
    std::string prefix, line;
    while (std::getline(lines, line)) {
      prefix += line + "\n";
      try {
        out.push_back({parse_program(prefix, "prefix.uir"), opts});
      } catch (const UserError&) {
      }
    }
    out.push_back({p, opts});
  }
  return out;
}

TEST(KernelMemo, KernelsTakenFromEarlierProgramsCompileAsTheyDoAfresh) {
  std::vector<Variant> all = variants(80);
  std::vector<std::string> fresh;
  for (const Variant& v : all)
    fresh.push_back(compiled_text(compile_program(v.program, {}, v.opts)));
  CompileMemo memo;
  for (size_t k = 0; k < all.size(); ++k)
    ASSERT_EQ(compiled_text(compile_program(all[k].program, {}, all[k].opts)), fresh[k])
        << print_program(all[k].program) << format_opts_choice(all[k].opts);
  EXPECT_GT(memo.kernel_hits(), all.size()) << "the programs shared too few kernels to test";
}

}  // namespace
}  // namespace uopc
